/* eslint-disable @typescript-eslint/require-await -- an in-memory port answers at once; `async` keeps a throw a rejection, as with the real stores. */
import { randomUUID } from 'node:crypto';
import { UserInputRejected } from '../../domain/errors';
import type { UserStore } from '../../domain/ports/user-store';
import type { PersonalToken, User } from '../../domain/user';
import type { TestClock } from './in-memory-clock';

/*
 * The UserStore port in memory, for the domain's unit tests, with the rules of
 * storage/user.repository.ts and its table: a user per (issuer, subject); a token only for a user
 * that exists and is not disabled; token names unique per user (`personal_token_name_key`); an
 * expiry after now (`personal_token_expiry`); a token of another user is never found; deleting a
 * user deletes its tokens; `lastUsedAt` written at most once per resolution period.
 */

interface TokenRow extends PersonalToken {
  tokenHash: string;
}

/** The store, and what a test may look at besides the port. */
export interface InMemoryUserStore extends UserStore {
  /** The stored token hashes (hex) of a user: never the values. */
  tokenHashesOf(userId: string): string[];
}

const hex = (b: Buffer) => b.toString('hex');

export function createInMemoryUserStore(clock: TestClock): InMemoryUserStore {
  const users = new Map<string, User>();
  const tokens = new Map<string, TokenRow>();
  const copy = (u: User): User => ({ ...u });
  const publicToken = ({ tokenHash: _hash, ...t }: TokenRow): PersonalToken => ({
    ...t,
    scopes: [...t.scopes],
  });
  const tokensOf = (userId: string) => [...tokens.values()].filter((t) => t.userId === userId);
  // Creation order breaks ties of equal timestamps (the clock stands still within a test).
  let sequence = 0;
  const order = new Map<string, number>();

  return {
    async upsertUser(identity) {
      const found = [...users.values()].find(
        (u) => u.issuer === identity.issuer && u.subject === identity.subject,
      );
      const now = clock.now();
      if (found) {
        found.email = identity.email;
        found.emailVerified = identity.emailVerified;
        found.lastSeenAt = now;
        return copy(found);
      }
      const user: User = {
        id: randomUUID(),
        ...identity,
        disabledAt: null,
        createdAt: now,
        lastSeenAt: now,
        noticeDefaults: [],
      };
      users.set(user.id, user);
      order.set(user.id, sequence++);
      return copy(user);
    },

    findUser: async (userId) => {
      const u = users.get(userId);
      return u && copy(u);
    },

    findUsersByEmail: async (email) =>
      [...users.values()]
        .filter((u) => u.email !== null && u.email.toLowerCase() === email.toLowerCase())
        .sort((a, b) => order.get(a.id)! - order.get(b.id)!)
        .map(copy),

    listUsers: async () =>
      [...users.values()]
        .sort((a, b) => order.get(a.id)! - order.get(b.id)!)
        .map((u) => ({ ...copy(u), tokenCount: tokensOf(u.id).length })),

    async disableUser(userId) {
      const user = users.get(userId);
      if (!user) return undefined;
      user.disabledAt ??= clock.now();
      const revoked = tokensOf(userId);
      for (const t of revoked) tokens.delete(t.id);
      return { user: copy(user), tokensRevoked: revoked.length };
    },

    async enableUser(userId) {
      const user = users.get(userId);
      if (!user) return undefined;
      user.disabledAt = null;
      return copy(user);
    },

    async deleteUser(userId) {
      if (!users.delete(userId)) return false;
      for (const t of tokensOf(userId)) tokens.delete(t.id);
      return true;
    },

    async insertToken(userId, settings, tokenHash) {
      const user = users.get(userId);
      if (!user || user.disabledAt !== null) return undefined;
      if (tokensOf(userId).some((t) => t.name === settings.name)) {
        throw new UserInputRejected({ name: ['is already the name of another of your tokens'] });
      }
      const now = clock.now();
      if (settings.expiresAt !== null && settings.expiresAt.getTime() <= now.getTime()) {
        throw new UserInputRejected({ expires_at: ['must lie in the future'] });
      }
      const token: TokenRow = {
        id: randomUUID(),
        userId,
        name: settings.name,
        scopes: [...settings.scopes],
        expiresAt: settings.expiresAt,
        lastUsedAt: null,
        createdAt: now,
        regeneratedAt: null,
        tokenHash: hex(tokenHash),
      };
      tokens.set(token.id, token);
      order.set(token.id, sequence++);
      return publicToken(token);
    },

    listTokens: async (userId) =>
      tokensOf(userId)
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || order.get(b.id)! - order.get(a.id)!)
        .map(publicToken),

    async replaceTokenHash(userId, tokenId, tokenHash) {
      const token = tokens.get(tokenId);
      if (!token || token.userId !== userId) return undefined;
      token.tokenHash = hex(tokenHash);
      token.regeneratedAt = clock.now();
      return publicToken(token);
    },

    async deleteToken(userId, tokenId) {
      const token = tokens.get(tokenId);
      if (!token || token.userId !== userId) return false;
      return tokens.delete(tokenId);
    },

    async findByTokenHash(tokenHash) {
      const token = [...tokens.values()].find((t) => t.tokenHash === hex(tokenHash));
      const user = token && users.get(token.userId);
      if (!token || !user) return undefined;
      return { token: publicToken(token), user: copy(user), now: clock.now() };
    },

    async touchToken(tokenId, resolutionSeconds) {
      const token = tokens.get(tokenId);
      const now = clock.now();
      if (!token) return;
      const last = token.lastUsedAt;
      if (last === null || last.getTime() <= now.getTime() - resolutionSeconds * 1000) token.lastUsedAt = now;
    },

    tokenHashesOf: (userId) => tokensOf(userId).map((t) => t.tokenHash),
  };
}
