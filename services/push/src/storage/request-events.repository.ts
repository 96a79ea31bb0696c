import { type Kysely, sql } from 'kysely';
import { DEFAULT_LOCALE } from '../domain/email-rules';
import type { RequestEventStore, RequestFacts } from '../domain/request-events';
import type { PushDatabase } from './database';

type Db = Kysely<PushDatabase>;

interface FactsRow {
  id: string;
  owner: string;
  token_hash: Buffer;
  name: string | null;
  answered_at: Date | null;
  closed_at: Date | null;
  closed_reason: 'owner' | 'time' | null;
  notify_owner_on_answer: boolean;
}

/** The request consumers' statements (domain/request-events.ts). */
export function createRequestEventRepository(db: Db): RequestEventStore {
  return {
    async requestFacts(requestIds) {
      if (requestIds.length === 0) return [];
      const { rows } = await sql<FactsRow>`
        select id, owner, token_hash, name, answered_at, closed_at, closed_reason, notify_owner_on_answer
        from request where id = any(${[...requestIds]}::uuid[])`.execute(db);
      return rows.map((r): RequestFacts => ({
        id: r.id,
        owner: r.owner,
        ref: r.token_hash.subarray(0, 8).toString('hex'),
        name: r.name,
        answeredAt: r.answered_at,
        closedAt: r.closed_at,
        closedReason: r.closed_reason,
        notifyOwnerOnAnswer: r.notify_owner_on_answer,
      }));
    },

    async queueAnsweredNotices(notices) {
      let queued = 0;
      for (const n of notices) {
        const { rows } = await sql<{ id: string }>`
          insert into push_email (recipient, request_id, owner, purpose, locale, event_id, audit_id)
          select u.email, r.id, r.owner, 'notice_request_answered', coalesce(r.email_locale, ${DEFAULT_LOCALE}),
                 ${n.eventId}::uuid, ${n.auditId}::bigint
          from request r join app_user u on r.owner = 'user:' || u.id::text
          where r.id = ${n.requestId} and u.email_verified and u.email is not null
          on conflict (event_id, purpose, recipient) do nothing
          returning id`.execute(db);
        queued += rows.length;
      }
      return queued;
    },
  };
}
