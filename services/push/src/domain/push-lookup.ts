import { hashUrlToken, isWellFormedUrlToken } from '../security/url-token';
import { PushNotFound } from './errors';
import type { Expiry } from './expiry';
import type { PushStore, StoredPush } from './ports/push-store';
import { isPastWindow } from './view-policy';

/** Finds pushes by their url token, for the use cases that read one before acting. */
export interface PushLookup {
  /** The push of this token, as stored; PushNotFound when there is none. */
  find: (urlToken: string) => Promise<StoredPush>;
  /** Every read re-checks the window: a push past it is expired now, even if the worker has not run. */
  findCurrent: (urlToken: string) => Promise<StoredPush>;
}

export function pushLookup(store: PushStore, expiry: Pick<Expiry, 'expireIfPastWindow'>): PushLookup {
  async function find(urlToken: string): Promise<StoredPush> {
    const found = isWellFormedUrlToken(urlToken)
      ? await store.findByTokenHash(hashUrlToken(urlToken))
      : undefined;
    if (!found) throw new PushNotFound();
    return found;
  }
  return {
    find,
    async findCurrent(urlToken) {
      const found = await find(urlToken);
      if (found.push.expired || !isPastWindow(found.push, found.now)) return found;
      await expiry.expireIfPastWindow(found.push.id);
      return find(urlToken);
    },
  };
}
