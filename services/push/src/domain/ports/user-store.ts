import type { CheckedTokenSettings, PersonalToken, User, UserIdentity, UserSummary } from '../user';

/** A token found by its hash, with its user and the database's clock at the time of the read. */
export interface TokenLookup {
  user: User;
  token: PersonalToken;
  now: Date;
}

/**
 * Users and their personal tokens (storage/user.repository.ts). Token statements take the user id
 * with the token id: a token of another user is never found, changed or deleted.
 */
export interface UserStore {
  /** Inserts the user, or updates the email, its verification and `lastSeenAt` of the one with that (issuer, subject). */
  upsertUser(identity: UserIdentity): Promise<User>;
  findUser(userId: string): Promise<User | undefined>;
  /** Users whose email is `email`, whatever its case (several issuers may share one address). */
  findUsersByEmail(email: string): Promise<User[]>;
  listUsers(): Promise<UserSummary[]>;
  /**
   * Disables the user and deletes all of its tokens in one transaction; an already disabled user
   * keeps its first `disabledAt`. Undefined for an unknown user.
   */
  disableUser(userId: string): Promise<{ user: User; tokensRevoked: number } | undefined>;
  enableUser(userId: string): Promise<User | undefined>;
  /** Deletes the user and (cascading) its tokens; false for an unknown user. */
  deleteUser(userId: string): Promise<boolean>;
  /**
   * Inserts a token for a user that exists and is not disabled (checked under a lock that a
   * concurrent disable waits for); `undefined` otherwise. A name the user already uses, or an
   * expiry not after the database's now, throws UserInputRejected.
   */
  insertToken(
    userId: string,
    settings: CheckedTokenSettings,
    tokenHash: Buffer,
  ): Promise<PersonalToken | undefined>;
  listTokens(userId: string): Promise<PersonalToken[]>;
  /** Replaces the token's hash (the old value stops working); undefined if the user has no such token. */
  replaceTokenHash(userId: string, tokenId: string, tokenHash: Buffer): Promise<PersonalToken | undefined>;
  /** False if the user has no such token. */
  deleteToken(userId: string, tokenId: string): Promise<boolean>;
  findByTokenHash(tokenHash: Buffer): Promise<TokenLookup | undefined>;
  /** Sets `lastUsedAt` to now unless it was set within the last resolution period (any replica). */
  touchToken(tokenId: string, resolutionSeconds: number): Promise<void>;
}
