import { type SmtpConfig, addressDomain, createSmtpMailer } from '@secret-push/mail';
import type { MailSender } from '../domain/ports/mail-sender';

/**
 * The push service's SMTP sender (packages/mail's nodemailer transport, pooled): it tells a
 * temporary failure (4xx, unreachable) from a final one (5xx). Credentials never reach a log.
 */
export function createSmtpSender(config: SmtpConfig): MailSender & { messageIdDomain: string } {
  const mailer = createSmtpMailer(config);
  return {
    send: (mail) => mailer.send(mail),
    close: () => mailer.close(),
    messageIdDomain: addressDomain(config.from),
  };
}
