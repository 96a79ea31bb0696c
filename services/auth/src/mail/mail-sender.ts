import type { Kysely } from 'kysely';
import type { Logger } from '@secret-push/logger';
import { type Composed, type Mailer, type MailStatus, deliverDue } from '@secret-push/mail';
import type { AuthMetrics } from '../observability/metrics';
import { AUTH_EMAIL_TABLE, purgeFinishedEmail } from '../storage/auth-email.repository';
import type { AuthDatabase } from '../storage/database';
import { purgeEndedResets } from '../storage/password-reset.repository';
import type { AuthEmailQueueRow } from './compose';

/** Rows one round leases at most; a full round is followed at once by another. */
const BATCH = 20;
/** Sent and failed rows are kept this long (what was sent, for the operator), then deleted. */
const KEEP_DAYS = 30;
/** How often the old rows are purged. */
const PURGE_EVERY_MS = 3600_000;

export interface MailSenderDeps {
  db: Kysely<AuthDatabase>;
  mailer: Mailer;
  compose: (row: AuthEmailQueueRow) => Promise<Composed>;
  logger: Logger;
  metrics: AuthMetrics;
  /** AUTH_MAIL_POLL_MS. */
  pollMs: number;
  /** One attempt's deadline (AUTH_SMTP_TIMEOUT_MS): a lease outlasts it. */
  smtpTimeoutMs: number;
  /** The Message-ID's right-hand side (the From address's domain). */
  messageIdDomain: string;
  /** The retry schedule (seconds); `@secret-push/mail`'s by default. */
  schedule?: readonly number[];
}

export interface MailSender {
  /** Stops polling and waits for the round in flight. */
  stop(): Promise<void>;
}

/**
 * The auth service's mail sender, in every auth process (no worker exists for auth): every
 * `pollMs` it leases what is due in `auth_email` (`deliverDue`: FOR UPDATE SKIP LOCKED, so any
 * number of replicas share the table and each message goes to one of them), composes, sends and
 * records each outcome with the retry schedule; a full batch is followed at once by the next. A
 * process that dies mid-send loses nothing: its lease runs out and the message is due again. A
 * failure of the database or of SMTP never reaches a request: it is logged, and the next round
 * tries again.
 */
export function startMailSender(deps: MailSenderDeps): MailSender {
  const { logger, metrics } = deps;
  const leaseSeconds = Math.ceil(deps.smtpTimeoutMs / 1000) * 2 + 30;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let failing = false;
  let lastPurge = 0;

  const onOutcome = (row: AuthEmailQueueRow, status: MailStatus, detail: string) => {
    metrics.emails.inc({ kind: row.kind, status });
    const line = { email_id: row.id, kind: row.kind, attempts: row.attempts, status, detail };
    if (status === 'sent') logger.info(line, 'email sent');
    else logger.warn(line, status === 'deferred' ? 'email deferred (will retry)' : 'email failed');
  };

  async function purge(): Promise<void> {
    if (Date.now() - lastPurge < PURGE_EVERY_MS) return;
    lastPurge = Date.now();
    const emails = await purgeFinishedEmail(deps.db, KEEP_DAYS);
    const resets = await purgeEndedResets(deps.db);
    if (emails + resets > 0) logger.info({ emails, resets }, 'purged old email and password resets');
  }

  async function round(): Promise<void> {
    try {
      for (let full = true; full && !stopped;) {
        const report = await deliverDue<AuthEmailQueueRow>({
          db: deps.db,
          table: AUTH_EMAIL_TABLE,
          mailer: deps.mailer,
          messageIdDomain: deps.messageIdDomain,
          compose: deps.compose,
          limit: BATCH,
          leaseSeconds,
          ...(deps.schedule && { schedule: deps.schedule }),
          onOutcome,
        });
        full = report.sent + report.deferred + report.failed >= BATCH;
      }
      await purge();
      if (failing) logger.info('mail sender: database reachable again');
      failing = false;
    } catch (err) {
      if (!failing) logger.warn({ err: (err as Error).message }, 'mail sender: round failed, retrying');
      failing = true;
    }
  }

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      inFlight = round().finally(() => {
        inFlight = undefined;
        schedule();
      });
    }, deps.pollMs);
    timer.unref();
  };
  schedule();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
      deps.mailer.close();
    },
  };
}
