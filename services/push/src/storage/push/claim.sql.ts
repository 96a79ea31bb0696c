import { type Kysely, sql } from 'kysely';
import { statementTemplate } from '@secret-push/db-kit';
import type { Visit, VisitRequest } from '../../domain/ports/push-store';
import type { PushDatabase } from '../database';
import { type Instant, NOW, expireWhen, purgeFilesWhen, setList } from '../view-rule.sql';
import { auditValues } from './audit';
import { outboxFrom } from './outbox.sql';
import { type ClaimColumns, FILES_OF, viewed } from './claimed-row';
import type { RowWithNow } from './rows';
import { RULE_NOW, visitRule } from './visit-rule';

/** The claimed row's "this view is the last" (computed under the lock, before the count). */
const LAST = sql<boolean>`t.last`;

/** What a claim statement reads from the visit (flat: a statement template's inputs). */
type ClaimInput = {
  tokenHash: Buffer;
  passphraseVerified: boolean;
  fileGraceSeconds: number;
  ip: string | null;
  userAgent: string;
  referrer: string;
};
type ClaimedRow = RowWithNow & ClaimColumns & { view_id: string };

const claimSql = (q: ClaimInput, at: Instant) => {
  const rule = at === NOW ? RULE_NOW : visitRule(at);
  const ctx = { ip: q.ip, userAgent: q.userAgent, referrer: q.referrer };
  return sql<ClaimedRow>`/*prepared:push_claim*/
    with target as (
      select id, payload_sealed as old_payload, note_sealed as old_note, passphrase_hash as old_passphrase_hash,
             ${rule.last} as last
      from push
      where token_hash = ${q.tokenHash} and ${rule.viewable} and (passphrase_hash is null or ${q.passphraseVerified})
      for update
    ), claimed as (
      update push p set
        views = p.views + 1,
        ${setList({ ...expireWhen(LAST, at, 'p'), ...purgeFilesWhen({ afterGrace: LAST }, at, q.fileGraceSeconds, 'p') })},
        audit_entries = p.audit_entries + case when t.last then 2 else 1 end,
        updated_at = now()
      from target t where p.id = t.id
      returning p.*, t.old_payload, t.old_note, t.old_passphrase_hash
    ), view_audit as (
      insert into audit_entry (push_id, kind, ip, user_agent, referrer)
      select id, ${auditValues('view', ctx)} from claimed
      returning id, push_id, kind
    ), expiry_audit as (
      insert into audit_entry (push_id, kind, ip, user_agent, referrer)
      select id, ${auditValues('expire_by_views', ctx)} from claimed where expired
      returning id, push_id, kind
    ), entries as (
      select * from view_audit union all select * from expiry_audit
    ), ev as (
      ${outboxFrom('entries', 'claimed')}
    )
    select claimed.*, now() as db_now, view_audit.id as view_id, ${FILES_OF('claimed')} as files
    from claimed cross join view_audit`;
};

/** The claim at the database's now(), the request path's: compiled once (db-kit statementTemplate). */
const CLAIM_NOW = statementTemplate<ClaimInput, ClaimedRow>(
  ['tokenHash', 'passphraseVerified', 'fileGraceSeconds', 'ip', 'userAgent', 'referrer'],
  (q) => claimSql(q, NOW),
);

/**
 * The common case of a visit, in the leanest statement: claims a view only if the push is viewable
 * (and not locked by a passphrase that was not verified); no row otherwise, and then nothing was
 * changed. Same claim as visitStatement's, for a fraction of its parsing and planning.
 */
export async function claimStatement(
  db: Kysely<PushDatabase>,
  q: VisitRequest,
  at: Instant = NOW,
): Promise<Extract<Visit, { outcome: 'viewed' }> | undefined> {
  const input: ClaimInput = {
    tokenHash: q.tokenHash,
    passphraseVerified: q.passphraseVerified,
    fileGraceSeconds: q.fileGraceSeconds,
    ip: q.ctx.ip,
    userAgent: q.ctx.userAgent,
    referrer: q.ctx.referrer,
  };
  const { rows } = await (at === NOW ? CLAIM_NOW.execute(db, input) : claimSql(input, at).execute(db));
  const row = rows[0];
  return row && viewed(row, row.view_id);
}
