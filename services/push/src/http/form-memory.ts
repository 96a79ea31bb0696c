import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { HttpError } from '@secret-push/http-kit';

/**
 * What a web form's key made, for a while (Redis): the request pages' Post/Redirect/Get (issue
 * 28), where the requests domain keeps no Idempotency-Key of its own. The first sender of a key
 * claims it; later senders (a resubmission, a reload of the POST) find the claim and create
 * nothing. Keys are stored hashed; values are whatever the caller gives (the pages store the
 * url_token sealed by the key ring, never in clear). Redis down: 503 (the page's session lives in
 * Redis too, so the page could not be used anyway).
 */
export interface FormMemory {
  /** Claims `key` for `ttlSeconds`: true when this caller claimed it, false when it was claimed before. */
  claim(key: string, ttlSeconds: number): Promise<boolean>;
  /** What the claim made (kept for `ttlSeconds`). */
  remember(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** The value remembered; undefined when none (or not yet: the create is still running). */
  recall(key: string): Promise<string | undefined>;
  /** Gives up a claim whose create failed: the same form may be sent again. */
  release(key: string): Promise<void>;
}

const CLAIMED = '-';

export function createFormMemory(redis: Redis, prefix: string, name: string): FormMemory {
  const keyOf = (key: string) => `${prefix}form:${name}:${createHash('sha256').update(key).digest('hex')}`;
  const guard = async <T>(op: () => Promise<T>): Promise<T> => {
    try {
      return await op();
    } catch (err) {
      throw HttpError.unavailable('session store', err);
    }
  };
  return {
    claim: (key, ttl) => guard(async () => (await redis.set(keyOf(key), CLAIMED, 'EX', ttl, 'NX')) === 'OK'),
    remember: (key, value, ttl) =>
      guard(async () => {
        await redis.set(keyOf(key), value, 'EX', ttl);
      }),
    recall: (key) =>
      guard(async () => {
        const value = await redis.get(keyOf(key));
        return value === null || value === CLAIMED ? undefined : value;
      }),
    release: (key) =>
      guard(async () => {
        await redis.del(keyOf(key));
      }),
  };
}
