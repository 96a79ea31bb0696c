import type { Redis } from 'ioredis';
import type { Logger } from '@secret-push/logger';
import { takeFromAll } from './attempt-scripts';

export interface ResetThrottleOptions {
  /** Reset requests per email address (as typed, normalised: known or not) per window. */
  maxPerEmail: number;
  /** Reset requests per IP per window, any addresses. */
  maxPerIp: number;
  windowSeconds: number;
  prefix: string;
}

/** Whether a reset request may go ahead; when not, when to come back. */
export type ResetAllowance = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Redis did not answer: the request is refused (503), never let through uncounted. */
export class ResetThrottleUnavailable extends Error {}

/**
 * "Forgot password?" requests counted in Redis, shared by every replica: per address (so that
 * nobody floods a person's mailbox) and per IP (so that nobody sprays addresses), each request
 * taken from both counters at once before anything is looked up (attempt-scripts.ts `takeFromAll`:
 * a burst cannot outrun them). The address is counted by its throttle key (a hash, the login
 * throttle's `accountKey`), whether or not it has an account, so the counters tell nothing either.
 */
export class ResetThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly options: ResetThrottleOptions,
    private readonly logger: Logger,
  ) {}

  /** Takes one request of `emailKey` from `ip`, or refuses it (nothing counted). */
  async admit(emailKey: string, ip: string): Promise<ResetAllowance> {
    const o = this.options;
    const p = `${o.prefix}reset:`;
    try {
      if (this.redis.status !== 'ready') throw new Error(`redis is ${this.redis.status}`);
      const taken = await takeFromAll(
        this.redis,
        [
          [`${p}email:${emailKey}`, o.maxPerEmail],
          [`${p}ip:${ip}`, o.maxPerIp],
        ],
        o.windowSeconds * 1000,
      );
      if (taken.taken) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(taken.waitMs / 1000)) };
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'password reset throttle unavailable (refused)');
      throw new ResetThrottleUnavailable('password reset throttle unavailable', { cause: err });
    }
  }
}
