import { randomUUID } from 'node:crypto';
import type { KeyRing } from '../security/key-ring';
import { hashPassphrase, verifyPassphrase } from '../security/passphrase';
import { generateUrlToken, hashUrlToken, isWellFormedUrlToken } from '../security/url-token';
import { type Actor, holds, ownerOf } from './create-policy';
import {
  IdempotencyKeyReused,
  MissingScope,
  NotDeletable,
  NotOwner,
  PassphraseRejected,
  PushNotFound,
  ViewNotDelivered,
} from './errors';
import { createExpiry } from './expiry';
import type { FileService, StoredUpload } from './file-service';
import {
  IDEMPOTENCY_TTL_SECONDS,
  idempotencyKeyHash,
  isSameRequest,
  requestFingerprint,
} from './idempotency';
import type { AttemptLimiter, FileLink, NewPushRecord, PushStore, StoredPush, Visit } from './ports';
import type { AuditContext, AuditEntry, NewPush, Push, PushSnapshot } from './push';
import type { PushEvents } from './push-events';
import { canView, isPastWindow } from './view-policy';

export interface PushServiceDeps {
  store: PushStore;
  keyRing: KeyRing;
  passphraseLimiter: AttemptLimiter;
  events: PushEvents;
  maxAuditEntries: number;
  /** File pushes; absent when the instance has no object store. */
  files?: FileService;
  /** After the last view of a file push, its files stay downloadable this long. */
  fileGraceSeconds: number;
  /** How long a create's Idempotency-Key is remembered (PUSH_IDEMPOTENCY_TTL_SECONDS; 24 hours by default). */
  idempotencyTtlSeconds?: number;
}

/** A create's Idempotency-Key and whose it is (domain/idempotency.ts `idempotencyScope`). */
export interface CreateKey {
  scope: string;
  key: string;
}

/** A create's uploaded files, stored under `pushId` before the push row exists. */
export interface PreparedFiles {
  pushId: string;
  uploads: StoredUpload[];
}

/** Who creates, from where, and what came with the input. */
export interface CreateOptions {
  /** The owner recorded on the push (`ownerOf` the actor): null for nobody. */
  owner: string | null;
  /** The request, as the `creation` audit entry records it. */
  audit: AuditContext;
  /** A multipart create's stored files (absent: a push without files). */
  files?: PreparedFiles;
  /** The create's Idempotency-Key, when one was sent. */
  idempotency?: CreateKey;
}

export type RetrieveResult =
  | { outcome: 'viewed'; snapshot: PushSnapshot; payload: string | null; files: FileLink[] }
  | { outcome: 'expired'; snapshot: PushSnapshot };

export interface OwnedPush {
  snapshot: PushSnapshot;
  urlToken: string;
  note: string | null;
}

/** A create's answer; `replayed`: the push an earlier create with the same Idempotency-Key made. */
export interface CreatedPush extends OwnedPush {
  replayed: boolean;
}

/** A new push's id; a multipart create takes one before its files are stored under it. */
export const newPushId = (): string => randomUUID();

/** Sealed secrets are bound to their push and column: a copy moved to another row or column fails to open. */
const aad = (pushId: string, field: 'url_token' | 'payload' | 'note') => `${pushId}|${field}`;

/**
 * The push use cases: create, retrieve (one view), open (a recipient page, no view), preview,
 * audit log, expire (DELETE), owner lists. Decisions are the view rule's (view-policy.ts, and its
 * SQL twin in storage/view-rule.sql.ts); storage is reached only through the PushStore port.
 */
export function createPushService(deps: PushServiceDeps) {
  const { store, keyRing, events } = deps;
  const expiry = createExpiry({ store, events });

  const open = (
    pushId: string,
    keyId: string,
    field: 'url_token' | 'payload' | 'note',
    data: Buffer | null,
  ) => (data ? keyRing.open({ keyId, data }, aad(pushId, field)) : null);

  async function find(urlToken: string): Promise<StoredPush> {
    const found = isWellFormedUrlToken(urlToken)
      ? await store.findByTokenHash(hashUrlToken(urlToken))
      : undefined;
    if (!found) throw new PushNotFound();
    return found;
  }

  /** Every read re-checks the window: a push past it is expired now, even if the worker has not run. */
  async function findCurrent(urlToken: string): Promise<StoredPush> {
    const found = await find(urlToken);
    if (found.push.expired || !isPastWindow(found.push, found.now)) return found;
    await expiry.expireIfPastWindow(found.push.id);
    return find(urlToken);
  }

  const visit = (
    tokenHash: Buffer,
    ctx: AuditContext,
    mode: 'view' | 'open',
    passphrase?: 'verified' | 'unverified',
  ) =>
    store.visit({
      tokenHash,
      ctx,
      mode,
      passphraseVerified: passphrase === 'verified',
      // Without a passphrase most views are granted: the store can claim in its leanest statement.
      likelyViewable: mode === 'view' && passphrase === undefined,
      fileGraceSeconds: deps.fileGraceSeconds,
      maxAuditEntries: deps.maxAuditEntries,
    });

  /** A visit's changes that committed, announced to the events (metrics). */
  async function announce(visited: Visit): Promise<void> {
    const { push } = visited.snapshot;
    if (visited.outcome !== 'viewed') {
      if (visited.expiredByTime) await events.expired(push, 'time');
      return;
    }
    events.viewed(push);
    if (push.expired) void events.expired(push, 'views');
  }

  /**
   * What a view-mode visit means to the caller: the payload and file links, or why not. Everything
   * that can fail after the claim (decryption, links) happens before anything is announced; if it
   * fails, the view is refunded and the caller gets a retryable error: nothing is spent unseen.
   */
  async function retrieved(visited: Visit | undefined): Promise<RetrieveResult> {
    if (!visited) throw new PushNotFound();
    if (visited.outcome !== 'viewed') {
      await announce(visited);
      if (visited.outcome === 'refused' && visited.reason === 'passphrase') throw new PassphraseRejected();
      return { outcome: 'expired', snapshot: visited.snapshot };
    }
    const { push, now } = visited.snapshot;
    let delivered: RetrieveResult;
    try {
      delivered = {
        outcome: 'viewed',
        snapshot: visited.snapshot,
        payload: open(push.id, visited.keyId, 'payload', visited.payloadSealed),
        files:
          push.kind === 'file' && deps.files
            ? deps.files.linksForView(
                {
                  pushId: push.id,
                  viewId: visited.viewId,
                  keyId: visited.keyId,
                  now,
                  windowEnds: push.expiresAt,
                },
                visited.files,
              )
            : [],
      };
    } catch (err) {
      await store
        .refundView({ pushId: push.id, viewId: visited.viewId, before: visited.before })
        .catch(() => false);
      throw new ViewNotDelivered('the view could not be delivered and was refunded', { cause: err });
    }
    await announce(visited);
    return delivered;
  }

  return {
    /**
     * Creates a push. With an Idempotency-Key, the key is stored with the push in one transaction;
     * if a create with the same key committed first (within the key's lifetime), nothing is created:
     * the same request gets that create's push as it is now (`replayed`; expired or deleted since
     * included), another request is refused (IdempotencyKeyReused).
     */
    async create(input: NewPush, options: CreateOptions): Promise<CreatedPush> {
      const { owner, audit: ctx, files: prepared, idempotency } = options;
      const id = prepared?.pushId ?? newPushId();
      const urlToken = generateUrlToken();
      const keyId = keyRing.activeKeyId;
      const seal = (v: string | null, field: 'payload' | 'note') =>
        v === null ? null : keyRing.seal(v, aad(id, field), keyId);
      const uploads = prepared?.uploads ?? [];
      const record: NewPushRecord = {
        id,
        tokenHash: hashUrlToken(urlToken),
        tokenSealed: keyRing.seal(urlToken, aad(id, 'url_token'), keyId),
        keyId,
        kind: input.kind,
        owner,
        name: input.name,
        payloadSealed: seal(input.payload, 'payload'),
        noteSealed: seal(input.note, 'note'),
        passphraseHash: input.passphrase ? await hashPassphrase(input.passphrase) : null,
        expireAfterDays: input.expireAfterDays,
        expireAfterViews: input.expireAfterViews,
        ttlSeconds: input.ttlSeconds,
        deletableByViewer: input.deletableByViewer,
        retrievalStep: input.retrievalStep,
      };
      const files = uploads.length > 0 && deps.files ? deps.files.fileRecords(uploads, keyId) : undefined;
      if (!idempotency) {
        const snapshot = await store.insert(record, ctx, files);
        await events.created(snapshot.push);
        return { snapshot, urlToken, note: input.note, replayed: false };
      }
      const requestHash = requestFingerprint(idempotency.key, input, uploads);
      const inserted = await store.insertOnce(
        record,
        ctx,
        {
          scope: idempotency.scope,
          keyHash: idempotencyKeyHash(idempotency.key),
          requestHash,
          ttlSeconds: deps.idempotencyTtlSeconds ?? IDEMPOTENCY_TTL_SECONDS,
        },
        files,
      );
      if (inserted.outcome === 'created') {
        await events.created(inserted.snapshot.push);
        return { snapshot: inserted.snapshot, urlToken, note: input.note, replayed: false };
      }
      if (!isSameRequest(inserted.requestHash, requestHash)) throw new IdempotencyKeyReused();
      if (!inserted.push) throw new PushNotFound();
      const { push, now, secrets } = inserted.push;
      return {
        snapshot: { push, now },
        urlToken: open(push.id, secrets.keyId, 'url_token', secrets.tokenSealed)!,
        note: open(push.id, secrets.keyId, 'note', secrets.noteSealed),
        replayed: true,
      };
    },

    /**
     * One view, in at most two statements. Without a passphrase: one visit, which claims the view
     * or explains (and audits) the refusal. With one: the attempt is counted by the limiter before
     * anything else (so guesses are bounded), the push is read, and the passphrase verified off
     * the database; a wrong one is audited `failed_passphrase`, a right one lets the visit claim.
     */
    async retrieve(
      urlToken: string,
      passphrase: string | undefined,
      ctx: AuditContext,
    ): Promise<RetrieveResult> {
      const given = passphrase !== undefined && passphrase !== '' ? passphrase : undefined;
      if (!isWellFormedUrlToken(urlToken)) throw new PushNotFound();
      const tokenHash = hashUrlToken(urlToken);
      if (given === undefined) return retrieved(await visit(tokenHash, ctx, 'view'));

      await deps.passphraseLimiter.consume(tokenHash.toString('hex'), ctx.ip);
      const found = await find(urlToken);
      const hash = found.secrets.passphraseHash;
      // A push that cannot be viewed is refused as expired by the visit, whatever the passphrase.
      if (hash !== null && canView(found.push, found.now).ok) {
        if (!(await verifyPassphrase(hash, given))) {
          await store.recordCappedAudit(found.push.id, 'failed_passphrase', ctx, deps.maxAuditEntries);
          throw new PassphraseRejected();
        }
        return retrieved(await visit(tokenHash, ctx, 'view', 'verified'));
      }
      return retrieved(await visit(tokenHash, ctx, 'view', 'unverified'));
    },

    /**
     * A recipient page was opened: no view is counted, the push is only read (and expired if past
     * its window) and the opening is audited `link_opened`, so an owner can tell link unfurlers and
     * mail scanners from reveals. One statement.
     */
    async open(urlToken: string, ctx: AuditContext): Promise<PushSnapshot> {
      const visited = isWellFormedUrlToken(urlToken)
        ? await visit(hashUrlToken(urlToken), ctx, 'open')
        : undefined;
      if (!visited) throw new PushNotFound();
      await announce(visited);
      return visited.snapshot;
    },

    /** No view, no audit: works for expired pushes too. */
    async preview(urlToken: string): Promise<PushSnapshot> {
      const { push, now } = await find(urlToken);
      return { push, now };
    },

    /** The owner's audit log, a page at a time, and how many entries the cap left out. */
    async auditLog(
      urlToken: string,
      principal: string,
      page: number,
    ): Promise<{ push: Push; entries: AuditEntry[]; dropped: number }> {
      const { push } = await find(urlToken);
      if (push.owner !== principal) throw new NotOwner();
      return { push, entries: await store.listAuditEntries(push.id, page), dropped: push.auditDropped };
    },

    /**
     * DELETE: the owner with `pushes:write`, or anyone when deletable_by_viewer; already expired →
     * unchanged, no audit. The owner refused only for want of the scope is told which scope.
     */
    async expire(urlToken: string, actor: Actor, ctx: AuditContext): Promise<PushSnapshot> {
      const current = await findCurrent(urlToken);
      const owner = ownerOf(actor);
      const isOwner = owner !== null && current.push.owner === owner;
      if (!(isOwner && holds(actor, 'pushes:write')) && current.push.deletableByViewer !== true) {
        if (isOwner) throw new MissingScope('pushes:write');
        throw new NotDeletable(actor.kind !== 'anonymous');
      }
      const expired = await store.expireManually(current.push.id, ctx);
      if (!expired) {
        // Already expired by its last view: its files' grace period ends now (their purge time is
        // set to now; the worker's next tick deletes them).
        if (current.push.kind === 'file' && deps.files) await deps.files.releaseNow(current.push.id);
        return find(urlToken);
      }
      await events.expired(expired.push, 'manual');
      return expired;
    },

    /**
     * Every push of `owner` expires now (a deleted account's: nothing of theirs is served after
     * this), each audited `expire` and announced; returns how many were active.
     */
    async expireAllOwnedBy(owner: string, ctx: AuditContext): Promise<number> {
      const expired = await store.expireAllOwned(owner, ctx);
      for (const snapshot of expired) await events.expired(snapshot.push, 'manual');
      return expired.length;
    },

    async list(owner: string, state: 'active' | 'expired', page: number): Promise<OwnedPush[]> {
      const { pushes, now } = await store.listOwned(owner, state, page);
      return pushes.map(({ push, secrets }) => ({
        snapshot: { push, now },
        urlToken: open(push.id, secrets.keyId, 'url_token', secrets.tokenSealed)!,
        note: open(push.id, secrets.keyId, 'note', secrets.noteSealed),
      }));
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;
