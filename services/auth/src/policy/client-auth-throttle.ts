import type { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { Logger } from '@secret-push/logger';

export interface ThrottleOptions {
  windowSeconds: number;
  maxPerClientIp: number;
  maxPerIp: number;
  prefix: string;
}

/**
 * Failed client authentications counted in Redis, so the limits hold across replicas:
 * per (client id, IP), so nobody can lock a client out just by knowing its id, and a higher cap
 * per IP. The check runs before the secret is compared; failures are recorded from the
 * provider's error events. If Redis is down the throttle fails open (logged): secrets are
 * 256-bit random values, so availability of token issuance wins over a brute-force brake.
 */
export class ClientAuthThrottle {
  private readonly perClientIp: RateLimiterRedis;
  private readonly perIp: RateLimiterRedis;

  constructor(
    private readonly redis: Redis,
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
   * Both checks in one round trip (MGET) when the client id is already known (HTTP Basic):
   * seconds until `ip`, and until (`clientId`, `ip`), may try again; 0 when they may now.
   */
  async blockedForBoth(ip: string, clientId: string): Promise<{ ip: number; client: number }> {
    const keys = [this.perIp.getKey(ip), this.perClientIp.getKey(`${clientId}|${ip}`)] as const;
    const max = [this.options.maxPerIp, this.options.maxPerClientIp] as const;
    try {
      const counts = await this.redis.mget(keys[0], keys[1]);
      const wait = await Promise.all(
        counts.map(async (c, i) => {
          if (c === null || Number(c) < max[i]!) return 0;
          return Math.max(1, Math.ceil((await this.redis.pttl(keys[i]!)) / 1000));
        }),
      );
      return { ip: wait[0]!, client: wait[1]! };
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'client auth throttle unavailable (failing open)');
      return { ip: 0, client: 0 };
    }
  }

  /** Seconds until `ip` may try again, 0 when it may now. */
  ipBlockedFor(ip: string): Promise<number> {
    return this.blockedFor(this.perIp, ip, this.options.maxPerIp);
  }

  clientBlockedFor(clientId: string, ip: string): Promise<number> {
    return this.blockedFor(this.perClientIp, `${clientId}|${ip}`, this.options.maxPerClientIp);
  }

  async recordFailure(ip: string, existingClientId: string | undefined): Promise<void> {
    try {
      await Promise.all([
        this.perIp.penalty(ip, 1),
        existingClientId ? this.perClientIp.penalty(`${existingClientId}|${ip}`, 1) : undefined,
      ]);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'client auth throttle unavailable (failing open)');
    }
  }

  /**
   * Reads the limiter's counter with one GET (limiter.get() sends MULTI/GET/PTTL/EXEC on every
   * request); the PTTL for Retry-After is only asked for when the caller is over its cap.
   */
  private async blockedFor(limiter: RateLimiterRedis, key: string, max: number): Promise<number> {
    try {
      const rlKey = limiter.getKey(key);
      const consumed = await this.redis.get(rlKey);
      if (consumed === null || Number(consumed) < max) return 0;
      const ms = await this.redis.pttl(rlKey);
      return Math.max(1, Math.ceil(ms / 1000));
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'client auth throttle unavailable (failing open)');
      return 0;
    }
  }
}

/**
 * What the request's first middleware already read for the client named in its Basic header; the
 * secret comparison uses it instead of reading the counter again.
 */
export interface PrefetchedClientThrottle {
  clientId: string;
  wait: number;
}

/**
 * The client id of an HTTP Basic header, decoded as oidc-provider decodes it (RFC 6749 §2.3.1);
 * undefined when there is none. Only used to prefetch a throttle counter: the provider still
 * parses and authenticates the header itself, and a mismatch only means one more lookup.
 */
export function basicClientId(authorization: string | undefined): string | undefined {
  if (!authorization || authorization.slice(0, 6).toLowerCase() !== 'basic ') return undefined;
  const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i <= 0) return undefined;
  try {
    return decodeURIComponent(decoded.slice(0, i).replace(/\+/g, '%20'));
  } catch {
    return undefined;
  }
}
