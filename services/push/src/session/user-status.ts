import { LRUCache } from 'lru-cache';
import type { IssuerAccounts } from './issuer-accounts';

/** Who to check: a push user and the provider identity it signed in with. */
export interface CheckedUser {
  userId: string;
  issuer: string;
  subject: string;
}

export interface UserStatusOptions {
  accounts: IssuerAccounts;
  /** The configured issuer (PUSH_OIDC_ISSUER): only its users can be asked about. */
  issuer: string;
  /** How long an answer is reused (at most 60 s: a user disabled there loses access within it). */
  intervalSeconds: number;
  /** Upper bound on remembered answers; the least recently used go first. Default 10000. */
  cacheSize?: number;
  /**
   * Users whose refresh the provider refused at a session's re-check (session/session-recheck.ts),
   * until they sign in again: what a provider without an accounts endpoint lets us tell.
   */
  refusals?: { isRefused(userId: string): Promise<boolean> };
}

/** A trailing slash is not a different issuer. */
const sameIssuer = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * Whether a user's account is still active at the sign-in provider, asked at most once per
 * `intervalSeconds` per user per process (concurrent questions about one user share one request).
 * Personal API tokens are checked in this service's database, never at the provider; this is what
 * makes a user disabled or deleted at the provider lose its tokens within the interval, as its web
 * sessions do at their re-check. "Active" without asking: a user of another issuer (the instance
 * changed provider since). A provider without an accounts endpoint (any provider but ours) cannot
 * be asked: there the user is inactive once the provider refused its refresh at a web session's
 * re-check (`refusals`: a deleted or disabled account, or a grant ended there) until it signs in
 * again, and active otherwise. A provider that does not answer throws IssuerUnavailable: the request answers 503, since the
 * answer it needs is older than the interval.
 */
export function createUserStatus(options: UserStatusOptions) {
  const { accounts } = options;
  const answers = new LRUCache<string, { active: boolean }>({
    max: options.cacheSize ?? 10_000,
    ttl: Math.min(options.intervalSeconds, 60) * 1000,
  });
  const inFlight = new Map<string, Promise<boolean>>();

  async function ask(user: CheckedUser): Promise<boolean> {
    const active = (await accounts.supported())
      ? (await accounts.status(user.subject)) === 'active'
      : !(await options.refusals?.isRefused(user.userId));
    answers.set(user.userId, { active });
    return active;
  }

  return {
    isActive(user: CheckedUser): Promise<boolean> {
      if (!sameIssuer(user.issuer, options.issuer)) return Promise.resolve(true);
      const known = answers.get(user.userId);
      if (known) return Promise.resolve(known.active);
      let pending = inFlight.get(user.userId);
      if (!pending) {
        pending = ask(user).finally(() => inFlight.delete(user.userId));
        inFlight.set(user.userId, pending);
      }
      return pending;
    },

    /** Forgets the answer about a user (e.g. after deleting its account). */
    forget(userId: string): void {
      answers.delete(userId);
    },
  };
}

export type UserStatus = ReturnType<typeof createUserStatus>;
