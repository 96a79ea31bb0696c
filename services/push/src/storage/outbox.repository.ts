import { type Kysely, sql } from 'kysely';
import type { EventKind, OutboxEvent } from '../domain/outbox';
import type { OutboxStore } from '../domain/ports/outbox-store';
import type { PushDatabase } from './database';

/**
 * The outbox table `push_event` (migration 2026_11_26_0003_push_outbox): written by the push
 * statements (storage/push/outbox.sql.ts), drained here. A round is one transaction: the batch is
 * locked with SKIP LOCKED (concurrent rounds take disjoint batches), handed over, then deleted.
 * With nothing waiting, a round is one cheap statement and no transaction.
 */
export function createOutboxRepository(db: Kysely<PushDatabase>): OutboxStore {
  return {
    async drain(limit, handle) {
      const waiting = await sql<{ any: boolean }>`select exists (select 1 from push_event) as any`.execute(
        db,
      );
      if (!waiting.rows[0]?.any) return 0;
      return db.transaction().execute(async (trx) => {
        const rows = await trx
          .selectFrom('push_event')
          .select(['id', 'push_id', 'request_id', 'kind', 'audit_id', 'email_id', 'created_at'])
          .orderBy('seq')
          .limit(limit)
          .forUpdate()
          .skipLocked()
          .execute();
        if (rows.length === 0) return 0;
        const events: OutboxEvent[] = rows.map((r) => ({
          id: r.id,
          pushId: r.push_id,
          requestId: r.request_id,
          kind: r.kind as EventKind,
          auditId: r.audit_id,
          emailId: r.email_id,
          at: r.created_at,
        }));
        await handle(events);
        await trx
          .deleteFrom('push_event')
          .where(
            'id',
            'in',
            rows.map((r) => r.id),
          )
          .execute();
        return rows.length;
      });
    },
    async oldestAgeSeconds() {
      const { rows } = await sql<{ age: number | null }>`
        select extract(epoch from now() - min(created_at))::float8 as age from push_event`.execute(db);
      return Math.max(0, rows[0]?.age ?? 0);
    },
  };
}
