import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ViewNotDelivered } from './errors';
import type { FileService } from './file-service';
import type { RememberedReveal, RevealMemory } from './ports/reveal-memory';
import type { PushLookup } from './push-lookup';
import type { OpenSealed } from './push-sealing';
import type { Retrieved, RetrieveResult } from './retrieve-result';

/*
 * Retry-safe reveals. A reveal may carry a reveal id (the recipient page's hidden field, the API's
 * Idempotency-Key on POST /pushes/:url_token/reveal): the first reveal with it spends a view as
 * usual and is remembered for a short window; a repeat with the same id (and the same passphrase)
 * within the window gets the same content again without spending a view, writing an audit entry
 * or announcing an event. The memory holds the payload only as sealed in the push. The last view
 * is covered only where the operator allows it (it keeps that sealed copy past the wipe for the
 * window); otherwise a repeat of the last view is answered as any retrieve of an expired push.
 */

export interface RevealRetry {
  memory: RevealMemory;
  /** How long a reveal id is remembered after its view (PUSH_REVEAL_RETRY_SECONDS). */
  windowSeconds: number;
  /** Whether the last view is covered too (PUSH_REVEAL_RETRY_LAST_VIEW; off by default). */
  lastView: boolean;
}

/** A reveal still in flight holds its id at most this long (a crash frees it). */
const PENDING_MS = 30_000;

/** A reveal id is at most 255 visible ASCII characters, and at least 32: nobody else can guess it. */
export const REVEAL_ID_PATTERN = /^[\x21-\x7e]{32,255}$/;
export const isValidRevealId = (id: string): boolean => REVEAL_ID_PATTERN.test(id);

/** A new reveal id, as the recipient page's form carries (32 random bytes, base64url). */
export const newRevealId = (): string => randomBytes(32).toString('base64url');

/** The memory's key: the push's token hash and the reveal id, hashed (neither is stored). */
const revealKey = (tokenHash: Buffer, revealId: string): string =>
  createHash('sha256').update(tokenHash).update('\u0000').update(revealId, 'utf8').digest('hex');

/** What a repeat must send again: the same passphrase (or none), under the reveal id. */
const fingerprintOf = (revealId: string, given: string | undefined): Buffer =>
  createHmac('sha256', revealId)
    .update(given ?? '', 'utf8')
    .digest();

const same = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

interface RepeatDeps {
  lookup: PushLookup;
  open: OpenSealed;
  files?: FileService;
}

/**
 * The remembered reveal answered again, as the push is now: only while the push is still viewable
 * (or, for a remembered last view, expired by that view). Undefined otherwise: the caller
 * retrieves as usual.
 */
async function repeat(
  deps: RepeatDeps,
  urlToken: string,
  r: RememberedReveal,
): Promise<RetrieveResult | undefined> {
  const { push, now } = await deps.lookup.findCurrent(urlToken);
  if (push.id !== r.pushId || (push.expired && !r.lastView)) return undefined;
  if (push.deleted) return undefined;
  const view = { pushId: push.id, viewId: r.viewId, keyId: r.keyId, now, windowEnds: push.expiresAt };
  return {
    outcome: 'viewed',
    snapshot: { push, now },
    payload: deps.open(push.id, r.keyId, 'payload', r.payloadSealed),
    files: push.kind === 'file' && deps.files ? deps.files.linksForView(view, r.files) : [],
  };
}

/** A retrieve under a reveal id: the first spends a view and is remembered, a repeat does not. */
export async function revealOnce(
  retry: RevealRetry,
  deps: RepeatDeps,
  request: { tokenHash: Buffer; urlToken: string; revealId: string; given: string | undefined },
  once: () => Promise<Retrieved>,
): Promise<RetrieveResult> {
  const key = revealKey(request.tokenHash, request.revealId);
  const fingerprint = fingerprintOf(request.revealId, request.given);
  const claim = await retry.memory.claim(key, PENDING_MS);
  if (claim.state === 'busy') throw new ViewNotDelivered('a reveal with this id is still in progress');
  if (claim.state === 'unavailable') return (await once()).result;
  if (claim.state === 'remembered') {
    const again = same(claim.reveal.fingerprint, fingerprint)
      ? await repeat(deps, request.urlToken, claim.reveal)
      : undefined;
    return again ?? (await once()).result;
  }
  let got: Retrieved;
  try {
    got = await once();
  } catch (err) {
    await retry.memory.release(key);
    throw err;
  }
  const viewed = got.viewed;
  const lastView = viewed?.snapshot.push.expired === true;
  if (!viewed || (lastView && !retry.lastView)) {
    await retry.memory.release(key);
    return got.result;
  }
  const remembered: RememberedReveal = {
    pushId: viewed.snapshot.push.id,
    viewId: viewed.viewId,
    keyId: viewed.keyId,
    payloadSealed: viewed.payloadSealed,
    files: viewed.files,
    fingerprint,
    lastView,
  };
  await retry.memory.remember(key, remembered, retry.windowSeconds * 1000);
  return got.result;
}
