import type { NoticeKind } from './email-rules';

/*
 * People and their personal API tokens (how API clients use them: docs/api.md, Authentication),
 * as the domain sees them. A person is identified by the OpenID issuer and its `sub`, never by
 * email. A personal token belongs to one user, carries scopes and an optional expiry; only its
 * SHA-256 is stored. This module states the rules and reads no clock: `now` is always the
 * database's, passed in.
 */

export const TOKEN_SCOPES = ['pushes:read', 'pushes:write'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** A token's name: 1 to 100 characters once trimmed, unique among its user's tokens. */
export const TOKEN_NAME_MAX_LENGTH = 100;

/**
 * `last_used_at` is a hint for people ("used 3 days ago"), not an audit: it is written at most
 * once per this many seconds per token, not on every request.
 */
export const LAST_USED_RESOLUTION_SECONDS = 60;

/** Who signed in, as the OpenID provider said it. */
export interface UserIdentity {
  issuer: string;
  /** The provider's `sub`. */
  subject: string;
  email: string | null;
  /** The provider vouched for the email (`email_verified`); false without an email. */
  emailVerified: boolean;
}

export interface User extends UserIdentity {
  id: string;
  disabledAt: Date | null;
  createdAt: Date;
  lastSeenAt: Date;
  /** The owner notices applied to this person's creates that do not say (`notify_owner_on`). */
  noticeDefaults: NoticeKind[];
}

/** A user in the operators' list, with how many tokens it holds. */
export interface UserSummary extends User {
  tokenCount: number;
}

/** A personal token as its owner sees it: never its value, which is shown once. */
export interface PersonalToken {
  id: string;
  userId: string;
  name: string;
  scopes: TokenScope[];
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
  regeneratedAt: Date | null;
}

/** What a user asks for when creating a token. */
export interface TokenSettings {
  name: string;
  scopes: readonly string[];
  /** No expiry when absent or null; must lie after the creation (the database's clock). */
  expiresAt?: Date | null;
}

/** Settings that passed {@link checkTokenSettings}: trimmed name, scopes deduplicated in canonical order. */
export interface CheckedTokenSettings {
  name: string;
  scopes: TokenScope[];
  expiresAt: Date | null;
}

/** The owner recorded on what a user creates, and the principal id of its requests. */
export const userPrincipalId = (userId: string): string => `user:${userId}`;

// C0 and C1 control characters (tabs and newlines included) and DEL: a name is one printable line.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The settings as stored, or the problems by field (`name`, `scopes`, `expires_at`). */
export function checkTokenSettings(
  settings: TokenSettings,
): { ok: true; settings: CheckedTokenSettings } | { ok: false; fields: Record<string, string[]> } {
  const fields: Record<string, string[]> = {};
  const name = settings.name.trim();
  const length = [...name].length;
  if (length === 0 || length > TOKEN_NAME_MAX_LENGTH) {
    fields.name = [`must be 1 to ${TOKEN_NAME_MAX_LENGTH} characters`];
  } else if (CONTROL.test(name)) {
    fields.name = ['must not contain control characters'];
  }
  const unknown = settings.scopes.filter((s) => !(TOKEN_SCOPES as readonly string[]).includes(s));
  const scopes = TOKEN_SCOPES.filter((s) => settings.scopes.includes(s));
  if (unknown.length > 0) {
    fields.scopes = [`unknown scope ${unknown.join(', ')}; allowed: ${TOKEN_SCOPES.join(', ')}`];
  } else if (scopes.length === 0) {
    fields.scopes = [`at least one of ${TOKEN_SCOPES.join(', ')}`];
  }
  const expiresAt = settings.expiresAt ?? null;
  if (expiresAt !== null && Number.isNaN(expiresAt.getTime())) fields.expires_at = ['must be a valid date'];
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return { ok: true, settings: { name, scopes, expiresAt } };
}

/** The identity as stored, or the problems by field: the provider's claims are checked, not trusted blindly. */
export function checkIdentity(
  identity: UserIdentity,
): { ok: true; identity: UserIdentity } | { ok: false; fields: Record<string, string[]> } {
  const fields: Record<string, string[]> = {};
  if (identity.issuer === '' || identity.issuer.length > 2048) {
    fields.issuer = ['must be 1 to 2048 characters'];
  }
  // OpenID Connect Core §2: `sub` is at most 255 ASCII characters.
  if (identity.subject === '' || identity.subject.length > 255) {
    fields.subject = ['must be 1 to 255 characters'];
  }
  const email = identity.email?.trim() || null;
  if (email !== null && (email.length > 254 || !email.includes('@'))) {
    fields.email = ['must be an email address'];
  }
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return {
    ok: true,
    identity: {
      issuer: identity.issuer,
      subject: identity.subject,
      email,
      emailVerified: email !== null && identity.emailVerified,
    },
  };
}

/**
 * A token authenticates while its user is not disabled and it has not expired: the expiry is a
 * half-open bound, so at `now === expiresAt` the token is refused.
 */
export function isTokenUsable(user: User, token: PersonalToken, now: Date): boolean {
  if (user.disabledAt !== null) return false;
  return token.expiresAt === null || now.getTime() < token.expiresAt.getTime();
}

/** Whether `lastUsedAt` is due for a write at `now` (see {@link LAST_USED_RESOLUTION_SECONDS}). */
export function isLastUseStale(lastUsedAt: Date | null, now: Date): boolean {
  return lastUsedAt === null || now.getTime() - lastUsedAt.getTime() >= LAST_USED_RESOLUTION_SECONDS * 1000;
}

/**
 * The legacy `X-User-Email` check: the address must be the user's (compared without regard to
 * case) and the provider must have verified it; an unverified address proves nothing.
 */
export function isVerifiedEmailOf(
  user: Pick<UserIdentity, 'email' | 'emailVerified'>,
  given: string,
): boolean {
  return user.emailVerified && user.email !== null && user.email.toLowerCase() === given.trim().toLowerCase();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** User and token ids are UUIDs; anything else names nothing (and is never sent to the database). */
export const isId = (value: string): boolean => UUID.test(value);
