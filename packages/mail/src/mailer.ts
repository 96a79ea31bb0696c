import type Nodemailer from 'nodemailer';
import type { SmtpConfig } from './smtp-env';

/** One message to one recipient: a plain-text part and an HTML part that say the same. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * A stable Message-ID (`<id@domain>`): every retry of one delivery sends the same, so a receiver
   * that saw an earlier attempt can tell it is a copy.
   */
  messageId?: string;
  headers?: Record<string, string>;
}

/** What became of one attempt: accepted (with the server's reply), or refused for now or for good. */
export type SendOutcome = { ok: true; response: string } | { ok: false; temporary: boolean; reason: string };

export interface Mailer {
  send(mail: OutgoingMail): Promise<SendOutcome>;
  close(): void;
}

/**
 * Whether an SMTP failure may pass if tried again: a 4xx reply, a connection or time-out error
 * (the server could not be reached or stopped answering) are temporary; a 5xx reply (bad
 * mailbox, refused sender, message refused) is final. Anything unclassified counts as temporary.
 */
export function classifySmtpError(err: unknown): { temporary: boolean; reason: string } {
  const e = err as { responseCode?: number; response?: string; code?: string; message?: string };
  const reason = (e.response ?? e.message ?? String(err)).slice(0, 500);
  if (typeof e.responseCode === 'number') return { temporary: e.responseCode < 500, reason };
  return { temporary: true, reason: e.code ? `${e.code}: ${reason}` : reason };
}

/** A sender over SMTP (nodemailer, a pooled transport). Credentials never reach a log. */
export function createSmtpMailer(config: SmtpConfig): Mailer {
  // Loaded here, not when the package is imported: the push API imports the package for its
  // queue and settings only and never sends (nodemailer is ~0.7 MiB of source kept in its heap).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const nodemailer = require('nodemailer') as typeof Nodemailer;
  // A pool of a few connections, each reused for many messages: one TLS handshake and login per
  // connection instead of per message (sends run several at a time: see deliverDue).
  const transport = nodemailer.createTransport(
    {
      url: config.url,
      pool: true,
      maxConnections: 4,
      maxMessages: 100,
      connectionTimeout: config.timeoutMs,
      greetingTimeout: config.timeoutMs,
      socketTimeout: config.timeoutMs,
    },
    { from: config.from, ...(config.replyTo && { replyTo: config.replyTo }) },
  );
  return {
    async send(mail) {
      try {
        const info = await transport.sendMail({
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          ...(mail.messageId && { messageId: mail.messageId }),
          ...(mail.headers && { headers: mail.headers }),
        });
        if (info.rejected.length > 0) {
          return { ok: false, temporary: false, reason: `rejected: ${String(info.response)}` };
        }
        return { ok: true, response: String(info.response).slice(0, 500) };
      } catch (err) {
        return { ok: false, ...classifySmtpError(err) };
      }
    },
    close: () => transport.close(),
  };
}
