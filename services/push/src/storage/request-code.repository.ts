import { type Kysely, sql } from 'kysely';
import { DEFAULT_LOCALE } from '../domain/email-rules';
import type { AuditContext } from '../domain/push';
import { DEFAULT_CODE_LIMITS, type RequestCodeLimits } from '../domain/request-codes';
import type { NewAnswerCode, RequestCodeStore } from '../domain/request-code-service';
import type { PushDatabase } from './database';

type Db = Kysely<PushDatabase>;

const auditRow = (kind: string, ctx: AuditContext | null) =>
  sql`${kind}, ${ctx?.ip ?? null}, ${ctx?.userAgent ?? ''}, ${ctx?.referrer ?? ''}`;

/**
 * Issues a code in one statement, only while the request is open and in its window: the code row
 * (replacing the address's previous code unless that one is younger than `resendSeconds`), a
 * `code_sent` audit entry and the `request_code` email. Whether a code was issued.
 */
async function issue(
  db: Db,
  c: NewAnswerCode,
  ctx: AuditContext,
  limits: Pick<RequestCodeLimits, 'ttlSeconds' | 'resendSeconds'>,
): Promise<boolean> {
  const { rows } = await sql<{ issued: boolean }>`
    with req as (
      select id, owner, coalesce(email_locale, ${DEFAULT_LOCALE}) as locale from request
      where id = ${c.requestId} and state = 'open' and close_after_at > now()
    ), up as (
      insert into request_answer_code as c (request_id, email, code_hash, code_sealed, key_id, expires_at)
      select id, ${c.address}, ${c.codeHash}, ${c.codeSealed}, ${c.keyId},
        now() + make_interval(secs => ${limits.ttlSeconds}) from req
      on conflict (request_id, email) do update set
        code_hash = excluded.code_hash, code_sealed = excluded.code_sealed, key_id = excluded.key_id,
        expires_at = excluded.expires_at, attempts = 0, used_at = null, created_at = now()
      where c.created_at <= now() - make_interval(secs => ${limits.resendSeconds})
      returning request_id
    ), counted as (
      update request set audit_entries = audit_entries + 1 where id in (select request_id from up)
    ), a as (
      insert into request_audit_entry (request_id, kind, ip, user_agent, referrer)
      select request_id, ${auditRow('code_sent', ctx)} from up
      returning id, request_id
    ), mail as (
      insert into push_email (recipient, request_id, owner, purpose, locale, audit_id)
      select ${c.address}, req.id, req.owner, 'request_code', req.locale, a.id
      from a join req on req.id = a.request_id
    )
    select exists (select 1 from up) as issued`.execute(db);
  return rows[0]?.issued ?? false;
}

/** The one-time codes of requests (domain/request-code-service.ts), under the instance's code limits. */
export function createRequestCodeRepository(
  db: Db,
  limits: Pick<RequestCodeLimits, 'ttlSeconds' | 'resendSeconds' | 'maxAttempts'> = DEFAULT_CODE_LIMITS,
): RequestCodeStore {
  return {
    issue: (code, ctx) => issue(db, code, ctx, limits),

    async takeAttempt(requestId, address) {
      const { rows } = await sql<{ code_hash: Buffer }>`
        update request_answer_code set attempts = attempts + 1
        where request_id = ${requestId} and email = ${address} and used_at is null
          and expires_at > now() and attempts < ${limits.maxAttempts}
        returning code_hash`.execute(db);
      return rows[0]?.code_hash ?? null;
    },

    async refused(requestId, ctx) {
      await sql`
        with counted as (
          update request set audit_entries = audit_entries + 1 where id = ${requestId} returning id
        )
        insert into request_audit_entry (request_id, kind, ip, user_agent, referrer)
        select id, ${auditRow('answer_refused', ctx)} from counted`.execute(db);
    },
  };
}

/**
 * In an answer's transaction: marks the address's code used (and wipes its sealed copy), only if it
 * is still the code checked, unused and unexpired. False: it was not (the answer must roll back).
 */
export async function useAnswerCode(
  trx: Db,
  requestId: string,
  use: { address: string; codeHash: Buffer },
): Promise<boolean> {
  const { rows } = await sql<{ used: boolean }>`
    update request_answer_code set used_at = now(), code_sealed = null, key_id = null
    where request_id = ${requestId} and email = ${use.address} and code_hash = ${use.codeHash}
      and used_at is null and expires_at > now()
    returning true as used`.execute(trx);
  return rows.length === 1;
}
