import type { EmailLocale, NoticeKind } from '../../domain/email-rules';
import type { Push, PushKind, PushSnapshot } from '../../domain/push';
import type { StoredPush } from '../../domain/ports/push-store';
import type { PushRow } from '../push.table';

/** A push row read with the database's clock (`now() as db_now`), the only clock. */
export type RowWithNow = PushRow & { db_now: Date };

/**
 * The columns a push is read with (its domain fields and sealed secrets): never the sealed payload,
 * which only the claim of a view returns (lists of 50 pushes read 50 KB less of it per page).
 */
export const PUSH_COLUMNS = [
  'id',
  'kind',
  'owner',
  'name',
  'expire_after_days',
  'expire_after_views',
  'views',
  'expires_at',
  'expired',
  'expired_on',
  'deleted',
  'deletable_by_viewer',
  'retrieval_step',
  'passphrase_protected',
  'files_purge_after',
  'audit_dropped',
  'notify_owner_on',
  'email_locale',
  'created_at',
  'updated_at',
  'key_id',
  'token_sealed',
  'note_sealed',
  'passphrase_hash',
] as const satisfies readonly (keyof PushRow)[];

/** A push row as read with PUSH_COLUMNS. */
export type PushFields = Pick<PushRow, (typeof PUSH_COLUMNS)[number]>;

/** A row in the domain's terms. */
export function toPush(row: PushFields): Push {
  return {
    id: row.id,
    kind: row.kind as PushKind,
    owner: row.owner,
    name: row.name,
    expireAfterDays: row.expire_after_days,
    expireAfterViews: row.expire_after_views,
    views: row.views,
    expiresAt: row.expires_at,
    expired: row.expired,
    expiredOn: row.expired_on,
    deleted: row.deleted,
    deletableByViewer: row.deletable_by_viewer,
    retrievalStep: row.retrieval_step,
    passphraseProtected: row.passphrase_protected,
    filesPurgeAfter: row.files_purge_after,
    auditDropped: row.audit_dropped,
    noticeOn: row.notify_owner_on as NoticeKind[],
    emailLocale: row.email_locale as EmailLocale | null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export const snapshot = (row: RowWithNow): PushSnapshot => ({ push: toPush(row), now: row.db_now });

/** A row with its sealed secrets, read at `now`. */
export const stored = (row: PushFields, now: Date): StoredPush => ({
  push: toPush(row),
  now,
  secrets: {
    keyId: row.key_id,
    tokenSealed: row.token_sealed,
    noteSealed: row.note_sealed,
    passphraseHash: row.passphrase_hash,
  },
});
