import { setTimeout as sleep } from 'node:timers/promises';
import { UserNotFound } from '../domain/errors';
import type { UserTokenService } from '../domain/user-tokens';
import { IssuerUnavailable, type RelyingParty, SignInRefused } from './relying-party';
import type { SessionData, SessionStore } from './session-store';

export interface SessionRecheckDeps {
  store: Pick<SessionStore, 'get' | 'update' | 'lockRefresh' | 'unlockRefresh' | 'markRefused'>;
  relyingParty: Pick<RelyingParty, 'recheck'>;
  users: Pick<UserTokenService, 'findUser'>;
  /** How often a session is re-checked. */
  recheckSeconds: number;
  /**
   * How long one re-check may hold the session's refresh lock: longer than the provider may take
   * to answer (its discovery and its refresh, each under the relying party's deadline).
   */
  lockMs: number;
  /** How often a request waiting for another's re-check reads the session again. */
  pollMs?: number;
  now?: () => number;
}

/**
 * Re-checks a session older than the interval: the user must still be enabled here, and the
 * issuer must still accept the refresh token (it refuses for a user disabled or gone there).
 * Returns the session to use, or undefined when it must end. An issuer or store that does not
 * answer throws: the page is unavailable, not signed out.
 *
 * Single-flight across requests and replicas: the refresh token rotates at each refresh and the
 * provider revokes the whole grant when an old one comes back, so only the request holding the
 * session's refresh lock (Redis, outliving the provider's deadline) refreshes; it reads the session
 * again under the lock (another may just have refreshed it) and writes the new token. The others
 * wait, reading the session until its check time moves on (they use its new tokens), it ends
 * (the provider refused), or the lock is free again (the holder failed: they try themselves).
 */
export function createSessionRecheck(deps: SessionRecheckDeps) {
  const { store, relyingParty, users, lockMs } = deps;
  const now = deps.now ?? Date.now;
  const pollMs = deps.pollMs ?? 50;
  const fresh = (s: SessionData) => now() - s.checkedAt < deps.recheckSeconds * 1000;

  /** Only a user that is gone or disabled here ends the session; a database error throws. */
  async function enabledHere(userId: string): Promise<boolean> {
    const user = await users.findUser(userId).catch((err: unknown) => {
      if (err instanceof UserNotFound) return undefined;
      throw err;
    });
    return user !== undefined && user.disabledAt === null;
  }

  /** The refresh itself, under the lock, from the session as stored now. */
  async function refresh(sessionId: string, session: SessionData): Promise<SessionData | undefined> {
    if (!session.refreshToken) return undefined; // nothing to re-check with: sign in again
    try {
      const refreshToken = await relyingParty.recheck(session.refreshToken);
      const updated = { ...session, refreshToken, checkedAt: now() };
      await store.update(sessionId, updated);
      return updated;
    } catch (err) {
      if (!(err instanceof SignInRefused)) throw err;
      await store.markRefused(session.userId);
      return undefined;
    }
  }

  return async function recheck(sessionId: string, session: SessionData): Promise<SessionData | undefined> {
    if (fresh(session)) return session;
    if (!(await enabledHere(session.userId))) return undefined;
    if (!session.refreshToken) return undefined;
    const giveUpAt = Date.now() + lockMs + pollMs;
    for (;;) {
      const lock = await store.lockRefresh(sessionId, lockMs);
      if (lock !== undefined) {
        try {
          const current = await store.get(sessionId);
          if (!current) return undefined;
          return fresh(current) ? current : await refresh(sessionId, current);
        } finally {
          await store.unlockRefresh(sessionId, lock).catch(() => undefined);
        }
      }
      // Another request (here or on another replica) is re-checking: wait for its outcome.
      await sleep(pollMs);
      const current = await store.get(sessionId);
      if (!current) return undefined;
      if (fresh(current)) return current;
      if (Date.now() > giveUpAt) throw new IssuerUnavailable('The session re-check did not finish in time');
    }
  };
}

export type SessionRecheck = ReturnType<typeof createSessionRecheck>;
