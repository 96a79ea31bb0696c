export { type SmtpConfig, smtpSection } from './smtp-env';
export {
  type Mailer,
  type OutgoingMail,
  type SendOutcome,
  classifySmtpError,
  createSmtpMailer,
} from './mailer';
export { MAIL_RETRY_SCHEDULE, retryDelaySeconds } from './retry-schedule';
export {
  type Composed,
  type DeliveryReport,
  type MailQueueRow,
  type MailStatus,
  addressDomain,
  deliverDue,
  leaseDue,
  mailQueueColumns,
  mailQueueIndex,
  recordOutcome,
} from './mail-queue';
