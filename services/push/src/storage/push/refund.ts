import { type Kysely, sql } from 'kysely';
import type { ViewedSecrets } from '../../domain/ports/push-store';
import type { PushDatabase } from '../database';
import { NOW, unexpireWhen } from '../view-rule.sql';

/** Over the refunded push `p` and `back` (`b`): the refunded view had expired it, and nothing deleted it since. */
const UNEXPIRE = sql<boolean>`(b.unexpire and not p.deleted)`;

/**
 * Undoes a view whose payload could not be delivered (a compensating statement): the count goes
 * back, the `view` entry becomes `view_refunded` (its download links stop working), and if that
 * view had expired the push (and nothing deleted it since), the push is active again with the
 * secrets it had, its `expire_by_views` entry removed. A push that wants events gets a
 * `view_refunded` outbox event (its audit id: the refunded view's entry).
 */
export async function refundView(
  db: Kysely<PushDatabase>,
  v: { pushId: string; viewId: string; before: ViewedSecrets },
): Promise<boolean> {
  const before = {
    payload_sealed: v.before.payloadSealed,
    note_sealed: v.before.noteSealed,
    passphrase_hash: v.before.passphraseHash,
  };
  const refunded = await db
    .with('v', (qb) =>
      qb
        .updateTable('audit_entry')
        .set({ kind: 'view_refunded' })
        .where('id', '=', v.viewId)
        .where('push_id', '=', v.pushId)
        .where('kind', '=', 'view')
        .returning('push_id'),
    )
    .with('ev', (qb) =>
      qb
        .deleteFrom('audit_entry')
        .where('push_id', '=', v.pushId)
        .where('kind', '=', 'expire_by_views')
        .where('id', '>', v.viewId)
        .where((eb) => eb.exists(eb.selectFrom('v').select('v.push_id')))
        .returning('id'),
    )
    .with('event', (qb) =>
      qb
        .insertInto('push_event')
        .columns(['push_id', 'kind', 'audit_id'])
        .expression((eb) =>
          eb
            .selectFrom('v')
            .innerJoin('push', 'push.id', 'v.push_id')
            .where('push.outbox', '=', true)
            .select([
              'v.push_id',
              sql<string>`'view_refunded'`.as('kind'),
              sql<string>`${v.viewId}::bigint`.as('audit_id'),
            ]),
        ),
    )
    .with('back', (qb) =>
      qb.selectNoFrom((eb) => eb.exists(eb.selectFrom('ev').select('ev.id')).as('unexpire')),
    )
    .updateTable('push as p')
    .from('back as b')
    .set((eb) => ({
      views: eb('p.views', '-', 1),
      ...unexpireWhen(UNEXPIRE, before, 'p'),
      audit_entries: sql<number>`p.audit_entries - case when b.unexpire then 1 else 0 end`,
      updated_at: NOW,
    }))
    .where('p.id', '=', v.pushId)
    .where((eb) => eb.exists(eb.selectFrom('v').select('v.push_id')))
    .returning('p.id')
    .executeTakeFirst();
  return refunded !== undefined;
}
