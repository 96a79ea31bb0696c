import { randomUUID } from 'node:crypto';
import type { KeyRing } from '@secret-push/key-ring';
import { IdempotencyKeyReused, PushNotFound } from './errors';
import type { FileService, StoredUpload } from './file-service';
import {
  IDEMPOTENCY_TTL_SECONDS,
  idempotencyKeyHash,
  isSameRequest,
  requestFingerprint,
} from './idempotency';
import { type EmailSettings, emailPlanFor } from './email-policy';
import type { EmailLocale, EmailSender } from './email-rules';
import type { PushStore } from './ports/push-store';
import { type EventListeners, wantsEvents } from './outbox';
import type { AuditContext, NewPush, PushSnapshot } from './push';
import type { PushEvents } from './push-events';
import { openerOf, sealPushRecord } from './push-sealing';

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
  /** The person behind the create, when it is one (email: their address, notice defaults). */
  sender?: EmailSender | null;
  /** The sender's language (the request's `Accept-Language`), when it names a supported one. */
  senderLocale?: EmailLocale | null;
  /** Who listens to this push's changes (absent: nobody; its statements then write no event). */
  listeners?: EventListeners;
}

export interface OwnedPush {
  snapshot: PushSnapshot;
  urlToken: string;
  note: string | null;
}

/** A create's answer; `replayed`: the push an earlier create with the same Idempotency-Key made. */
export interface CreatedPush extends OwnedPush {
  replayed: boolean;
}

const EMAIL_DISABLED: EmailSettings = { enabled: false, dailyLimit: 0 };

/** A new push's id; a multipart create takes one before its files are stored under it. */
export const newPushId = (): string => randomUUID();

export interface PushCreateDeps {
  store: PushStore;
  keyRing: KeyRing;
  events: PushEvents;
  files?: FileService;
  idempotencyTtlSeconds?: number;
  /** Email (PUSH_SMTP_URL, PUSH_EMAIL_DAILY_LIMIT); absent: off. */
  email?: EmailSettings;
}

/**
 * Creates a push. With an Idempotency-Key, the key is stored with the push in one transaction;
 * if a create with the same key committed first (within the key's lifetime), nothing is created:
 * the same request gets that create's push as it is now (`replayed`; expired or deleted since
 * included), another request is refused (IdempotencyKeyReused).
 */
export function pushCreator(deps: PushCreateDeps) {
  const { store, keyRing, events } = deps;
  const open = openerOf(keyRing);
  return async function create(input: NewPush, options: CreateOptions): Promise<CreatedPush> {
    const { owner, audit: ctx, files: prepared, idempotency } = options;
    const id = prepared?.pushId ?? newPushId();
    const uploads = prepared?.uploads ?? [];
    // Decided before anything is sealed or stored: a refused email field changes nothing.
    const email = emailPlanFor(
      input.email,
      { owner, sender: options.sender ?? null },
      deps.email ?? EMAIL_DISABLED,
      options.senderLocale ?? null,
    );
    const { record, urlToken } = await sealPushRecord(keyRing, input, {
      id,
      owner,
      email,
      // Owner notices are an outbox consumer's reason to listen (domain/owner-notices.ts).
      outbox: wantsEvents({
        ...options.listeners,
        ownerNotices: (email?.noticeOn.length ?? 0) > 0 || (options.listeners?.ownerNotices ?? false),
      }),
    });
    const files =
      uploads.length > 0 && deps.files ? deps.files.fileRecords(uploads, record.keyId) : undefined;
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
  };
}

/**
 * The push a keyed create made within the last `withinSeconds` (the web app's created page, shown
 * again on a reload): nothing is created, nothing audited. Undefined when the key is unknown in
 * this scope, older, or its push is gone.
 */
export function createdPushOf(store: PushStore, keyRing: KeyRing) {
  const open = openerOf(keyRing);
  return async function createdWith(key: CreateKey, withinSeconds: number): Promise<OwnedPush | undefined> {
    const found = await store.findByIdempotencyKey(
      { scope: key.scope, keyHash: idempotencyKeyHash(key.key) },
      withinSeconds,
    );
    if (!found) return undefined;
    const { push, now, secrets } = found;
    return {
      snapshot: { push, now },
      urlToken: open(push.id, secrets.keyId, 'url_token', secrets.tokenSealed)!,
      note: open(push.id, secrets.keyId, 'note', secrets.noteSealed),
    };
  };
}
