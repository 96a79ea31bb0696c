import { type Kysely, sql } from 'kysely';
import type { AuditKind } from '../../domain/push';
import type { Visit, VisitRequest } from '../../domain/ports/push-store';
import type { PushDatabase } from '../database';
import { type Instant, NOW, expireWhen, purgeFilesWhen, setList } from '../view-rule.sql';
import { auditValues } from './audit';
import { outboxFrom } from './outbox.sql';
import { type ClaimColumns, FILES_OF, viewed } from './claimed-row';
import { type RowWithNow, snapshot } from './rows';
import { RULE_NOW, visitRule } from './visit-rule';

/** Over the locked row `c`: found past its window, the view claimed is its last, either expires it. */
const DUE = sql<boolean>`c.due`;
const LAST_CLAIMED = sql<boolean>`(c.claimed and c.last)`;
const EXPIRES = sql<boolean>`(${LAST_CLAIMED} or ${DUE})`;

/**
 * One visit in one statement (see `Visit` in domain/ports/push-store.ts). Under the row's lock it decides,
 * with the rule of view-rule.sql.ts at `at`:
 * - claim: `view` mode, viewable, and no passphrase or a verified one. The view is counted; when it
 *   is the last, the push expires and its secrets are wiped (and a file push's purge is set after
 *   the grace period); audited `view` (+ `expire_by_views`). The *old* sealed payload is returned.
 * - due: not yet flagged but past its window: expired by time now, audited `expire_by_time`.
 * - noise: a refusal (`failed_view`, `failed_passphrase`) or a page opening (`link_opened`),
 *   recorded while the push holds fewer than `maxAuditEntries` entries, otherwise only counted;
 *   `failed_passphrase` is always recorded (see recordCappedAudit).
 * Concurrent visits serialize on the row lock and re-read the row, so N readers of V remaining
 * views get exactly min(N, V) payloads. Exported with `at` for the agreement test.
 */
export async function visitStatement(
  db: Kysely<PushDatabase>,
  q: VisitRequest,
  at: Instant = NOW,
): Promise<Visit | undefined> {
  const openMode = q.mode === 'open';
  const rule = at === NOW ? RULE_NOW : visitRule(at);
  const ctx = q.ctx;
  const { rows } = await sql<
    RowWithNow &
      ClaimColumns & {
        claimed: boolean;
        due: boolean;
        noise: AuditKind | null;
        view_id: string | null;
      }
  >`/*prepared:push_visit*/
    with cur as (
      select id, payload_sealed as old_payload, note_sealed as old_note, passphrase_hash as old_passphrase_hash,
             ${rule.due} as due, ${rule.last} as last,
             (not ${openMode} and ${rule.viewable} and (passphrase_hash is null or ${q.passphraseVerified})) as claimed,
             case when ${openMode} then 'link_opened'
                  when not ${rule.viewable} then 'failed_view'
                  when passphrase_hash is not null and not ${q.passphraseVerified} then 'failed_passphrase' end as noise,
             audit_entries < ${q.maxAuditEntries} as room
      from push where token_hash = ${q.tokenHash}
      for update
    ), upd as (
      update push p set
        views = p.views + case when c.claimed then 1 else 0 end,
        ${setList({
          ...expireWhen(EXPIRES, at, 'p'),
          ...purgeFilesWhen({ now: DUE, afterGrace: LAST_CLAIMED }, at, q.fileGraceSeconds, 'p'),
        })},
        audit_entries = p.audit_entries + case when c.claimed and c.last then 2 when c.claimed then 1 else 0 end
                        + case when c.due then 1 else 0 end + case when c.noise is not null and (c.room or c.noise = 'failed_passphrase') then 1 else 0 end,
        audit_dropped = p.audit_dropped + case when c.noise is not null and not (c.room or c.noise = 'failed_passphrase') then 1 else 0 end,
        updated_at = case when c.claimed or c.due then now() else p.updated_at end
      from cur c where p.id = c.id
      returning p.*, c.claimed, c.noise, c.old_payload, c.old_note, c.old_passphrase_hash, c.due, c.last,
                c.noise is not null and (c.room or c.noise = 'failed_passphrase') as noted
    ), view_audit as (
      insert into audit_entry (push_id, kind, ip, user_agent, referrer)
      select id, ${auditValues('view', ctx)} from upd where claimed
      returning id, push_id, kind
    ), other_audits as (
      -- in this order: a push found past its window is expired before the refusal is recorded
      insert into audit_entry (push_id, kind, ip, user_agent, referrer)
      select upd.id, e.kind, e.ip, e.user_agent, e.referrer
      from upd cross join lateral (values
        (1, 'expire_by_time', null::text, '', '', upd.due),
        (2, 'expire_by_views', ${ctx.ip}::text, ${ctx.userAgent}, ${ctx.referrer}, upd.claimed and upd.last),
        (3, upd.noise, ${ctx.ip}::text, ${ctx.userAgent}, ${ctx.referrer}, upd.noted)
      ) as e(n, kind, ip, user_agent, referrer, wanted)
      where e.wanted
      order by e.n
      returning id, push_id, kind
    ), entries as (
      select * from view_audit union all select * from other_audits
    ), ev as (
      ${outboxFrom('entries', 'upd')}
    )
    select upd.*, now() as db_now, (select id from view_audit) as view_id,
           case when upd.claimed then ${FILES_OF('upd')} end as files
    from upd`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const snap = snapshot(row);
  if (row.claimed) return viewed(row, row.view_id!);
  const expiredByTime = row.due;
  if (openMode) return { outcome: 'opened', snapshot: snap, expiredByTime };
  const reason = row.noise === 'failed_passphrase' ? 'passphrase' : 'expired';
  return { outcome: 'refused', reason, snapshot: snap, expiredByTime };
}
