import type { Kysely } from 'kysely';
import type { PushStore } from '../domain/ports/push-store';
import type { PushDatabase } from './database';
import { findByTokenHash, listAuditEntries, listOwned } from './push/reads';
import { findByReceiptHash, setReceipt } from './push/receipt';
import { recordCappedAudit } from './push/audit';
import { claimStatement } from './push/claim.sql';
import { countDue, expireAllOwned, expireDueBatch, expireOne, NOT_EXPIRED } from './push/expiry';
import { insertPush, insertPushWithFiles } from './push/insert.sql';
import { insertPushWithEmail } from './push/insert-email';
import { findByIdempotencyKey, insertPushOnce } from './push/insert-once';
import { refundView } from './push/refund';
import { visitStatement } from './push/visit.sql';
import { pastWindow } from './view-rule.sql';

/*
 * The domain's PushStore over PostgreSQL, composed from storage/push/: rows.ts (row mapping),
 * insert.sql.ts (the create, hot) and insert-once.ts (under an Idempotency-Key), claim.sql.ts and
 * visit.sql.ts (a retrieve's statements, hot), refund.ts, expiry.ts, audit.ts (the audit cap) and
 * reads.ts (lookups and lists). Every statement that applies the view rule takes its fragments
 * from view-rule.sql.ts.
 */
export function createPushRepository(db: Kysely<PushDatabase>): PushStore {
  return {
    insert: (record, ctx, files) =>
      record.email
        ? insertPushWithEmail(db, record, ctx, files)
        : files && files.length > 0
          ? insertPushWithFiles(db, record, ctx, files)
          : insertPush(db, record, ctx),
    insertOnce: (record, ctx, key, files) => insertPushOnce(db, record, ctx, key, files),
    findByTokenHash: (tokenHash) => findByTokenHash(db, tokenHash),
    setReceipt: (pushId, receiptHash) => setReceipt(db, pushId, receiptHash),
    findByReceiptHash: (receiptHash) => findByReceiptHash(db, receiptHash),
    findByIdempotencyKey: (key, within) => findByIdempotencyKey(db, key, within),

    // A view that is likely to be granted tries the lean claim first; a miss is then explained by
    // the full statement (two statements for a refusal, one for the common case).
    async visit(request) {
      if (request.mode === 'view' && request.likelyViewable) {
        const claimed = await claimStatement(db, request);
        if (claimed) return claimed;
      }
      return visitStatement(db, request);
    },

    expireIfPastWindow: (pushId) =>
      expireOne(db, pushId, { condition: pastWindow(), deleted: false, kind: 'expire_by_time', ctx: null }),
    expireDueBatch: (batch) => expireDueBatch(db, batch),
    expireManually: (pushId, ctx) =>
      expireOne(db, pushId, { condition: NOT_EXPIRED, deleted: true, kind: 'expire', ctx }),
    expireByReceipt: (pushId, ctx) =>
      expireOne(db, pushId, { condition: NOT_EXPIRED, deleted: true, kind: 'expire_by_receipt', ctx }),
    expireAllOwned: (owner, ctx) => expireAllOwned(db, owner, ctx),
    refundView: (v) => refundView(db, v),
    countDue: (limit) => countDue(db, limit),
    recordCappedAudit: (pushId, kind, ctx, max) => recordCappedAudit(db, pushId, kind, ctx, max),
    listOwned: (owner, state, page) => listOwned(db, owner, state, page),
    listAuditEntries: (pushId, page) => listAuditEntries(db, pushId, page),
  };
}
