import type { Redis } from 'ioredis';
import type { Logger } from '@secret-push/logger';

/*
 * A per-key limit per minute counted locally first and shared through Redis in batches, for the
 * general create and retrieve limits: a request costs no Redis round trip. Each replica counts the
 * requests it admits in the current minute (fixed windows of the wall clock), adds them to the
 * key's Redis counter every `syncMs` (one pipelined INCRBY per key with new requests) and learns
 * the total of all replicas from the reply. A request is admitted while
 *   (total last learned from Redis) + (admitted here since) < limit.
 *
 * Tolerance: exact within one replica; across replicas a key may go over its limit by what the
 * other replicas admit for it within one sync interval (default 100 ms) before they learn the
 * total, and a replica that sees a key for the first time admits it until its first sync. The
 * passphrase, sign-in, token-endpoint and invalid-token limits stay exact and atomic in Redis
 * (rate-limits.ts): they protect secrets; these protect capacity.
 *
 * Without Redis the counts stay local (each replica still enforces the limit for what it sees)
 * and are added to Redis when it answers again; a failure is logged once per outage. Memory is
 * bounded: at most `maxKeys` keys (past minutes' entries are dropped first); past that, the new
 * keys of the minute share one overflow counter (a flood of addresses is limited as one caller).
 * No well-kept library batches counts this way (rate-limiter-flexible's Redis limiter pays a round
 * trip per request; its in-memory "block" option only skips it for keys already refused).
 */

const WINDOW_MS = 60_000;
const OVERFLOW = '\u0000overflow';

interface Entry {
  window: number;
  /** The key's total over all replicas at the last sync (this replica's synced requests included). */
  known: number;
  /** Admitted here and not yet sent to Redis. */
  pending: number;
  /** Sent to Redis, reply not yet in. */
  inflight: number;
}

export type Admission = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface SharedWindowCounterOptions {
  /** Redis key prefix of this limit's counters (e.g. `push:rl2:create:`). */
  prefix: string;
  perMinute: number;
  /** How often counts are added to Redis (ms). */
  syncMs?: number;
  /** Keys held per window before new keys share an overflow counter. */
  maxKeys?: number;
  now?: () => number;
}

export class SharedWindowCounter {
  private readonly entries = new Map<string, Entry>();
  /** Entries with requests not yet sent to Redis. */
  private readonly dirty = new Map<string, Entry>();
  /** The minute whose past entries were last dropped. */
  private current = 0;
  private readonly syncMs: number;
  private readonly maxKeys: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private failing = false;
  private closed = false;

  constructor(
    private readonly redis: Redis,
    private readonly options: SharedWindowCounterOptions,
    private readonly logger: Logger,
  ) {
    this.syncMs = options.syncMs ?? 100;
    this.maxKeys = options.maxKeys ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  /** Counts one request for `key` if the key is under its limit. */
  take(key: string): Admission {
    const now = this.now();
    const window = Math.floor(now / WINDOW_MS);
    const entry = this.entryOf(key, window);
    if (entry.known + entry.inflight + entry.pending >= this.options.perMinute) {
      return {
        ok: false,
        retryAfterSeconds: Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000)),
      };
    }
    entry.pending += 1;
    this.dirty.set(key, entry);
    this.schedule();
    return { ok: true };
  }

  /** Sends what is pending now (tests, shutdown); resolves when Redis has answered. */
  async flush(): Promise<void> {
    while (this.syncing) await this.syncing;
    this.syncing = this.sync().finally(() => {
      this.syncing = undefined;
    });
    await this.syncing;
  }

  /** Stops the timer (the process is stopping); pending counts are sent first. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush().catch(() => undefined);
  }

  private entryOf(key: string, window: number): Entry {
    const found = this.entries.get(key);
    if (found && found.window === window) return found;
    if (window !== this.current) this.dropPast(window); // once a minute
    if (key !== OVERFLOW && this.entries.size >= this.maxKeys) return this.entryOf(OVERFLOW, window);
    const fresh: Entry = { window, known: 0, pending: 0, inflight: 0 };
    this.entries.set(key, fresh);
    return fresh;
  }

  /** A new minute: past minutes' entries go (their unsent counts stay in `dirty` until sent). */
  private dropPast(window: number): void {
    this.current = window;
    for (const [key, e] of this.entries) if (e.window !== window) this.entries.delete(key);
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.syncing) void this.flush().catch(() => undefined);
      else this.schedule();
    }, this.syncMs);
    this.timer.unref();
  }

  private async sync(): Promise<void> {
    const batch: [string, Entry, number][] = [];
    for (const [key, e] of this.dirty) {
      batch.push([key, e, e.pending]);
      e.inflight += e.pending;
      e.pending = 0;
    }
    this.dirty.clear();
    if (batch.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const [key, e, sent] of batch) {
      const redisKey = `${this.options.prefix}${e.window}:${key}`;
      pipeline.incrby(redisKey, sent);
      pipeline.pexpire(redisKey, WINDOW_MS * 2);
    }
    let replies: [Error | null, unknown][] | null = null;
    try {
      replies = await pipeline.exec();
    } catch (err) {
      this.failed(err);
    }
    batch.forEach(([key, e, sent], i) => {
      e.inflight -= sent;
      const [err, total] = replies?.[i * 2] ?? [new Error('no reply'), null];
      if (err || typeof total !== 'number') {
        e.pending += sent; // counted here still; sent again at the next sync
        this.dirty.set(key, e);
        if (replies) this.failed(err);
        return;
      }
      e.known = Math.max(e.known, total);
    });
    if (replies && !replies.some(([err]) => err)) this.recovered();
    if (this.dirty.size > 0) this.schedule();
  }

  private failed(err: unknown): void {
    if (this.failing) return;
    this.failing = true;
    this.logger.warn(
      { limiter: this.options.prefix, err: (err as Error | null)?.message ?? 'no reply' },
      'rate limit counts not shared: Redis unavailable, counting locally until it answers',
    );
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.logger.info({ limiter: this.options.prefix }, 'rate limit counts shared through Redis again');
  }
}
