import { generateUrlToken, hashUrlToken, isWellFormedUrlToken } from '../security/url-token';
import { PushNotFound } from './errors';
import type { Expiry } from './expiry';
import type { FileService } from './file-service';
import type { PushStore, StoredPush } from './ports/push-store';
import type { AuditContext, PushSnapshot } from './push';
import type { PushEvents } from './push-events';
import { isPastWindow } from './view-policy';

/**
 * An anonymous sender's receipt (issue 29, like OneTimeSecret's): a private status link, shown once
 * with the secret link, that shows the push's state (never its secret) and expires it. Its token
 * is a random capability of its own (128 bits), stored only as its SHA-256: the url_token cannot
 * be derived from it nor it from the url_token. A signed-in creator has /pushes instead.
 */
export function pushReceipts(deps: {
  store: PushStore;
  expiry: Pick<Expiry, 'expireIfPastWindow'>;
  events: PushEvents;
  files?: FileService;
}) {
  const { store } = deps;

  async function find(receipt: string): Promise<StoredPush> {
    const found = isWellFormedUrlToken(receipt)
      ? await store.findByReceiptHash(hashUrlToken(receipt))
      : undefined;
    if (!found) throw new PushNotFound();
    return found;
  }

  /** The push as it is now: one past its window expires now (as every read of a push does). */
  async function receiptStatus(receipt: string): Promise<PushSnapshot> {
    const found = await find(receipt);
    if (found.push.expired || !isPastWindow(found.push, found.now)) {
      return { push: found.push, now: found.now };
    }
    await deps.expiry.expireIfPastWindow(found.push.id);
    const again = await find(receipt);
    return { push: again.push, now: again.now };
  }

  return {
    /** A receipt for an anonymous push that has none (its token, shown once); undefined otherwise. */
    async issueReceipt(pushId: string): Promise<string | undefined> {
      const receipt = generateUrlToken();
      return (await store.setReceipt(pushId, hashUrlToken(receipt))) ? receipt : undefined;
    },

    receiptStatus,

    /**
     * Expire now through the receipt: expired and deleted, secrets wiped, audited
     * `expire_by_receipt` and announced as a manual expiry; already expired: unchanged.
     */
    async expireByReceipt(receipt: string, ctx: AuditContext): Promise<PushSnapshot> {
      const current = await receiptStatus(receipt);
      const expired = await store.expireByReceipt(current.push.id, ctx);
      if (!expired) {
        if (current.push.kind === 'file' && deps.files) await deps.files.releaseNow(current.push.id);
        return receiptStatus(receipt);
      }
      await deps.events.expired(expired.push, 'manual');
      return expired;
    },
  };
}
