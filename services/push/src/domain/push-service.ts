import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { KeyRing } from '../security/key-ring';
import { hashPassphrase, verifyPassphrase } from '../security/passphrase';
import { generateUrlToken, hashUrlToken, isWellFormedUrlToken } from '../security/url-token';
import type { FileLink, FileService, StoredUpload } from '../files/file-service';
import type { PushDatabase } from '../storage/database';
import { insertPushWithFiles } from '../storage/file.repository';
import * as repo from '../storage/push.repository';
import type { PushRow } from '../storage/push.table';
import { NotDeletable, NotOwner, PassphraseRejected, PushNotFound } from './errors';
import type { AuditContext, AuditEntry, NewPush, PushSnapshot } from './push';
import type { PushEvents } from './push-events';
import { createExpiry } from './expiry';
import { isEffectivelyExpired, isPastWindow } from './view-policy';

/** Counts passphrase attempts before they are verified; throws TooManyAttempts or DependencyDown. */
export interface AttemptLimiter {
  consume(pushKey: string, ip: string | null): Promise<void>;
}

export interface PushServiceDeps {
  db: Kysely<PushDatabase>;
  keyRing: KeyRing;
  passphraseLimiter: AttemptLimiter;
  events: PushEvents;
  maxAuditEntries: number;
  /** File pushes; absent when the instance has no object store. */
  files?: FileService;
  /** After the last view of a file push, its files stay downloadable this long. */
  fileGraceSeconds: number;
}

/** A create's uploaded files, stored under `pushId` before the push row exists. */
export interface PreparedFiles {
  pushId: string;
  uploads: StoredUpload[];
}

export type RetrieveResult =
  | { outcome: 'viewed'; snapshot: PushSnapshot; payload: string | null; files: FileLink[] }
  | { outcome: 'expired'; snapshot: PushSnapshot };

export interface OwnedPush {
  snapshot: PushSnapshot;
  urlToken: string;
  note: string | null;
}

const aad = (pushId: string, field: 'url_token' | 'payload' | 'note') => `${pushId}|${field}`;

export function createPushService(deps: PushServiceDeps) {
  const { db, keyRing, events } = deps;
  const expiry = createExpiry({ db, events });

  const open = (
    row: { id: string; key_id: string },
    field: 'url_token' | 'payload' | 'note',
    data: Buffer | null,
  ) => (data ? keyRing.open({ keyId: row.key_id, data }, aad(row.id, field)) : null);

  async function find(urlToken: string): Promise<PushSnapshot & { row: PushRow }> {
    const found = isWellFormedUrlToken(urlToken)
      ? await repo.findPushByTokenHash(db, hashUrlToken(urlToken))
      : undefined;
    if (!found) throw new PushNotFound();
    return found;
  }

  /** Every read re-checks the window: a push past it is expired now, even if the worker has not run. */
  async function findCurrent(urlToken: string): Promise<PushSnapshot & { row: PushRow }> {
    const found = await find(urlToken);
    if (found.push.expired || !isPastWindow(found.push, found.now)) return found;
    await expiry.expireIfPastWindow(found.push.id);
    return find(urlToken);
  }

  const audit = (
    pushId: string,
    kind: 'failed_view' | 'failed_passphrase' | 'link_opened',
    ctx: AuditContext,
  ) => repo.recordCappedAudit(db, pushId, kind, ctx, deps.maxAuditEntries);

  const claim = (tokenHash: Buffer, ctx: AuditContext, passphraseVerified: boolean) =>
    repo.claimView(db, tokenHash, ctx, passphraseVerified, deps.fileGraceSeconds);

  async function viewed(claimed: repo.ClaimedView): Promise<RetrieveResult> {
    const { push } = claimed;
    const payload = open({ id: push.id, key_id: claimed.keyId }, 'payload', claimed.payloadSealed);
    events.viewed(push);
    if (push.expired) void events.expired(push, 'views');
    const files =
      push.kind === 'file' && deps.files
        ? await deps.files.linksForView(push.id, claimed.viewId, claimed.keyId, claimed.now)
        : [];
    return { outcome: 'viewed', snapshot: claimed, payload, files };
  }

  return {
    async create(
      input: NewPush,
      owner: string | null,
      ctx: AuditContext,
      prepared?: PreparedFiles,
    ): Promise<OwnedPush> {
      const id = prepared?.pushId ?? randomUUID();
      const urlToken = generateUrlToken();
      const keyId = keyRing.activeKeyId;
      const seal = (v: string | null, field: 'payload' | 'note') =>
        v === null ? null : keyRing.seal(v, aad(id, field), keyId);
      const row = {
        id,
        token_hash: hashUrlToken(urlToken),
        token_sealed: keyRing.seal(urlToken, aad(id, 'url_token'), keyId),
        key_id: keyId,
        kind: input.kind,
        owner,
        name: input.name,
        payload_sealed: seal(input.payload, 'payload'),
        note_sealed: seal(input.note, 'note'),
        passphrase_hash: input.passphrase ? await hashPassphrase(input.passphrase) : null,
        passphrase_protected: input.passphrase !== null,
        expire_after_days: input.expireAfterDays,
        expire_after_views: input.expireAfterViews,
        deletable_by_viewer: input.deletableByViewer,
        retrieval_step: input.retrievalStep,
      };
      const uploads = prepared?.uploads ?? [];
      const snapshot =
        uploads.length > 0 && deps.files
          ? await insertPushWithFiles(db, row, input.ttlSeconds, ctx, deps.files.fileRows(uploads, keyId))
          : await repo.insertPush(db, row, input.ttlSeconds, ctx);
      await events.created(snapshot.push);
      return { snapshot, urlToken, note: input.note };
    },

    /**
     * One view. Without a passphrase the common case is a single statement (claimView); the
     * lookup only runs to tell "unknown", "expired" and "needs a passphrase" apart. A non-blank
     * passphrase is counted by the limiter before anything else, so guesses are bounded.
     */
    async retrieve(
      urlToken: string,
      passphrase: string | undefined,
      ctx: AuditContext,
    ): Promise<RetrieveResult> {
      const given = passphrase !== undefined && passphrase !== '' ? passphrase : undefined;
      if (!isWellFormedUrlToken(urlToken)) throw new PushNotFound();
      const tokenHash = hashUrlToken(urlToken);
      if (given === undefined) {
        const claimed = await claim(tokenHash, ctx, false);
        if (claimed) return viewed(claimed);
      } else {
        await deps.passphraseLimiter.consume(tokenHash.toString('hex'), ctx.ip);
      }

      const current = await findCurrent(urlToken);
      if (!isEffectivelyExpired(current.push, current.now) && current.push.passphraseProtected) {
        const hash = current.row.passphrase_hash;
        if (given === undefined || hash === null || !(await verifyPassphrase(hash, given))) {
          await audit(current.push.id, 'failed_passphrase', ctx);
          throw new PassphraseRejected();
        }
      }
      const claimed = isEffectivelyExpired(current.push, current.now)
        ? undefined
        : await claim(tokenHash, ctx, current.push.passphraseProtected);
      if (claimed) return viewed(claimed);

      await audit(current.push.id, 'failed_view', ctx);
      const latest = await find(urlToken);
      return { outcome: 'expired', snapshot: latest };
    },

    /**
     * A recipient page was opened: no view is counted, the push is only read (and expired if past
     * its window) and the opening is audited `link_opened`, so an owner can tell link unfurlers and
     * mail scanners from reveals.
     */
    async open(urlToken: string, ctx: AuditContext): Promise<PushSnapshot> {
      const current = await findCurrent(urlToken);
      await audit(current.push.id, 'link_opened', ctx);
      return { push: current.push, now: current.now };
    },

    /** No view, no audit: works for expired pushes too. */
    async preview(urlToken: string): Promise<PushSnapshot> {
      return find(urlToken);
    },

    async auditLog(urlToken: string, principal: string, page: number): Promise<AuditEntry[]> {
      const { push } = await find(urlToken);
      if (push.owner !== principal) throw new NotOwner();
      return repo.listAuditEntries(db, push.id, page);
    },

    /**
     * DELETE: the owner (`owner` is the caller's principal when it may write), or anyone when
     * deletable_by_viewer; already expired → unchanged, no audit.
     */
    async expire(
      urlToken: string,
      owner: string | undefined,
      ctx: AuditContext,
      authenticated: boolean,
    ): Promise<PushSnapshot> {
      const current = await findCurrent(urlToken);
      const isOwner = owner !== undefined && current.push.owner === owner;
      if (!isOwner && current.push.deletableByViewer !== true) throw new NotDeletable(authenticated);
      const expired = await repo.expireByOwnerOrViewer(db, current.push.id, ctx);
      if (!expired) {
        // Already expired by its last view: its files' grace period ends now.
        if (current.push.kind === 'file' && deps.files && (await deps.files.releaseNow(current.push.id))) {
          const released = await find(urlToken);
          await events.filesDue(released.push);
          return released;
        }
        return find(urlToken);
      }
      await events.expired(expired.push, 'manual');
      return expired;
    },

    async list(owner: string, state: 'active' | 'expired', page: number): Promise<OwnedPush[]> {
      const { rows, now } = await repo.listOwnedPushes(db, owner, state, page);
      return rows.map((row) => ({
        snapshot: { push: repo.pushRowToPush(row), now },
        urlToken: open(row, 'url_token', row.token_sealed)!,
        note: open(row, 'note', row.note_sealed),
      }));
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;
