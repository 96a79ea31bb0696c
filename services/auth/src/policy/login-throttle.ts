import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from '@secret-push/logger';

export interface LoginThrottleOptions {
  /** The window every failure counter counts in (seconds). */
  windowSeconds: number;
  /** Failed sign-ins per (account, IP) per window; then that IP may not try that account. */
  maxPerAccountIp: number;
  /** Failed sign-ins per IP per window, any accounts; then that IP may not try any. */
  maxPerIp: number;
  /** Failed sign-ins per account per window, all IPs together; then the account slows down. */
  maxPerAccount: number;
  /** Once an account is over `maxPerAccount`: at most one attempt per this many seconds. */
  slowSeconds: number;
  prefix: string;
}

/** Whether a sign-in attempt may go ahead; when not, when to come back. */
export type LoginAllowance =
  { allowed: true } | { allowed: false; retryAfterSeconds: number; reason: string };

/** Redis did not answer: sign-in is refused (503), never let through uncounted. */
export class LoginThrottleUnavailable extends Error {}

/**
 * The throttle's name for an account: the normalised email as typed, hashed, whether or not an
 * account has it. Unknown and known addresses are counted alike (the throttle does not tell which
 * exist), and no address is written into Redis.
 */
export function accountKey(normalisedEmail: string): string {
  return createHash('sha256').update(normalisedEmail).digest('base64url');
}

const secondsLeft = (res: RateLimiterRes): number => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

/**
 * Failed sign-ins counted in Redis, shared by every auth replica. Three counters, so that guessing
 * is slow and nobody can lock a person out just by knowing their email:
 *
 * - per (account, IP), the tight one (10 per 15 min by default): past it that IP may not try that
 *   account again until the window ends, even with the right password. A success resets it.
 * - per IP across accounts (100): one address spraying many accounts is stopped.
 * - per account across IPs (50), the one a stranger could fill from many addresses: past it the
 *   account is slowed, not locked: one attempt per `slowSeconds` (5 s) for everyone, so its owner
 *   gets in by trying again a few seconds later, and a distributed guesser gets 12 tries a minute.
 *
 * Attempts are checked before the password is (a refused attempt costs no scrypt and counts for
 * nothing); failures are counted after. Any Redis error throws `LoginThrottleUnavailable`: sign-in
 * then answers 503 rather than go unthrottled.
 */
export class LoginThrottle {
  private readonly perAccountIp: RateLimiterRedis;
  private readonly perIp: RateLimiterRedis;
  private readonly perAccount: RateLimiterRedis;
  private readonly slow: RateLimiterRedis;

  constructor(
    redis: Redis,
    private readonly options: LoginThrottleOptions,
    private readonly logger: Logger,
  ) {
    const counter = (name: string, points: number, duration = options.windowSeconds) =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${options.prefix}loginfail:${name}`,
        points,
        duration,
        rejectIfRedisNotReady: true,
      });
    this.perAccountIp = counter('account-ip', options.maxPerAccountIp);
    this.perIp = counter('ip', options.maxPerIp);
    this.perAccount = counter('account', options.maxPerAccount);
    this.slow = counter('slow', 1, options.slowSeconds);
  }

  private async guard<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      if (err instanceof RateLimiterRes) throw err;
      this.logger.warn({ err: (err as Error).message }, 'login throttle unavailable (sign-in refused)');
      throw new LoginThrottleUnavailable('login throttle unavailable', { cause: err });
    }
  }

  /** Whether an attempt for `account` (see `accountKey`) from `ip` may check its password now. */
  async check(account: string, ip: string): Promise<LoginAllowance> {
    const { maxPerAccountIp, maxPerIp, maxPerAccount } = this.options;
    const [accountIp, byIp, byAccount] = await this.guard(() =>
      Promise.all([
        this.perAccountIp.get(`${account}|${ip}`),
        this.perIp.get(ip),
        this.perAccount.get(account),
      ]),
    );
    if (accountIp && accountIp.consumedPoints >= maxPerAccountIp) {
      return { allowed: false, retryAfterSeconds: secondsLeft(accountIp), reason: 'account_ip' };
    }
    if (byIp && byIp.consumedPoints >= maxPerIp) {
      return { allowed: false, retryAfterSeconds: secondsLeft(byIp), reason: 'ip' };
    }
    if (byAccount && byAccount.consumedPoints >= maxPerAccount) {
      try {
        await this.guard(() => this.slow.consume(account));
      } catch (err) {
        if (err instanceof RateLimiterRes) {
          return { allowed: false, retryAfterSeconds: secondsLeft(err), reason: 'account_slowed' };
        }
        throw err;
      }
    }
    return { allowed: true };
  }

  /** Counts a failed attempt (wrong password, unknown email, disabled account) on all three counters. */
  async recordFailure(account: string, ip: string): Promise<void> {
    const [accountIp, byIp, byAccount] = await this.guard(() =>
      Promise.all([
        this.perAccountIp.penalty(`${account}|${ip}`, 1),
        this.perIp.penalty(ip, 1),
        this.perAccount.penalty(account, 1),
      ]),
    );
    // Logged once per window and counter: when it reaches its cap.
    if (accountIp.consumedPoints === this.options.maxPerAccountIp) {
      this.logger.warn(
        { ip, retry_after: secondsLeft(accountIp) },
        'failed sign-ins: an account is locked for one IP',
      );
    }
    if (byIp.consumedPoints === this.options.maxPerIp) {
      this.logger.warn({ ip, retry_after: secondsLeft(byIp) }, 'failed sign-ins: an IP is locked');
    }
    if (byAccount.consumedPoints === this.options.maxPerAccount) {
      this.logger.warn({ retry_after: secondsLeft(byAccount) }, 'failed sign-ins: an account is slowed down');
    }
  }

  /** A successful sign-in clears its (account, IP) counter; the wider counters keep counting. */
  async recordSuccess(account: string, ip: string): Promise<void> {
    await this.guard(() => this.perAccountIp.delete(`${account}|${ip}`));
  }
}
