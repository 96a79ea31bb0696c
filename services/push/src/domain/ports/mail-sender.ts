/* The outbound mail port: outbound/smtp-sender.ts implements it over packages/mail (nodemailer). */

/** One message to one recipient, plain text and HTML that say the same. */
export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stable across the attempts of one email (set by the queue). */
  messageId?: string;
  headers?: Record<string, string>;
}

export type SendResult = { ok: true; response: string } | { ok: false; temporary: boolean; reason: string };

/** An SMTP sender (outbound/smtp-sender.ts): says whether a failure is temporary or final. */
export interface MailSender {
  send(mail: OutgoingEmail): Promise<SendResult>;
  close(): void;
}
