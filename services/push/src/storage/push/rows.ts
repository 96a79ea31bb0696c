import type { EmailLocale, NoticeKind } from '../../domain/email-rules';
import type { Push, PushKind, PushSnapshot } from '../../domain/push';
import type { StoredPush } from '../../domain/ports/push-store';
import type { PushRow } from '../push.table';

/** A push row read with the database's clock (`now() as db_now`), the only clock. */
export type RowWithNow = PushRow & { db_now: Date };

/** A row in the domain's terms. */
export function toPush(row: PushRow): Push {
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
export const stored = (row: PushRow, now: Date): StoredPush => ({
  push: toPush(row),
  now,
  secrets: {
    keyId: row.key_id,
    tokenSealed: row.token_sealed,
    noteSealed: row.note_sealed,
    passphraseHash: row.passphrase_hash,
  },
});
