import type { KeyRing } from '@secret-push/key-ring';
import { type Actor, holds, ownerOf } from './create-policy';
import { MissingScope, NotDeletable, NotOwner } from './errors';
import { createExpiry } from './expiry';
import type { FileService } from './file-service';
import type { AttemptLimiter } from './ports/attempt-limiter';
import type { PushStore } from './ports/push-store';
import type { AuditContext, Push, PushSnapshot } from './push';
import type { EmailSettings } from './email-policy';
import type { EmailStore } from './ports/email-store';
import { type AuditEntryWithEmail, pushEmails } from './push-emails';
import { type OwnedPush, createdPushOf, pushCreator } from './push-create';
import type { PushEvents } from './push-events';
import { pushLookup } from './push-lookup';
import { openerOf } from './push-sealing';
import { pushReceipts } from './push-receipts';
import { pushRetrieval } from './push-retrieval';
import type { RevealRetry } from './reveal-retry';

export {
  type CreateKey,
  type CreateOptions,
  type CreatedPush,
  type OwnedPush,
  type PreparedFiles,
  newPushId,
} from './push-create';
export type { RetrieveResult } from './push-retrieval';
export type { AuditEntryWithEmail, NotifyByEmail, PushEmailStatus } from './push-emails';

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
  /** Retry-safe reveals (reveal ids); absent: a reveal id is ignored. */
  reveals?: RevealRetry;
  /** The email queue and its tables (always wired where there is a database). */
  emailStore?: EmailStore;
  /** Email on (SMTP configured) and the daily cap; absent: email is off. */
  email?: EmailSettings;
}

/**
 * The push use cases: create (push-create.ts), retrieve (one view), open (a recipient page, no
 * view) and preview (push-retrieval.ts), and here the owner's: audit log, expire (DELETE), lists.
 * Decisions are the view rule's (view-policy.ts, and its SQL twin in storage/view-rule.sql.ts) and
 * the create policy's (create-policy.ts); storage is reached only through the PushStore port.
 */
export function createPushService(deps: PushServiceDeps) {
  const { store, events } = deps;
  const expiry = createExpiry({ store, events });
  const lookup = pushLookup(store, expiry);
  const { find, findCurrent } = lookup;
  const open = openerOf(deps.keyRing);
  const { withEmail, ...emails } = pushEmails(deps, lookup);

  return {
    create: pushCreator(deps),
    createdWith: createdPushOf(store, deps.keyRing),
    ...pushRetrieval(deps, lookup),
    ...emails,
    ...pushReceipts({ store, expiry, events, ...(deps.files ? { files: deps.files } : {}) }),

    /** The owner's audit log, a page at a time, and how many entries the cap left out. */
    async auditLog(
      urlToken: string,
      principal: string,
      page: number,
    ): Promise<{ push: Push; entries: AuditEntryWithEmail[]; dropped: number }> {
      const { push } = await find(urlToken);
      if (push.owner !== principal) throw new NotOwner();
      const entries = await withEmail(push, await store.listAuditEntries(push.id, page));
      return { push, entries, dropped: push.auditDropped };
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
