import { type Kysely, type Transaction, sql } from 'kysely';
import type { EndpointChanges, WebhookEndpointStore } from '../domain/ports/webhook-store';
import type { WebhookEndpoint, WebhookEventType } from '../domain/webhook';
import { DEFAULT_LOCALE } from '../domain/email-rules';
import type { PushDatabase } from './database';
import type { WebhookEndpointRow } from './webhook.table';

type Db = Kysely<PushDatabase>;

export const toEndpoint = (row: WebhookEndpointRow): WebhookEndpoint => ({
  id: row.id,
  owner: row.owner,
  url: row.url,
  eventTypes: row.event_types as WebhookEventType[],
  enabled: row.enabled,
  disabledReason: row.disabled_reason,
  previousSecretUntil: row.previous_until && row.previous_until > new Date() ? row.previous_until : null,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/**
 * The owner's active pushes and open or answered requests are listened to from now on: their later
 * changes yield events (a push or request created from now on is marked by its own insert statement).
 */
const listenToActivePushes = async (trx: Transaction<PushDatabase>, owner: string) => {
  await trx
    .updateTable('push')
    .set({ outbox: true })
    .where('owner', '=', owner)
    .where('expired', '=', false)
    .where('outbox', '=', false)
    .execute();
  await sql`update request set outbox = true
    where owner = ${owner} and state in ('open', 'answered') and not outbox`.execute(trx);
};

/**
 * One statement: the endpoint is disabled and, if it was enabled and its owner is a person with a
 * verified address, their notice is queued with it (or neither happens).
 */
async function disableEndpoint(db: Db, id: string, reason: string, notifyOwner: boolean) {
  const { rows } = await sql<{ disabled: boolean; notice: boolean }>`
    with disabled as (
      update webhook_endpoint set enabled = false, disabled_reason = ${reason}, updated_at = now()
      where id = ${id} and enabled
      returning id, owner
    ), notice as (
      insert into push_email (recipient, push_id, owner, purpose, locale, endpoint_id)
      select u.email, null, d.owner, 'notice_webhook_disabled', ${DEFAULT_LOCALE}, d.id
      from disabled d join app_user u on d.owner = 'user:' || u.id::text
      where ${notifyOwner} and u.email_verified and u.email is not null
      returning id
    )
    select exists (select 1 from disabled) as disabled, exists (select 1 from notice) as notice`.execute(db);
  return { disabled: rows[0]!.disabled, noticeQueued: rows[0]!.notice };
}

/** The webhook_endpoint table (migration 2026_11_26_0010_webhooks); every call scoped by owner. */
export function createWebhookEndpointRepository(db: Db): WebhookEndpointStore {
  return {
    create(record, maxPerOwner) {
      return db.transaction().execute(async (trx) => {
        // One create at a time per owner (the limit holds under concurrent creates).
        await sql`select pg_advisory_xact_lock(hashtextextended(${`webhook:${record.owner}`}, 0))`.execute(
          trx,
        );
        const { n } = await trx
          .selectFrom('webhook_endpoint')
          .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('n'))
          .where('owner', '=', record.owner)
          .executeTakeFirstOrThrow();
        if (n >= maxPerOwner) return 'limit' as const;
        const row = await trx
          .insertInto('webhook_endpoint')
          .values({
            id: record.id,
            owner: record.owner,
            url: record.url,
            event_types: record.eventTypes,
            enabled: record.enabled,
            disabled_reason: record.enabled ? null : 'disabled by its owner',
            key_id: record.secret.keyId,
            secret_sealed: record.secret.data,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        if (record.enabled) await listenToActivePushes(trx, record.owner);
        return toEndpoint(row);
      });
    },
    async list(owner) {
      const rows = await db
        .selectFrom('webhook_endpoint')
        .selectAll()
        .where('owner', '=', owner)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toEndpoint);
    },
    async find(owner, id) {
      const row = await db
        .selectFrom('webhook_endpoint')
        .selectAll()
        .where('owner', '=', owner)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toEndpoint(row);
    },
    update(owner, id, changes: EndpointChanges) {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('webhook_endpoint')
          .set({
            ...(changes.url !== undefined && { url: changes.url }),
            ...(changes.eventTypes !== undefined && { event_types: changes.eventTypes }),
            ...(changes.enabled !== undefined && { enabled: changes.enabled }),
            ...(changes.enabled === true && { disabled_reason: null }),
            ...(changes.enabled === false && { disabled_reason: 'disabled by its owner' }),
            updated_at: sql<Date>`now()`,
          })
          .where('owner', '=', owner)
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirst();
        if (row?.enabled) await listenToActivePushes(trx, owner);
        return row && toEndpoint(row);
      });
    },
    async remove(owner, id) {
      const r = await db
        .deleteFrom('webhook_endpoint')
        .where('owner', '=', owner)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    async removeAllOf(owner) {
      const r = await db.deleteFrom('webhook_endpoint').where('owner', '=', owner).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    async rotate(owner, id, secret, overlapSeconds) {
      const row = await db
        .updateTable('webhook_endpoint')
        .set((eb) => ({
          previous_key_id: eb.ref('key_id'),
          previous_secret_sealed: eb.ref('secret_sealed'),
          previous_until: sql<Date>`now() + make_interval(secs => ${overlapSeconds})`,
          key_id: secret.keyId,
          secret_sealed: secret.data,
          updated_at: sql<Date>`now()`,
        }))
        .where('owner', '=', owner)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row && toEndpoint(row);
    },
    disable: (id, reason, { notifyOwner }) => disableEndpoint(db, id, reason, notifyOwner),
  };
}
