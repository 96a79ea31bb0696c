import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { PushRecord } from './load';
import { waitFor } from './processes';
import type { Stack } from './stack';
import type { Message } from './webhook-receiver';

/*
 * Webhooks under the faults, checked once every fault has healed: the outbox drained and no
 * delivery left to attempt (bounded), then every push the client acknowledged (201) has its
 * `push.created` at the receiver, every payload served to the load its `push.viewed`; every message
 * verified, each `webhook-id` always with the same body (duplicates are allowed: at least once),
 * no delivery failed, and no body carries a payload, url_token, passphrase or file name.
 */

/**
 * How long the deliveries may take to settle once the faults are over. A worker whose database
 * went away after it sent a message but before it recorded the outcome leaves the delivery leased:
 * it is sent again when the lease (60 s) runs out. A delivery refused while the receiver was down is
 * retried after the first delay of the schedule (5 s ± 20 %). The phases before the end usually
 * take care of both; a run of only the PostgreSQL phases may have to wait out a lease here.
 */
export const WEBHOOKS_SETTLE_BOUND_MS = 75_000;

/** A push's reference in webhook bodies: the first 16 hex characters of SHA-256(url_token). */
export const pushRef = (urlToken: string) =>
  createHash('sha256').update(urlToken, 'utf8').digest('hex').slice(0, 16);

export interface Backlog {
  /** Events in the outbox. */
  events: number;
  /** Deliveries pending or leased (`delivering`). */
  open: number;
}

export async function backlog(s: Stack): Promise<Backlog> {
  const { rows } = await sql<Backlog>`select
      (select count(*)::int from push_event) as events,
      (select count(*)::int from webhook_delivery where status in ('pending', 'delivering')) as open`.execute(
    s.db,
  );
  return rows[0] ?? { events: -1, open: -1 };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export interface PhaseWindow {
  name: string;
  from: number;
  to: number;
}

export interface WebhookCheck {
  messages: number;
  /** Deliveries by status, as the database has them. */
  byStatus: Record<string, number>;
  notes: string[];
  problems: string[];
}

export async function checkWebhooks(
  s: Stack,
  records: readonly PushRecord[],
  windows: readonly PhaseWindow[],
): Promise<WebhookCheck> {
  const problems: string[] = [];
  const notes: string[] = [];
  const waitStart = Date.now();
  const settled = await waitFor(
    async () => {
      const b = await backlog(s);
      return b.events === 0 && b.open === 0;
    },
    WEBHOOKS_SETTLE_BOUND_MS,
    500,
  );
  if (settled) {
    notes.push(`outbox drained and no delivery open ${Date.now() - waitStart} ms after this check began`);
  } else {
    const b = await backlog(s);
    const open = await s.db
      .selectFrom('webhook_delivery')
      .select(['id', 'type', 'status', 'attempts', 'last_error', 'next_attempt_at'])
      .where('status', 'in', ['pending', 'delivering'])
      .orderBy('next_attempt_at')
      .limit(5)
      .execute();
    problems.push(
      `${WEBHOOKS_SETTLE_BOUND_MS} ms after this check began: ${b.events} events still in the outbox, ${b.open} deliveries open ` +
        `(e.g. ${open.map((d) => `${d.id} ${d.type} ${d.status} after ${d.attempts} attempts, ${d.last_error ?? 'no error'}, next ${d.next_attempt_at.toISOString()}`).join('; ')})`,
    );
  }

  const rows = await s.db
    .selectFrom('webhook_delivery')
    .select(['id', 'type', 'status', 'attempts', 'last_error'])
    .execute();
  const byStatus: Record<string, number> = {};
  for (const r of rows) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
  const failed = rows.filter((r) => r.status === 'failed');
  if (failed.length > 0) {
    problems.push(
      `${failed.length} deliveries failed: ${failed
        .slice(0, 5)
        .map((d) => `${d.id} ${d.type} after ${d.attempts} attempts: ${d.last_error}`)
        .join('; ')}`,
    );
  }

  const messages = s.receiver.messages;
  const byId = new Map<string, Message[]>();
  for (const m of messages) byId.set(m.id, [...(byId.get(m.id) ?? []), m]);
  const conflicting = [...byId].filter(([, ms]) => new Set(ms.map((m) => m.body)).size > 1);
  if (conflicting.length > 0) {
    problems.push(
      `${conflicting.length} webhook-ids came with different bodies: ${conflicting
        .slice(0, 5)
        .map(([id]) => id)
        .join(', ')}`,
    );
  }
  const unverified = messages.filter((m) => !m.verified);
  if (unverified.length > 0) {
    problems.push(
      `${unverified.length} messages failed verification: ${unverified
        .slice(0, 3)
        .map((m) => `${m.id}: ${m.why}`)
        .join('; ')}`,
    );
  }
  const succeededUnseen = rows.filter((r) => r.status === 'succeeded' && !byId.has(r.id));
  if (succeededUnseen.length > 0) {
    problems.push(
      `${succeededUnseen.length} deliveries recorded succeeded that the receiver never got: ${succeededUnseen
        .slice(0, 5)
        .map((r) => r.id)
        .join(', ')}`,
    );
  }

  // Per push: the distinct messages of each type (a message received twice counts once).
  const seen = new Map<string, { created: number; viewed: number }>();
  for (const [, [m]] of byId) {
    if (!m?.ref) continue;
    const c = seen.get(m.ref) ?? { created: 0, viewed: 0 };
    if (m.type === 'push.created') c.created++;
    if (m.type === 'push.viewed') c.viewed++;
    seen.set(m.ref, c);
  }
  const owned = records.filter((r) => r.owned);
  const refs = new Map(records.map((r) => [pushRef(r.token), r]));
  const noCreated = owned.filter((r) => !seen.get(pushRef(r.token))?.created);
  if (noCreated.length > 0) {
    problems.push(
      `${noCreated.length} of ${owned.length} pushes of the client have no push.created (created in: ${[...new Set(noCreated.map((r) => r.phase))].join(', ')})`,
    );
  }
  const viewsMissing = owned.filter((r) => (seen.get(pushRef(r.token))?.viewed ?? 0) < r.delivered);
  if (viewsMissing.length > 0) {
    problems.push(
      `${viewsMissing.length} pushes of the client served more often than they have push.viewed: ` +
        viewsMissing
          .slice(0, 5)
          .map(
            (r) =>
              `${r.kind} push of "${r.phase}": ${r.delivered} served, ${seen.get(pushRef(r.token))?.viewed ?? 0} push.viewed`,
          )
          .join('; '),
    );
  }
  const strangers = [...seen.keys()].filter((ref) => refs.has(ref) && !refs.get(ref)!.owned);
  if (strangers.length > 0) {
    problems.push(`messages about ${strangers.length} pushes of other owners (anonymous)`);
  }

  // No secret of any push the load made in any body.
  const secrets = records.flatMap((r) => [
    r.payload,
    r.token,
    ...(r.passphrase ? [r.passphrase] : []),
    ...(r.file ? [r.file.name] : []),
  ]);
  const bodies = [...new Set(messages.map((m) => m.body))];
  const leaks = bodies.filter((b) => secrets.some((x) => b.includes(x)));
  if (leaks.length > 0) {
    problems.push(`${leaks.length} message bodies carry a payload, url_token, passphrase or file name`);
  }

  const firsts = [...byId.values()]
    .map((ms) => ({ at: ms[0]!.eventAt, lag: Math.min(...ms.map((m) => m.receivedAt)) - ms[0]!.eventAt }))
    .filter((x) => Number.isFinite(x.lag));
  const lags = firsts.map((x) => x.lag).sort((a, b) => a - b);
  const byPhase = windows.map((w) => {
    const during = firsts.filter((x) => x.at >= w.from && x.at < w.to);
    return `${w.name} ${during.length} (max ${Math.max(0, ...during.map((x) => x.lag))} ms)`;
  });
  const types = new Map<string, number>();
  for (const [, [m]] of byId) types.set(m!.type, (types.get(m!.type) ?? 0) + 1);
  const retried = rows.filter((r) => r.attempts > 1).length;
  notes.push(
    `${messages.length} messages received, ${byId.size} distinct webhook-ids (${messages.length - byId.size} duplicates), ` +
      `${[...types].map(([t, n]) => `${t} ${n}`).join(', ')}; ${rows.length} deliveries, ${retried} of them attempted more than once`,
  );
  notes.push(
    `event to first receipt: p50 ${percentile(lags, 50)} ms, p99 ${percentile(lags, 99)} ms, max ${lags.at(-1) ?? 0} ms; ` +
      `${owned.length} pushes of the client (${owned.reduce((n, r) => n + r.delivered, 0)} payloads served), ${records.length - owned.length} anonymous`,
  );
  notes.push(`events of each phase received, and their longest lag: ${byPhase.join(', ')}`);
  return { messages: messages.length, byStatus, notes, problems };
}
