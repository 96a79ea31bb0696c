import { type Kysely, sql } from 'kysely';
import type { QueuedAnswerCode, QueuedRequest } from '../domain/ports/email-store';
import type { PushDatabase } from './database';

type Db = Kysely<PushDatabase>;

interface RequestContextRow {
  id: string | null;
  name: string | null;
  key_id: string;
  token_sealed: Buffer;
  state: QueuedRequest['state'];
  passphrase_protected: boolean;
  close_after_at: Date;
  created_at: Date;
  requestor_email: string | null;
  include_requestor: boolean;
  code_key_id: string | null;
  code_sealed: Buffer | null;
  code_expires_at: Date | null;
  code_used_at: Date | null;
  code_attempts: number | null;
}

/**
 * The request an email about a request is composed from, as it is now (null: deleted), and for a
 * `request_code` the recipient's code (null: none).
 */
export async function requestEmailContext(
  db: Db,
  row: { request_id: string | null; purpose: string; recipient: string },
): Promise<{ request: QueuedRequest | null; answerCode: QueuedAnswerCode | null }> {
  if (row.request_id === null) return { request: null, answerCode: null };
  const { rows } = await sql<RequestContextRow>`
    select r.id, r.name, r.key_id, r.token_sealed, r.state, r.passphrase_hash is not null as passphrase_protected,
      r.close_after_at, r.created_at, r.requestor_email, r.include_requestor,
      c.key_id as code_key_id, c.code_sealed, c.expires_at as code_expires_at, c.used_at as code_used_at,
      c.attempts as code_attempts
    from (select 1) one
    left join request r on r.id = ${row.request_id}
    left join request_answer_code c on c.request_id = r.id and c.email = ${row.recipient}
      and ${row.purpose} = 'request_code'`.execute(db);
  const r = rows[0];
  if (!r?.id) return { request: null, answerCode: null };
  return {
    request: {
      id: r.id,
      name: r.name,
      keyId: r.key_id,
      tokenSealed: r.token_sealed,
      state: r.state,
      passphraseProtected: r.passphrase_protected,
      closeAfterAt: r.close_after_at,
      createdAt: r.created_at,
      requestorAddress: r.include_requestor ? r.requestor_email : null,
    },
    answerCode:
      r.code_expires_at === null
        ? null
        : {
            keyId: r.code_key_id,
            codeSealed: r.code_sealed,
            expiresAt: r.code_expires_at,
            usedAt: r.code_used_at,
            attempts: r.code_attempts ?? 0,
          },
  };
}
