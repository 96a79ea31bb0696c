import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/*
 * Web sessions of signed-in people, server-side in Redis. The browser holds only a random 256-bit
 * id (the cookie); Redis holds the session under the SHA-256 of that id, so a copy of Redis's keys
 * does not give anyone a cookie. A session has two lifetimes: idle (it ends when unused for that
 * long; each use extends it) and absolute (it ends that long after sign-in, however much it is
 * used). Hand-written rather than express-session: it needs hashed keys, the absolute lifetime,
 * the ending of every session of a user, and Redis's own per-command deadline (redis-kit), with an
 * error (the page's 503) rather than an empty session when Redis does not answer.
 */

export interface SessionData {
  /** The push service's user (app_user.id). */
  userId: string;
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  /** For RP-initiated logout (`id_token_hint`). */
  idToken?: string;
  /** To re-check the user with the issuer (a refresh), at most every minute. */
  refreshToken?: string;
  /**
   * When the person last signed in at the provider (its `auth_time`, epoch seconds), when it said
   * so: a sign-in again (re-authentication) before deleting the account sets it.
   */
  authTime?: number;
  /** When the session began (ms since the epoch): the absolute lifetime counts from here. */
  createdAt: number;
  /** When the issuer last confirmed the user (ms since the epoch). */
  checkedAt: number;
  /** The token every form of a signed-in page carries (synchronizer token against CSRF). */
  csrf: string;
}

export interface SessionLifetimes {
  idleSeconds: number;
  absoluteSeconds: number;
}

/** Deletes a lock only if it still holds the value its taker set. */
const UNLOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;

/** How long a refused refresh is remembered without a new sign-in (a year). */
const REFUSED_SECONDS = 365 * 86_400;

const hashId = (id: string) => createHash('sha256').update(id).digest('base64url');

export class SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly lifetimes: SessionLifetimes,
    private readonly now: () => number = Date.now,
  ) {}

  private key(id: string) {
    return `${this.prefix}session:${hashId(id)}`;
  }

  private userKey(userId: string) {
    return `${this.prefix}user-sessions:${userId}`;
  }

  /** How long the session may still live, in ms: the idle lifetime, cut by the absolute one. */
  private ttlMs(data: SessionData): number {
    const absoluteLeft = data.createdAt + this.lifetimes.absoluteSeconds * 1000 - this.now();
    return Math.min(this.lifetimes.idleSeconds * 1000, absoluteLeft);
  }

  /** A new session (a new id: sign-in always rotates it); returns the cookie value. */
  async create(data: SessionData): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const key = this.key(id);
    await this.redis
      .multi()
      .set(key, JSON.stringify(data), 'PX', Math.max(1, this.ttlMs(data)))
      .sadd(this.userKey(data.userId), key)
      .pexpire(this.userKey(data.userId), this.lifetimes.absoluteSeconds * 1000)
      .exec();
    return id;
  }

  /** The session, its idle lifetime extended; undefined when it ended or never was. */
  async get(id: string): Promise<SessionData | undefined> {
    const key = this.key(id);
    const json = await this.redis.get(key);
    if (json === null) return undefined;
    const data = JSON.parse(json) as SessionData;
    const ttl = this.ttlMs(data);
    if (ttl <= 0) {
      await this.destroy(id, data.userId);
      return undefined;
    }
    await this.redis.pexpire(key, ttl);
    return data;
  }

  /** Replaces the session's data (e.g. after a re-check), keeping its id and lifetimes. */
  async update(id: string, data: SessionData): Promise<void> {
    const ttl = this.ttlMs(data);
    if (ttl <= 0) return this.destroy(id, data.userId);
    await this.redis.set(this.key(id), JSON.stringify(data), 'PX', ttl, 'XX');
  }

  /**
   * Takes the session's refresh lock for `ms` (across replicas: one re-check at a time, so a
   * refresh token is never presented twice); returns the lock's value for
   * {@link SessionStore.unlockRefresh}, or undefined when another request holds it.
   */
  async lockRefresh(id: string, ms: number): Promise<string | undefined> {
    const value = randomBytes(16).toString('base64url');
    const taken = await this.redis.set(this.refreshLockKey(id), value, 'PX', ms, 'NX');
    return taken === 'OK' ? value : undefined;
  }

  /** Releases the refresh lock if it is still the one taken (compare and delete). */
  async unlockRefresh(id: string, value: string): Promise<void> {
    await this.redis.eval(UNLOCK, 1, this.refreshLockKey(id), value);
  }

  private refreshLockKey(id: string) {
    return `${this.prefix}session-refresh:${hashId(id)}`;
  }

  /**
   * Remembers that the provider refused a refresh for the user (an account it may have deleted
   * or disabled): its personal tokens stop (session/user-status.ts) until it signs in again.
   */
  async markRefused(userId: string): Promise<void> {
    await this.redis.set(this.refusedKey(userId), String(this.now()), 'EX', REFUSED_SECONDS);
  }

  async isRefused(userId: string): Promise<boolean> {
    return (await this.redis.exists(this.refusedKey(userId))) === 1;
  }

  /** A successful sign-in: the provider vouches for the user again. */
  async clearRefused(userId: string): Promise<void> {
    await this.redis.del(this.refusedKey(userId));
  }

  private refusedKey(userId: string) {
    return `${this.prefix}user-refused:${userId}`;
  }

  async destroy(id: string, userId?: string): Promise<void> {
    const key = this.key(id);
    const pipeline = this.redis.multi().del(key);
    if (userId) pipeline.srem(this.userKey(userId), key);
    await pipeline.exec();
  }

  /**
   * A sign-in this browser began: what its callback needs (PKCE verifier, state, nonce), for at
   * most `ttlSeconds`, under the state's hash. Taken once: a callback replayed finds nothing.
   */
  async savePending(state: string, pending: object, ttlSeconds: number): Promise<void> {
    await this.redis.set(`${this.prefix}sign-in:${hashId(state)}`, JSON.stringify(pending), 'EX', ttlSeconds);
  }

  async takePending<T>(state: string): Promise<T | undefined> {
    const json = await this.redis.getdel(`${this.prefix}sign-in:${hashId(state)}`);
    return json === null ? undefined : (JSON.parse(json) as T);
  }

  /**
   * Ends every session of the user (disabled, or deleted its account), or every one but `except`
   * (the person's "sign out other sessions"); returns how many ended.
   */
  async destroyAllOf(userId: string, except?: string): Promise<number> {
    const keep = except === undefined ? undefined : this.key(except);
    const keys = (await this.redis.smembers(this.userKey(userId))).filter((k) => k !== keep);
    const pipeline = this.redis.multi();
    if (keys.length > 0) pipeline.del(...keys);
    if (keep === undefined) pipeline.del(this.userKey(userId));
    else if (keys.length > 0) pipeline.srem(this.userKey(userId), ...keys);
    const results = await pipeline.exec();
    return keys.length > 0 ? Number(results?.[0]?.[1] ?? 0) : 0;
  }
}
