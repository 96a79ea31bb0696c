import type { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { Logger } from '@secret-push/logger';

export interface ThrottleOptions {
  windowSeconds: number;
  maxPerClientIp: number;
  maxPerIp: number;
  prefix: string;
}

/** One counter after a failure was added to it. */
export interface FailureCount {
  /** Failures in the current window, this one included. */
  consumed: number;
  /** Failures allowed per window before the caller is told to slow down. */
  max: number;
  /** Milliseconds until the window ends. */
  msLeft: number;
}

/**
 * Seconds a failing caller is told to wait (`Retry-After`): 0 while every counter is within its
 * cap, else until the last window over its cap ends (at least 1).
 */
export function retryAfterSeconds(counts: readonly FailureCount[]): number {
  let wait = 0;
  for (const c of counts) {
    if (c.consumed > c.max) wait = Math.max(wait, 1, Math.ceil(c.msLeft / 1000));
  }
  return wait;
}

/** Redis did not answer while a failure was counted by a caller that does not fail open. */
export class ClientAuthThrottleUnavailable extends Error {}

/**
 * Failed client authentications counted in Redis, so the limits hold across replicas: per
 * (client id, IP) for a client that exists, and a higher cap per IP (unknown client ids included).
 *
 * Only failures are counted and only failures are refused: the secret is always compared first
 * (secrets are 256-bit random values compared in constant time, so there is nothing to guess and
 * comparing costs nothing), and a caller whose credentials verify is never refused because of
 * anyone's failures. A failure over a cap answers 429 `slow_down` instead of 401 and is counted
 * too. If Redis is down the token, introspection and revocation endpoints fail open (logged): the
 * failure answers 401 as usual. The accounts API fails closed instead (`failOpen: false`): a
 * failure it cannot count answers 503.
 */
export class ClientAuthThrottle {
  private readonly perClientIp: RateLimiterRedis;
  private readonly perIp: RateLimiterRedis;

  constructor(
    redis: Redis,
    private readonly options: ThrottleOptions,
    private readonly logger: Logger,
  ) {
    const common = { storeClient: redis, duration: options.windowSeconds };
    this.perClientIp = new RateLimiterRedis({
      ...common,
      keyPrefix: `${options.prefix}authfail:client-ip`,
      points: options.maxPerClientIp,
    });
    this.perIp = new RateLimiterRedis({
      ...common,
      keyPrefix: `${options.prefix}authfail:ip`,
      points: options.maxPerIp,
    });
  }

  /**
   * Counts one failed client authentication from `ip` (and for `existingClientId` from `ip`, when
   * the client exists) and answers the seconds the caller is told to wait: 0 while both counters
   * are within their caps. When Redis is unavailable: 0 (fail open), or with `failOpen: false`
   * `ClientAuthThrottleUnavailable`. One round trip per counter, sent together.
   */
  async recordFailure(
    ip: string,
    existingClientId: string | undefined,
    { failOpen = true }: { failOpen?: boolean } = {},
  ): Promise<number> {
    try {
      const [perIp, perClientIp] = await Promise.all([
        this.perIp.penalty(ip, 1),
        existingClientId ? this.perClientIp.penalty(`${existingClientId}|${ip}`, 1) : undefined,
      ]);
      const counts: FailureCount[] = [
        { consumed: perIp.consumedPoints, max: this.options.maxPerIp, msLeft: perIp.msBeforeNext },
      ];
      if (perClientIp) {
        counts.push({
          consumed: perClientIp.consumedPoints,
          max: this.options.maxPerClientIp,
          msLeft: perClientIp.msBeforeNext,
        });
      }
      const wait = retryAfterSeconds(counts);
      // Logged once per window and counter: when it first goes over its cap.
      if (perIp.consumedPoints === this.options.maxPerIp + 1) {
        this.logger.warn({ ip, retry_after: wait }, 'failed client authentications over the per-IP cap');
      }
      if (perClientIp?.consumedPoints === this.options.maxPerClientIp + 1) {
        this.logger.warn(
          { ip, client_id: existingClientId, retry_after: wait },
          'failed client authentications over the per-(client, IP) cap',
        );
      }
      return wait;
    } catch (err) {
      if (!failOpen) {
        this.logger.warn({ err: (err as Error).message }, 'client auth throttle unavailable (refused)');
        throw new ClientAuthThrottleUnavailable('client auth throttle unavailable', { cause: err });
      }
      this.logger.warn({ err: (err as Error).message }, 'client auth throttle unavailable (failing open)');
      return 0;
    }
  }
}
