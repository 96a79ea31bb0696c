import { type Kysely, sql } from 'kysely';
import type { PushKind } from '../domain/push';
import type { AttemptRecord, LeasedDelivery, WebhookDeliveryStore } from '../domain/ports/webhook-store';
import type { DeliveryStatus, FailedEmailFacts, WebhookDelivery, WebhookEventType } from '../domain/webhook';
import type { PushDatabase } from './database';
import type { WebhookDeliveryRow } from './webhook.table';

type Db = Kysely<PushDatabase>;

/** Deliveries per page of the log. */
export const DELIVERY_PAGE_SIZE = 50;

const toDelivery = (row: WebhookDeliveryRow): WebhookDelivery => ({
  id: row.id,
  endpointId: row.endpoint_id,
  eventId: row.event_id,
  type: row.type,
  status: row.status as DeliveryStatus,
  attempts: row.attempts,
  nextAttemptAt: row.status === 'pending' || row.status === 'delivering' ? row.next_attempt_at : null,
  lastStatus: row.last_status,
  lastError: row.last_error,
  latencyMs: row.latency_ms,
  response: row.response,
  deliveredAt: row.delivered_at,
  createdAt: row.created_at,
});

interface LeasedRow {
  id: string;
  endpoint_id: string;
  owner: string;
  attempts: number;
  body: string;
  url: string;
  enabled: boolean;
  key_id: string;
  secret_sealed: Buffer;
  previous_key_id: string | null;
  previous_secret_sealed: Buffer | null;
}

/** See WebhookDeliveryStore.leaseDue. */
async function leaseDue(db: Db, limit: number, leaseSeconds: number): Promise<LeasedDelivery[]> {
  const { rows } = await sql<LeasedRow>`
    with due as (
      select id from webhook_delivery
      where status in ('pending', 'delivering') and next_attempt_at <= now()
      order by next_attempt_at
      limit ${limit}
      for update skip locked
    ), l as (
      update webhook_delivery d set status = 'delivering', attempts = d.attempts + 1,
        next_attempt_at = now() + make_interval(secs => ${leaseSeconds}), updated_at = now()
      from due where d.id = due.id
      returning d.id, d.endpoint_id, d.attempts, d.body
    )
    select l.*, e.owner, e.url, e.enabled, e.key_id, e.secret_sealed,
      case when e.previous_until > now() then e.previous_key_id end as previous_key_id,
      case when e.previous_until > now() then e.previous_secret_sealed end as previous_secret_sealed
    from l join webhook_endpoint e on e.id = l.endpoint_id`.execute(db);
  return rows.map((r): LeasedDelivery => ({
    id: r.id,
    endpointId: r.endpoint_id,
    owner: r.owner,
    attempts: r.attempts,
    body: r.body,
    url: r.url,
    enabled: r.enabled,
    secrets: [
      { keyId: r.key_id, data: r.secret_sealed },
      ...(r.previous_key_id && r.previous_secret_sealed
        ? [{ keyId: r.previous_key_id, data: r.previous_secret_sealed }]
        : []),
    ],
  }));
}

/** See WebhookDeliveryStore.record: only while the lease is still this attempt's. */
async function record(
  db: Db,
  delivery: Pick<LeasedDelivery, 'id' | 'attempts'>,
  o: AttemptRecord,
): Promise<boolean> {
  const next =
    o.status === 'pending'
      ? sql`now() + make_interval(secs => ${o.retryInSeconds ?? 0})`
      : sql`next_attempt_at`;
  const r = await sql`
    update webhook_delivery set status = ${o.status}, next_attempt_at = ${next},
      last_status = ${o.lastStatus}, last_error = ${o.lastError}, latency_ms = ${o.latencyMs},
      response = ${o.response}, updated_at = now(),
      delivered_at = case when ${o.status} = 'succeeded' then now() else delivered_at end
    where id = ${delivery.id} and attempts = ${delivery.attempts} and status = 'delivering'`.execute(db);
  return Number(r.numAffectedRows ?? 0) > 0;
}

/** The failed emails of `email_failed` events, as `email.delivery_failed` bodies show them. */
async function failedEmails(db: Db, emailIds: readonly string[]): Promise<FailedEmailFacts[]> {
  if (emailIds.length === 0) return [];
  const rows = await db
    .selectFrom('push_email')
    .select(['id', 'recipient', 'purpose', 'attempts', 'last_error'])
    .where('id', 'in', [...emailIds])
    .execute();
  return rows.map((r) => ({
    id: r.id,
    recipient: r.recipient,
    purpose:
      r.purpose === 'push_link' || r.purpose === 'request_link' ? ('link' as const) : ('notice' as const),
    attempts: r.attempts,
    reason: r.last_error,
  }));
}

/**
 * The webhook_delivery table (migration 2026_11_26_0010_webhooks): the same lease pattern as
 * packages/mail's mail queue. A lease is `delivering` until `next_attempt_at`; a sender that died
 * holding one loses nothing: the lease runs out and the delivery is due again (same `webhook-id`).
 * An outcome is recorded only while the lease is still that attempt's (`attempts` and `delivering`).
 */
export function createWebhookDeliveryRepository(db: Db): WebhookDeliveryStore {
  return {
    async pushFacts(pushIds) {
      if (pushIds.length === 0) return [];
      const rows = await db
        .selectFrom('push')
        .select([
          'id',
          'owner',
          'token_hash',
          'name',
          'kind',
          'views',
          'expire_after_views',
          'expires_at',
          'expired',
          'passphrase_protected',
          'deletable_by_viewer',
        ])
        .where('id', 'in', [...pushIds])
        .where('owner', 'is not', null)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        owner: r.owner!,
        ref: r.token_hash.subarray(0, 8).toString('hex'),
        name: r.name,
        kind: r.kind as PushKind,
        viewsLeft: r.expired ? 0 : Math.max(0, r.expire_after_views - r.views),
        expireAfterViews: r.expire_after_views,
        expiresAt: r.expires_at,
        expired: r.expired,
        passphraseProtected: r.passphrase_protected,
        deletableByViewer: r.deletable_by_viewer,
      }));
    },
    failedEmails: (emailIds) => failedEmails(db, emailIds),
    async listening(owners) {
      if (owners.length === 0) return [];
      const rows = await db
        .selectFrom('webhook_endpoint')
        .select(['id', 'owner', 'event_types'])
        .where('owner', 'in', [...owners])
        .where('enabled', '=', true)
        .execute();
      return rows.map((r) => ({ id: r.id, owner: r.owner, eventTypes: r.event_types as WebhookEventType[] }));
    },
    async enqueue(deliveries) {
      if (deliveries.length === 0) return [];
      // Joined with the endpoints: one deleted meanwhile is skipped (no foreign-key failure).
      const r = await sql<{ id: string }>`
        insert into webhook_delivery (endpoint_id, event_id, type, body)
        select v.endpoint_id, v.event_id, v.type, v.body
        from unnest(${deliveries.map((d) => d.endpointId)}::uuid[], ${deliveries.map((d) => d.eventId)}::uuid[],
                    ${deliveries.map((d) => d.type)}::text[], ${deliveries.map((d) => d.body)}::text[])
             as v(endpoint_id, event_id, type, body)
        join webhook_endpoint e on e.id = v.endpoint_id
        on conflict (endpoint_id, event_id) do nothing
        returning id`.execute(db);
      return r.rows.map((row) => row.id);
    },
    async find(endpointId, id) {
      const row = await db
        .selectFrom('webhook_delivery')
        .selectAll()
        .where('endpoint_id', '=', endpointId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toDelivery(row);
    },
    leaseDue: (limit, leaseSeconds) => leaseDue(db, limit, leaseSeconds),
    record: (delivery, outcome) => record(db, delivery, outcome),
    async list(endpointId, page) {
      const rows = await db
        .selectFrom('webhook_delivery')
        .selectAll()
        .where('endpoint_id', '=', endpointId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(DELIVERY_PAGE_SIZE)
        .offset((page - 1) * DELIVERY_PAGE_SIZE)
        .execute();
      return rows.map(toDelivery);
    },
    async replay(endpointId, id) {
      const row =
        (await db
          .updateTable('webhook_delivery')
          .set({
            status: 'pending',
            attempts: 0,
            next_attempt_at: sql<Date>`now()`,
            updated_at: sql<Date>`now()`,
          })
          .where('endpoint_id', '=', endpointId)
          .where('id', '=', id)
          .where('status', '<>', 'delivering')
          .returningAll()
          .executeTakeFirst()) ??
        (await db
          .selectFrom('webhook_delivery')
          .selectAll()
          .where('endpoint_id', '=', endpointId)
          .where('id', '=', id)
          .executeTakeFirst());
      return row && toDelivery(row);
    },
  };
}
