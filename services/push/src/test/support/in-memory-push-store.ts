/* eslint-disable @typescript-eslint/require-await -- an in-memory port answers at once; `async` keeps a throw a rejection, as with the real stores. */
import { UploadIntentLost } from '../../domain/errors';
import {
  type AuditContext,
  type AuditKind,
  PAGE_SIZE,
  type Push,
  type PushSnapshot,
} from '../../domain/push';
import type { NewFileRecord } from '../../domain/ports/file-store';
import type {
  IdempotencyRecord,
  KeyedInsert,
  NewPushRecord,
  PushStore,
  StoredPush,
  ViewedSecrets,
  Visit,
  VisitRequest,
} from '../../domain/ports/push-store';
import { canView, consumeView, isPastWindow } from '../../domain/view-policy';
import type { TestClock } from './in-memory-clock';
import { type Entry, type InMemoryTables, type Intent, type Row, newRow } from './in-memory-tables';

/*
 * The PushStore port in memory, for the domain's unit tests. It keeps the rules of the SQL
 * statements (storage/push/*.ts, composed by storage/push.repository.ts): the view rule through domain/view-policy.ts (the SQL
 * twin's agreement test keeps the two equal), the audit cap (noise entries within `max`,
 * `failed_passphrase` always), the wipe of the secrets on expiry, the grace period of a file push's
 * files, idempotency keys with a lifetime. Each statement's work happens at one instant of the
 * shared clock, as `now()` does within a statement. Not concurrent: one call at a time.
 */

/** The store, and what a test may look at besides the port. */
export interface InMemoryPushStore extends PushStore {
  /** Audit entries of a push, oldest first, with their ids. */
  auditOf(pushId: string): Entry[];
  /** The row as stored (secrets included), or undefined; a test may change it (a corrupt row). */
  rowOf(pushId: string): Row | undefined;
  /** Every push, in insertion order. */
  all(): Push[];
  /** For createInMemoryFileStore. */
  tables: InMemoryTables;
}

const hex = (b: Buffer) => b.toString('hex');

export function createInMemoryPushStore(clock: TestClock): InMemoryPushStore {
  const rows = new Map<string, Row>();
  const byToken = new Map<string, string>();
  const byReceipt = new Map<string, string>();
  const audit: Entry[] = [];
  const keys = new Map<string, { requestHash: Buffer; pushId: string; createdAt: Date }>();
  const intents = new Map<string, Intent>();
  let nextEntry = 1;

  const snapshot = (row: Row, now: Date): PushSnapshot => ({ push: { ...row.push }, now });
  const stored = (row: Row, now: Date): StoredPush => ({
    ...snapshot(row, now),
    secrets: {
      keyId: row.keyId,
      tokenSealed: row.tokenSealed,
      noteSealed: row.noteSealed,
      passphraseHash: row.passphraseHash,
    },
  });

  function addAudit(row: Row, kind: AuditKind, ctx: AuditContext | null, now: Date): string {
    const id = String(nextEntry++);
    audit.push({
      id,
      pushId: row.push.id,
      kind,
      ip: ctx?.ip ?? null,
      userAgent: ctx?.userAgent ?? '',
      referrer: ctx?.referrer ?? '',
      createdAt: now,
    });
    row.auditEntries += 1;
    return id;
  }

  /** Active, but past its window by the clock (storage/view-rule.sql.ts `pastWindow`). */
  const pastWindow = (row: Row, now: Date) => !row.push.expired && isPastWindow(row.push, now);

  function wipe(row: Row): void {
    row.payloadSealed = null;
    row.noteSealed = null;
    row.passphraseHash = null;
  }

  /** Expires the push now (storage/view-rule.sql.ts `EXPIRED_NOW`) and audits `kind`. */
  function expireRow(row: Row, how: { deleted: boolean; kind: AuditKind; ctx: AuditContext | null }): void {
    const now = clock.now();
    row.push.expired = true;
    row.push.deleted = row.push.deleted || how.deleted;
    row.push.expiredOn = now;
    wipe(row);
    row.push.filesPurgeAfter = row.push.kind === 'file' ? now : null;
    row.push.updatedAt = now;
    addAudit(row, how.kind, how.ctx, now);
  }

  function insertRow(r: NewPushRecord, ctx: AuditContext, files: NewFileRecord[] = []): PushSnapshot {
    const now = clock.now();
    if (rows.has(r.id) || byToken.has(hex(r.tokenHash))) throw new Error('duplicate key');
    // A file push consumes the upload intents of its objects, or nothing commits.
    if (files.some((f) => intents.get(f.objectKey)?.claimed !== false)) throw new UploadIntentLost();
    for (const f of files) intents.delete(f.objectKey);
    const row = newRow(r, files, now);
    rows.set(r.id, row);
    byToken.set(row.tokenHash, r.id);
    addAudit(row, 'creation', ctx, now);
    return snapshot(row, now);
  }

  function insertOnce(
    record: NewPushRecord,
    ctx: AuditContext,
    key: IdempotencyRecord,
    files?: NewFileRecord[],
  ): KeyedInsert {
    const now = clock.now();
    const alive = (createdAt: Date) => createdAt.getTime() >= now.getTime() - key.ttlSeconds * 1000;
    const id = `${key.scope}\u0000${hex(key.keyHash)}`;
    // Other expired keys are forgotten on the way (storage/push/insert-once.ts `takeKey`), unless
    // the create fails: then its transaction rolls back, the purge with it.
    const forgetExpired = () => {
      for (const [k, v] of keys) if (k !== id && !alive(v.createdAt)) keys.delete(k);
    };
    const taken = keys.get(id);
    if (taken && alive(taken.createdAt)) {
      forgetExpired();
      const row = rows.get(taken.pushId);
      return { outcome: 'existing', requestHash: taken.requestHash, push: row && stored(row, now) };
    }
    // A key past its lifetime is taken over.
    const created = insertRow(record, ctx, files);
    forgetExpired();
    keys.set(id, { requestHash: key.requestHash, pushId: record.id, createdAt: now });
    return { outcome: 'created', snapshot: created };
  }

  /** One visit (storage/push/visit.sql.ts `visitStatement`), decided at one instant. */
  function visit(q: VisitRequest): Visit | undefined {
    const id = byToken.get(hex(q.tokenHash));
    const row = id === undefined ? undefined : rows.get(id);
    if (!row) return undefined;
    const now = clock.now();
    const open = q.mode === 'open';
    const viewable = canView(row.push, now).ok;
    const locked = row.passphraseHash !== null && !q.passphraseVerified;
    const due = pastWindow(row, now);
    const claimed = !open && viewable && !locked;
    const noise: AuditKind | null = open
      ? 'link_opened'
      : !viewable
        ? 'failed_view'
        : locked
          ? 'failed_passphrase'
          : null;
    const room = row.auditEntries < q.maxAuditEntries;
    const before: ViewedSecrets = {
      payloadSealed: row.payloadSealed,
      noteSealed: row.noteSealed,
      passphraseHash: row.passphraseHash,
    };
    let viewId: string | undefined;
    let burned = false;
    if (claimed) {
      const consumed = consumeView(row.push, now);
      burned = consumed.burned;
      row.push = consumed.next;
      viewId = addAudit(row, 'view', q.ctx, now);
    }
    if (burned || due) {
      row.push.expired = true;
      row.push.expiredOn = now;
      wipe(row);
    }
    if (row.push.kind === 'file') {
      if (due) row.push.filesPurgeAfter = now;
      else if (burned) {
        const graceEnds = now.getTime() + q.fileGraceSeconds * 1000;
        row.push.filesPurgeAfter = new Date(Math.min(graceEnds, row.push.expiresAt.getTime()));
      }
    }
    if (claimed || due) row.push.updatedAt = now;
    if (due) addAudit(row, 'expire_by_time', null, now);
    if (burned) addAudit(row, 'expire_by_views', q.ctx, now);
    if (noise !== null) {
      if (room || noise === 'failed_passphrase') addAudit(row, noise, q.ctx, now);
      else row.push.auditDropped += 1;
    }
    const snap = snapshot(row, now);
    if (claimed) {
      return {
        outcome: 'viewed',
        snapshot: snap,
        payloadSealed: before.payloadSealed,
        keyId: row.keyId,
        viewId: viewId!,
        files: row.push.kind === 'file' ? row.files.map((f) => ({ ...f })) : [],
        before,
      };
    }
    if (open) return { outcome: 'opened', snapshot: snap, expiredByTime: due };
    const reason = noise === 'failed_passphrase' ? 'passphrase' : 'expired';
    return { outcome: 'refused', reason, snapshot: snap, expiredByTime: due };
  }

  /** storage/push/refund.ts `refundView`: the view undone, and an expiry by that view too. */
  function refundView(v: { pushId: string; viewId: string; before: ViewedSecrets }): boolean {
    const entry = audit.find((e) => e.id === v.viewId && e.pushId === v.pushId && e.kind === 'view');
    const row = rows.get(v.pushId);
    if (!entry || !row) return false;
    entry.kind = 'view_refunded';
    const expiry = audit.findIndex(
      (e) => e.pushId === v.pushId && e.kind === 'expire_by_views' && Number(e.id) > Number(v.viewId),
    );
    const unexpire = expiry >= 0;
    if (unexpire) {
      audit.splice(expiry, 1);
      row.auditEntries -= 1;
    }
    row.push.views -= 1;
    if (unexpire && !row.push.deleted) {
      row.push.expired = false;
      row.push.expiredOn = null;
      row.payloadSealed = v.before.payloadSealed;
      row.noteSealed = v.before.noteSealed;
      row.passphraseHash = v.before.passphraseHash;
      row.push.filesPurgeAfter = null;
    }
    row.push.updatedAt = clock.now();
    return true;
  }

  function recordCappedAudit(pushId: string, kind: AuditKind, ctx: AuditContext, max: number): void {
    const row = rows.get(pushId);
    if (!row) return;
    if (row.auditEntries < max || kind === 'failed_passphrase') addAudit(row, kind, ctx, clock.now());
    else row.push.auditDropped += 1;
  }

  function listOwned(owner: string, state: 'active' | 'expired', page: number) {
    const now = clock.now();
    const pushes = [...rows.values()]
      .filter((r) => r.push.owner === owner && canView(r.push, now).ok === (state === 'active'))
      .sort(
        (a, b) =>
          b.push.createdAt.getTime() - a.push.createdAt.getTime() ||
          (a.push.id < b.push.id ? 1 : a.push.id > b.push.id ? -1 : 0),
      )
      .slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE)
      .map((r) => stored(r, now));
    return { pushes, now };
  }

  function expireAllOwned(owner: string, ctx: AuditContext): PushSnapshot[] {
    const now = clock.now();
    const owned = [...rows.values()].filter((r) => r.push.owner === owner);
    // Disjoint, as in the statement: the active ones are expired, the expired ones' files released.
    const active = owned.filter((r) => !r.push.expired);
    for (const r of owned) {
      const purge = r.push.filesPurgeAfter;
      if (r.push.expired && r.push.kind === 'file' && !r.filesPurged && purge !== null && purge > now) {
        r.push.filesPurgeAfter = now;
      }
    }
    for (const r of active) expireRow(r, { deleted: true, kind: 'expire', ctx });
    return active.map((r) => snapshot(r, now));
  }

  function dueRows(limit: number): Row[] {
    const now = clock.now();
    return [...rows.values()]
      .filter((r) => pastWindow(r, now))
      .sort((a, b) => a.push.expiresAt.getTime() - b.push.expiresAt.getTime())
      .slice(0, limit);
  }

  return {
    insert: async (record, ctx, files) => insertRow(record, ctx, files),
    insertOnce: async (record, ctx, key, files) => insertOnce(record, ctx, key, files),
    async findByTokenHash(tokenHash) {
      const id = byToken.get(hex(tokenHash));
      const row = id === undefined ? undefined : rows.get(id);
      return row && stored(row, clock.now());
    },
    async setReceipt(pushId, receiptHash) {
      const row = rows.get(pushId);
      if (!row || row.push.owner !== null || [...byReceipt.values()].includes(pushId)) return false;
      byReceipt.set(hex(receiptHash), pushId);
      return true;
    },
    async findByReceiptHash(receiptHash) {
      const id = byReceipt.get(hex(receiptHash));
      const row = id === undefined ? undefined : rows.get(id);
      return row && stored(row, clock.now());
    },
    async expireByReceipt(pushId, ctx) {
      const row = rows.get(pushId);
      if (!row || row.push.expired) return undefined;
      expireRow(row, { deleted: true, kind: 'expire_by_receipt', ctx });
      return snapshot(row, clock.now());
    },
    async findByIdempotencyKey(key, withinSeconds) {
      const taken = keys.get(`${key.scope}\u0000${hex(key.keyHash)}`);
      const now = clock.now();
      if (!taken || taken.createdAt.getTime() <= now.getTime() - withinSeconds * 1000) return undefined;
      const row = rows.get(taken.pushId);
      return row && stored(row, now);
    },
    visit: async (request) => visit(request),
    refundView: async (v) => refundView(v),
    async expireIfPastWindow(pushId) {
      const row = rows.get(pushId);
      if (!row || !pastWindow(row, clock.now())) return undefined;
      expireRow(row, { deleted: false, kind: 'expire_by_time', ctx: null });
      return snapshot(row, clock.now());
    },
    async expireDueBatch(batchSize) {
      const batch = dueRows(batchSize);
      for (const r of batch) expireRow(r, { deleted: false, kind: 'expire_by_time', ctx: null });
      return batch.map((r) => snapshot(r, clock.now()));
    },
    countDue: async (limit) => dueRows(limit).length,
    async expireManually(pushId, ctx) {
      const row = rows.get(pushId);
      if (!row || row.push.expired) return undefined;
      expireRow(row, { deleted: true, kind: 'expire', ctx });
      return snapshot(row, clock.now());
    },
    expireAllOwned: async (owner, ctx) => expireAllOwned(owner, ctx),
    recordCappedAudit: async (pushId, kind, ctx, max) => recordCappedAudit(pushId, kind, ctx, max),
    listOwned: async (owner, state, page) => listOwned(owner, state, page),
    async listAuditEntries(pushId, page) {
      return audit
        .filter((e) => e.pushId === pushId)
        .slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE)
        .map(({ kind, ip, userAgent, referrer, createdAt }, i) => ({
          id: String((page - 1) * PAGE_SIZE + i + 1),
          kind,
          ip,
          userAgent,
          referrer,
          createdAt,
        }));
    },
    auditOf: (pushId) => audit.filter((e) => e.pushId === pushId).map((e) => ({ ...e })),
    rowOf: (pushId) => rows.get(pushId),
    all: () => [...rows.values()].map((r) => ({ ...r.push })),
    tables: { rows, audit, intents },
  };
}
