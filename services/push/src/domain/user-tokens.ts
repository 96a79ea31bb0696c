import {
  generatePersonalToken,
  hashPersonalToken,
  isWellFormedPersonalToken,
} from '../security/personal-token';
import { PersonalTokenNotFound, UserDisabled, UserInputRejected, UserNotFound } from './errors';
import type { UserStore } from './ports/user-store';
import {
  LAST_USED_RESOLUTION_SECONDS,
  type PersonalToken,
  type TokenSettings,
  type User,
  type UserIdentity,
  type UserSummary,
  checkIdentity,
  checkTokenSettings,
  isId,
  isTokenUsable,
} from './user';

export interface UserTokenServiceDeps {
  store: UserStore;
}

/** A token just created or regenerated, with its value: the only time the value is ever given out. */
export interface IssuedToken {
  token: PersonalToken;
  value: string;
}

/** Whose a presented token is: its user and the token, at the database's `now`. */
export interface VerifiedToken {
  user: User;
  token: PersonalToken;
  now: Date;
}

/**
 * Users and their personal API tokens: what sign-in (upsertUser), the `/users/token` page (create,
 * list, regenerate, revoke), the operator CLI (list, disable, enable) and API authentication
 * (verify, recordUse) do with them. A user acts only on its own tokens: every token operation
 * takes the user id, and another user's token id is not found. Token values are generated here,
 * returned once and stored only as SHA-256 (security/personal-token.ts).
 */
export function createUserTokenService(deps: UserTokenServiceDeps) {
  const { store } = deps;

  async function activeUser(userId: string): Promise<User> {
    const user = isId(userId) ? await store.findUser(userId) : undefined;
    if (!user) throw new UserNotFound();
    if (user.disabledAt !== null) throw new UserDisabled();
    return user;
  }

  return {
    /**
     * At each sign-in: the user with this (issuer, subject), created on first sign-in, its email
     * and verification updated and `lastSeenAt` set. A disabled user stays disabled (the caller
     * refuses the sign-in when `disabledAt` is set).
     */
    async upsertUser(identity: UserIdentity): Promise<User> {
      const checked = checkIdentity(identity);
      if (!checked.ok) throw new UserInputRejected(checked.fields);
      return store.upsertUser(checked.identity);
    },

    async findUser(userId: string): Promise<User> {
      const user = isId(userId) ? await store.findUser(userId) : undefined;
      if (!user) throw new UserNotFound();
      return user;
    },

    /** Every user sharing this email, of any issuer (for operators: an email is not an identity). */
    findUsersByEmail: (email: string): Promise<User[]> => store.findUsersByEmail(email.trim()),

    listUsers: (): Promise<UserSummary[]> => store.listUsers(),

    /** A new token for an active user; its value is in the answer and nowhere else. */
    async createToken(userId: string, settings: TokenSettings): Promise<IssuedToken> {
      const checked = checkTokenSettings(settings);
      if (!checked.ok) throw new UserInputRejected(checked.fields);
      if (!isId(userId)) throw new UserNotFound();
      const value = generatePersonalToken();
      const token = await store.insertToken(userId, checked.settings, hashPersonalToken(value));
      if (!token) {
        await activeUser(userId); // throws why: no such user, or disabled
        throw new UserDisabled(); // it was disabled, then enabled again, while we looked
      }
      return { token, value };
    },

    /** The user's tokens, newest first; never their values. */
    listTokens: (userId: string): Promise<PersonalToken[]> =>
      isId(userId) ? store.listTokens(userId) : Promise.resolve([]),

    /**
     * A new value for the same token (same id, name, scopes and expiry): the old value is refused
     * from now on (within the API's cache time on other replicas).
     */
    async regenerateToken(userId: string, tokenId: string): Promise<IssuedToken> {
      await activeUser(userId);
      const value = generatePersonalToken();
      const token = isId(tokenId)
        ? await store.replaceTokenHash(userId, tokenId, hashPersonalToken(value))
        : undefined;
      if (!token) throw new PersonalTokenNotFound();
      return { token, value };
    },

    /** Deletes the token: it stops working (within the API's cache time). */
    async revokeToken(userId: string, tokenId: string): Promise<void> {
      const deleted = isId(userId) && isId(tokenId) && (await store.deleteToken(userId, tokenId));
      if (!deleted) throw new PersonalTokenNotFound();
    },

    /** Disables the user and revokes all of its tokens at once. */
    async disableUser(userId: string): Promise<{ user: User; tokensRevoked: number }> {
      const done = isId(userId) ? await store.disableUser(userId) : undefined;
      if (!done) throw new UserNotFound();
      return done;
    },

    /** Deletes the user and its tokens (what was theirs is expired first: domain/account-deletion.ts). */
    async deleteUser(userId: string): Promise<void> {
      if (!isId(userId) || !(await store.deleteUser(userId))) throw new UserNotFound();
    },

    /** Lets a disabled user sign in again; its revoked tokens stay revoked. */
    async enableUser(userId: string): Promise<User> {
      const user = isId(userId) ? await store.enableUser(userId) : undefined;
      if (!user) throw new UserNotFound();
      return user;
    },

    /**
     * Whose token `value` is, or `null` when it is unknown, expired, or its user is disabled. One
     * statement; a malformed value is refused without any.
     */
    async verify(value: string): Promise<VerifiedToken | null> {
      if (!isWellFormedPersonalToken(value)) return null;
      const found = await store.findByTokenHash(hashPersonalToken(value));
      if (!found || !isTokenUsable(found.user, found.token, found.now)) return null;
      return found;
    },

    /** Records that the token was used now, unless that was already recorded within the last minute. */
    recordUse: (tokenId: string): Promise<void> => store.touchToken(tokenId, LAST_USED_RESOLUTION_SECONDS),
  };
}

export type UserTokenService = ReturnType<typeof createUserTokenService>;
