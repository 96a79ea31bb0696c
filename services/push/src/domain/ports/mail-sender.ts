/*
 * The outbound mail port: outbound/smtp-sender.ts implements it over packages/mail (nodemailer).
 * The types are packages/mail's own (one message, one attempt's outcome, the sender), under the
 * names the domain uses; only types cross, no SMTP code.
 */
export type {
  Mailer as MailSender,
  OutgoingMail as OutgoingEmail,
  SendOutcome as SendResult,
} from '@secret-push/mail';
