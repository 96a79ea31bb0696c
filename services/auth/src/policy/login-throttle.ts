import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '@secret-push/logger';
import { type TakeKeys, type Taken, giveBack, takeAttempt } from './attempt-scripts';

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
  /** Password checks of one account running at once, all replicas together; more wait (429). */
  maxInFlightPerAccount: number;
  prefix: string;
}

/** Why an attempt was refused: the counter that was full. */
export type RefusalReason = 'account_ip' | 'ip' | 'account_slowed' | 'in_flight' | 'second_factor';

/** Whether a sign-in attempt may go ahead; when not, when to come back. */
export type LoginAllowance =
  { allowed: true } | { allowed: false; retryAfterSeconds: number; reason: RefusalReason };

/** An attempt refused (nothing checked, nothing counted), or what its check gave. */
export type Attempted<T> =
  | Extract<LoginAllowance, { allowed: false }>
  | { allowed: true; result: T; failed: boolean; codesUsed: number };

/** What an attempt is counted against. */
export interface AttemptScope {
  /** The account's throttle name (`accountKey`). */
  account: string;
  ip: string;
  /** The attempt checks a password (scrypt): it also counts in flight for the account. */
  password?: boolean;
  /** A code of one pending sign-in: at most `max` per `key` (the second factor's own counter). */
  codes?: { key: string; max: number; ttlSeconds: number };
}

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

/** How long a password check may hold its in-flight slot if its process dies mid-check. */
const IN_FLIGHT_TTL_MS = 30_000;

const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

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
 * Atomic: every attempt is taken from the three counters (one Redis script, attempt-scripts.ts)
 * before its secret is checked, and given back when the secret was right. So attempts sent at the
 * same time cannot outrun the counters: a burst of N checks at most what the counters had left,
 * the rest are refused (429) without a check and count for nothing. Password checks (scrypt) are
 * also capped in flight per account (`maxInFlightPerAccount`), so a burst does not queue scrypt
 * for everyone. A second-factor code may add the pending sign-in's own counter (`codes`).
 *
 * Any Redis error throws `LoginThrottleUnavailable`: sign-in then answers 503 rather than go
 * unthrottled.
 */
export class LoginThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly options: LoginThrottleOptions,
    private readonly logger: Logger,
  ) {}

  private async guard<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'login throttle unavailable (sign-in refused)');
      throw new LoginThrottleUnavailable('login throttle unavailable', { cause: err });
    }
  }

  private keys(scope: AttemptScope): TakeKeys {
    const p = `${this.options.prefix}loginfail:`;
    return {
      accountIp: `${p}account-ip:${scope.account}|${scope.ip}`,
      ip: `${p}ip:${scope.ip}`,
      account: `${p}account:${scope.account}`,
      slow: `${p}slow:${scope.account}`,
      inFlight: `${p}in-flight:${scope.account}`,
      ...(scope.codes && { codes: `${p}codes:${scope.codes.key}` }),
    };
  }

  private take(scope: AttemptScope, keys: TakeKeys): Promise<Taken> {
    const o = this.options;
    if (this.redis.status !== 'ready') {
      return this.guard(() => Promise.reject(new Error(`redis is ${this.redis.status}`)));
    }
    return this.guard(() =>
      takeAttempt(this.redis, keys, {
        maxPerAccountIp: o.maxPerAccountIp,
        maxPerIp: o.maxPerIp,
        maxPerAccount: o.maxPerAccount,
        windowMs: o.windowSeconds * 1000,
        slowMs: o.slowSeconds * 1000,
        maxInFlight: scope.password ? o.maxInFlightPerAccount : 0,
        inFlightTtlMs: IN_FLIGHT_TTL_MS,
        maxCodes: scope.codes?.max ?? 0,
        codesTtlMs: (scope.codes?.ttlSeconds ?? 0) * 1000,
      }),
    );
  }

  /**
   * One attempt: taken from every counter, then `check` (the password or code), then given back
   * unless `failed(result)` (a right secret is no failure; nor is an error of the check itself, which
   * is rethrown). Refused → nothing checked.
   */
  async attempt<T>(
    scope: AttemptScope,
    check: () => Promise<T>,
    failed: (result: T) => boolean,
  ): Promise<Attempted<T>> {
    const keys = this.keys(scope);
    const taken = await this.take(scope, keys);
    if (!taken.taken) {
      const reason = taken.reason as RefusalReason;
      return { allowed: false, reason, retryAfterSeconds: seconds(taken.waitMs) };
    }
    const counted = [keys.accountIp, keys.ip, keys.account, ...(keys.codes ? [keys.codes] : [])];
    const inFlight = scope.password ? [keys.inFlight] : [];
    let result: T;
    try {
      result = await check();
    } catch (err) {
      await this.guard(() => giveBack(this.redis, [...counted, ...inFlight])).catch(() => undefined);
      throw err;
    }
    const isFailure = failed(result);
    await this.guard(() => giveBack(this.redis, isFailure ? inFlight : [...counted, ...inFlight]));
    if (isFailure) this.warnAtCaps(scope.ip, taken);
    return { allowed: true, result, failed: isFailure, codesUsed: taken.codes };
  }

  /** Logged once per window and counter: when a failure fills it. */
  private warnAtCaps(ip: string, taken: Extract<Taken, { taken: true }>): void {
    const wait = seconds(this.options.windowSeconds * 1000);
    if (taken.accountIp === this.options.maxPerAccountIp) {
      this.logger.warn({ ip, retry_after: wait }, 'failed sign-ins: an account is locked for one IP');
    }
    if (taken.ip === this.options.maxPerIp) {
      this.logger.warn({ ip, retry_after: wait }, 'failed sign-ins: an IP is locked');
    }
    if (taken.account === this.options.maxPerAccount) {
      this.logger.warn({ retry_after: wait }, 'failed sign-ins: an account is slowed down');
    }
  }

  /** A successful sign-in clears its (account, IP) counter; the wider counters keep counting. */
  async recordSuccess(account: string, ip: string): Promise<void> {
    const key = this.keys({ account, ip }).accountIp;
    await this.guard(() => this.redis.del(key));
  }
}
