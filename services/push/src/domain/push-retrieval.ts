import type { KeyRing } from '@secret-push/key-ring';
import { verifyPassphrase } from '../security/passphrase';
import { hashUrlToken, isWellFormedUrlToken } from '../security/url-token';
import { PassphraseRejected, PushNotFound, ViewNotDelivered } from './errors';
import type { FileService } from './file-service';
import type { AttemptLimiter } from './ports/attempt-limiter';
import type { PushStore, Visit } from './ports/push-store';
import type { AuditContext, PushSnapshot } from './push';
import type { PushEvents } from './push-events';
import type { PushLookup } from './push-lookup';
import { type OpenSealed, openerOf } from './push-sealing';
import type { Retrieved, RetrieveResult } from './retrieve-result';
import { type RevealRetry, revealOnce } from './reveal-retry';

export type { Retrieved, RetrieveResult, ViewedVisit } from './retrieve-result';
import { canView } from './view-policy';

export interface PushRetrievalDeps {
  store: PushStore;
  keyRing: KeyRing;
  passphraseLimiter: AttemptLimiter;
  events: PushEvents;
  maxAuditEntries: number;
  files?: FileService;
  fileGraceSeconds: number;
  /** Retry-safe reveals (reveal ids); absent: a reveal id is ignored. */
  reveals?: RevealRetry;
}

/** A visit's changes that committed, announced to the events (metrics). */
async function announce(events: PushEvents, visited: Visit): Promise<void> {
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
async function retrieved(
  deps: PushRetrievalDeps,
  open: OpenSealed,
  visited: Visit | undefined,
): Promise<Retrieved> {
  const { store, events } = deps;
  if (!visited) throw new PushNotFound();
  if (visited.outcome !== 'viewed') {
    await announce(events, visited);
    if (visited.outcome === 'refused' && visited.reason === 'passphrase') throw new PassphraseRejected();
    return { result: { outcome: 'expired', snapshot: visited.snapshot } };
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
  await announce(events, visited);
  return { result: delivered, viewed: visited };
}

/** The reads of a push by its link: retrieve (one view), open (a recipient page), preview. */
export function pushRetrieval(deps: PushRetrievalDeps, lookup: PushLookup) {
  const { store } = deps;
  const open = openerOf(deps.keyRing);
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
  const deliver = (visited: Visit | undefined) => retrieved(deps, open, visited);

  /**
   * One view, in at most two statements. Without a passphrase: one visit, which claims the view
   * or explains (and audits) the refusal. With one: the attempt is counted by the limiter before
   * anything else (so guesses are bounded), the push is read, and the passphrase verified off
   * the database; a wrong one is audited `failed_passphrase`, a right one lets the visit claim.
   */
  async function retrieveOnce(
    tokenHash: Buffer,
    urlToken: string,
    given: string | undefined,
    ctx: AuditContext,
  ): Promise<Retrieved> {
    if (given === undefined) return deliver(await visit(tokenHash, ctx, 'view'));
    await deps.passphraseLimiter.consume(tokenHash.toString('hex'), ctx.ip);
    const found = await lookup.find(urlToken);
    const hash = found.secrets.passphraseHash;
    // A push that cannot be viewed is refused as expired by the visit, whatever the passphrase.
    if (hash !== null && canView(found.push, found.now).ok) {
      if (!(await verifyPassphrase(hash, given))) {
        await store.recordCappedAudit(found.push.id, 'failed_passphrase', ctx, deps.maxAuditEntries);
        throw new PassphraseRejected();
      }
      return deliver(await visit(tokenHash, ctx, 'view', 'verified'));
    }
    return deliver(await visit(tokenHash, ctx, 'view', 'unverified'));
  }

  return {
    /**
     * One view (retrieveOnce). With a reveal id (the page's hidden field, the API's
     * Idempotency-Key), a repeat of a reveal within the window gets the same answer without
     * spending another view, audit entry or event (reveal-retry.ts).
     */
    async retrieve(
      urlToken: string,
      passphrase: string | undefined,
      ctx: AuditContext,
      revealId?: string,
    ): Promise<RetrieveResult> {
      const given = passphrase !== undefined && passphrase !== '' ? passphrase : undefined;
      if (!isWellFormedUrlToken(urlToken)) throw new PushNotFound();
      const tokenHash = hashUrlToken(urlToken);
      const once = () => retrieveOnce(tokenHash, urlToken, given, ctx);
      if (revealId === undefined || !deps.reveals) return (await once()).result;
      return revealOnce(
        deps.reveals,
        { lookup, open, files: deps.files },
        { tokenHash, urlToken, revealId, given },
        once,
      );
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
      await announce(deps.events, visited);
      return visited.snapshot;
    },

    /** No view, no audit: works for expired pushes too. */
    async preview(urlToken: string): Promise<PushSnapshot> {
      const { push, now } = await lookup.find(urlToken);
      return { push, now };
    },
  };
}
