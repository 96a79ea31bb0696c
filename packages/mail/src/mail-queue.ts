import { type Kysely, sql } from 'kysely';
import { type Mailer, type OutgoingMail, type SendOutcome } from './mailer';
import { MAIL_RETRY_SCHEDULE, retryDelaySeconds } from './retry-schedule';

/**
 * A table of outgoing email with its delivery state in PostgreSQL (one per service database),
 * consumed with `FOR UPDATE SKIP LOCKED` by any number of senders. Every such table has at least
 * these columns (see {@link mailQueueColumns}); a service adds its own (what to compose from).
 *
 * States: `queued` → `sending` (leased to one sender until `next_attempt_at`) → `sent`, or
 * `deferred` (a temporary failure; due again at `next_attempt_at`), or `failed` (final: a
 * permanent failure, the schedule spent, or the message no longer wanted). A sender that dies
 * while it holds a lease loses nothing: the lease runs out and the message is due again (at least
 * once; every attempt carries the same Message-ID).
 */
export interface MailQueueRow {
  id: string;
  recipient: string;
  status: MailStatus;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  smtp_response: string | null;
  sent_at: Date | null;
}

export type MailStatus = 'queued' | 'sending' | 'deferred' | 'sent' | 'failed';

/** The columns every mail queue table has, for its migration (`addColumns(createTable(…))`). */
export const mailQueueColumns = `
  id uuid primary key default gen_random_uuid(),
  recipient text not null,
  status text not null default 'queued' check (status in ('queued', 'sending', 'deferred', 'sent', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_error text,
  smtp_response text,
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()`;

/** The partial index a queue table needs so that finding what is due reads only what is pending. */
export const mailQueueIndex = (table: string) =>
  `create index ${table}_due_idx on ${table} (next_attempt_at) where status in ('queued', 'sending', 'deferred')`;

// A queue table of any service's database: the statements name it, they know no other column.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Leases up to `limit` due messages to this sender for `leaseSeconds` (counting the attempt), oldest
 * due first, skipping those another sender holds; a lease that ran out (a sender that died) is due.
 */
export async function leaseDue<R extends MailQueueRow>(
  db: AnyDb,
  table: string,
  options: { limit: number; leaseSeconds: number },
): Promise<R[]> {
  const t = sql.table(table);
  const { rows } = await sql<R>`
    update ${t} m set status = 'sending', attempts = m.attempts + 1,
      next_attempt_at = now() + make_interval(secs => ${options.leaseSeconds}), updated_at = now()
    where m.id in (
      select id from ${t}
      where status in ('queued', 'sending', 'deferred') and next_attempt_at <= now()
      order by next_attempt_at
      limit ${options.limit}
      for update skip locked
    )
    returning m.*`.execute(db);
  return rows;
}

/** What a composer decided: this message, or none (no longer wanted, final, with the reason). */
export type Composed = { mail: OutgoingMail } | { cancel: string };

/**
 * Records one attempt's outcome, only if the lease is still this attempt's: the new status, or
 * `sending` when the lease had passed to another sender (nothing recorded). `onFinalFailure` runs in
 * the transaction that records a final failure (a service's event about it commits with it, or
 * neither does).
 */
export async function recordOutcome(
  db: AnyDb,
  table: string,
  row: Pick<MailQueueRow, 'id' | 'attempts'>,
  outcome: SendOutcome | { cancelled: string },
  schedule: readonly number[] = MAIL_RETRY_SCHEDULE,
  onFinalFailure?: (trx: AnyDb) => Promise<void>,
): Promise<MailStatus> {
  const t = sql.table(table);
  let status: MailStatus;
  let set;
  if ('cancelled' in outcome) {
    status = 'failed';
    set = sql`status = 'failed', last_error = ${outcome.cancelled}`;
  } else if (outcome.ok) {
    status = 'sent';
    set = sql`status = 'sent', smtp_response = ${outcome.response}, sent_at = now(), last_error = null`;
  } else {
    const delay = outcome.temporary ? retryDelaySeconds(row.attempts, schedule) : null;
    status = delay === null ? 'failed' : 'deferred';
    const reason =
      delay === null && outcome.temporary
        ? `gave up after ${row.attempts} attempts: ${outcome.reason}`
        : outcome.reason;
    set =
      delay === null
        ? sql`status = 'failed', last_error = ${reason}`
        : sql`status = 'deferred', last_error = ${reason}, next_attempt_at = now() + make_interval(secs => ${delay})`;
  }
  const update = async (on: AnyDb) => {
    const r = await sql`update ${t} set ${set}, updated_at = now()
      where id = ${row.id} and attempts = ${row.attempts} and status = 'sending'`.execute(on);
    return Number(r.numAffectedRows ?? 0) > 0;
  };
  if (status === 'failed' && onFinalFailure) {
    const recorded = await db.transaction().execute(async (trx) => {
      if (!(await update(trx))) return false;
      await onFinalFailure(trx);
      return true;
    });
    return recorded ? status : 'sending';
  }
  return (await update(db)) ? status : 'sending';
}

export interface DeliveryReport {
  sent: number;
  deferred: number;
  failed: number;
}

/**
 * One round of a sender: lease what is due, compose each (a service's own rendering: it may say the
 * message is no longer wanted), send it through `mailer` with a Message-ID stable across attempts
 * (`<id@domain>`), record each outcome. `onOutcome` sees each row and its new status (metrics,
 * audit, events). Sends run `concurrency` at a time.
 */
export async function deliverDue<R extends MailQueueRow>(args: {
  db: AnyDb;
  table: string;
  mailer: Mailer;
  messageIdDomain: string;
  compose: (row: R) => Promise<Composed>;
  limit: number;
  leaseSeconds: number;
  concurrency?: number;
  schedule?: readonly number[];
  onOutcome?: (row: R, status: MailStatus, detail: string) => Promise<void> | void;
  /** Runs in the transaction that records a row's final failure (see {@link recordOutcome}). */
  onFinalFailure?: (trx: AnyDb, row: R) => Promise<void>;
}): Promise<DeliveryReport> {
  const rows = await leaseDue<R>(args.db, args.table, { limit: args.limit, leaseSeconds: args.leaseSeconds });
  const report: DeliveryReport = { sent: 0, deferred: 0, failed: 0 };
  const queue = [...rows];
  const one = async (row: R) => {
    let outcome: SendOutcome | { cancelled: string };
    try {
      const composed = await args.compose(row);
      outcome =
        'cancel' in composed
          ? { cancelled: composed.cancel }
          : await args.mailer.send({ ...composed.mail, messageId: `<${row.id}@${args.messageIdDomain}>` });
    } catch (err) {
      outcome = { ok: false, temporary: true, reason: `could not compose: ${(err as Error).message}` };
    }
    const onFinal = args.onFinalFailure;
    const status = await recordOutcome(
      args.db,
      args.table,
      row,
      outcome,
      args.schedule,
      onFinal && ((trx) => onFinal(trx, row)),
    );
    if (status === 'sending') return;
    report[status === 'sent' ? 'sent' : status === 'deferred' ? 'deferred' : 'failed'] += 1;
    const detail =
      'cancelled' in outcome ? outcome.cancelled : outcome.ok ? outcome.response : outcome.reason;
    await args.onOutcome?.(row, status, detail);
  };
  const workers = Array.from({ length: Math.min(args.concurrency ?? 4, queue.length) }, async () => {
    for (let row = queue.shift(); row; row = queue.shift()) await one(row);
  });
  await Promise.all(workers);
  return report;
}

/** The domain part of an address (`Name <a@b>` or `a@b`): a Message-ID's right-hand side. */
export function addressDomain(from: string): string {
  const m = /@([^<>@\s]+)>?\s*$/.exec(from);
  return m ? m[1]! : 'localhost';
}
