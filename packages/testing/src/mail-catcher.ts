import { type AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message the catcher accepted, parsed. */
export interface CaughtMail {
  id: number;
  receivedAt: Date;
  /** The envelope's sender and recipients (what the SMTP exchange said, not the headers). */
  envelope: { from: string; to: string[] };
  messageId: string | undefined;
  from: string;
  to: string;
  replyTo: string | undefined;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  raw: string;
}

/** An SMTP reply the catcher gives to the next messages instead of accepting them. */
export interface ScriptedFailure {
  /** 4xx (temporary) or 5xx (permanent). */
  code: number;
  message?: string;
  /** Only for messages to this recipient (any when unset). */
  to?: string;
}

export interface MailCatcher {
  /** `smtp://127.0.0.1:<port>` (no TLS, no authentication: a local catcher). */
  url: string;
  port: number;
  messages: CaughtMail[];
  /** Resolves with the first message (already caught or to come) that `match` accepts. */
  waitFor(match: (m: CaughtMail) => boolean, timeoutMs?: number): Promise<CaughtMail>;
  /** The next `times` messages (matching `failure.to` when set) get this reply instead of being accepted. */
  fail(failure: ScriptedFailure, times?: number): void;
  /** Forget every message and scripted failure. */
  clear(): void;
  close(): Promise<void>;
}

function headerMap(parsed: ParsedMail): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of parsed.headerLines) out[line.key] = line.line.slice(line.line.indexOf(':') + 1).trim();
  return out;
}

const addressText = (a: ParsedMail['to']): string =>
  a === undefined ? '' : Array.isArray(a) ? a.map((x) => x.text).join(', ') : a.text;

/**
 * A real SMTP server in this process (smtp-server + mailparser), for tests and for `make up`'s
 * local inbox: it accepts every message (unless a failure is scripted) and keeps it parsed.
 */
export async function startMailCatcher(options: { port?: number; host?: string } = {}): Promise<MailCatcher> {
  const messages: CaughtMail[] = [];
  const waiters = new Set<{ match: (m: CaughtMail) => boolean; resolve: (m: CaughtMail) => void }>();
  let failures: { failure: ScriptedFailure; left: number }[] = [];
  let nextId = 1;

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 10 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        const scripted = failures.find((f) => f.left > 0 && (!f.failure.to || to.includes(f.failure.to)));
        if (scripted) {
          scripted.left -= 1;
          failures = failures.filter((f) => f.left > 0);
          const err = Object.assign(new Error(scripted.failure.message ?? 'Scripted failure'), {
            responseCode: scripted.failure.code,
          });
          callback(err);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw)
          .then((parsed) => {
            const mail: CaughtMail = {
              id: nextId++,
              receivedAt: new Date(),
              envelope: { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to },
              messageId: parsed.messageId,
              from: addressText(parsed.from),
              to: addressText(parsed.to),
              replyTo: parsed.replyTo ? addressText(parsed.replyTo) : undefined,
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              headers: headerMap(parsed),
              raw,
            };
            messages.push(mail);
            for (const w of waiters) {
              if (w.match(mail)) {
                waiters.delete(w);
                w.resolve(mail);
              }
            }
            callback(null, `Queued as ${mail.id}`);
          })
          .catch((err: Error) => callback(err));
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  server.on('error', () => undefined);
  const port = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitFor(match, timeoutMs = 15_000) {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve: (m: CaughtMail) => (clearTimeout(timer), resolve(m)) };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching email within ${timeoutMs} ms (${messages.length} caught)`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    fail(failure, times = 1) {
      failures.push({ failure, left: times });
    },
    clear() {
      messages.length = 0;
      failures = [];
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
