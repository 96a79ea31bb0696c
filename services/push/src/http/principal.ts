import type { Actor } from '../domain/create-policy';
import type { Responder } from '../domain/request';
import type { EmailSender, NoticeKind } from '../domain/email-rules';

/** An OAuth client of the auth service, authenticated by an access token (introspection). */
export interface ClientPrincipal {
  kind: 'client';
  /** `client:<client_id>`; the owner recorded on what the caller creates. */
  id: string;
  clientId: string;
  scopes: ReadonlySet<string>;
}

/** A person, authenticated by one of its personal API tokens (`spu_…`). */
export interface UserPrincipal {
  kind: 'user';
  /** `user:<uuid>`; the owner recorded on what the caller creates. */
  id: string;
  userId: string;
  /** The sign-in provider and its `sub` for this user (to ask the provider whether it is still active). */
  issuer: string;
  subject: string;
  /** The token used: its scopes are the request's. */
  tokenId: string;
  /** For the legacy `X-User-Email` check only: an email is never an identity. */
  email: string | null;
  emailVerified: boolean;
  /** Their owner notice defaults (as of the token's lookup: cached like it). */
  noticeDefaults: readonly NoticeKind[];
  scopes: ReadonlySet<string>;
}

/** The authenticated caller of a request. */
export type Principal = ClientPrincipal | UserPrincipal;

/** Turns a bearer token into its principal. */
export interface TokenVerifier {
  /**
   * Resolves to the principal of a token that is valid now, or `null` for a token that is unknown,
   * revoked, expired or meant for another audience.
   * @throws when no trustworthy answer could be obtained (`AuthServiceUnavailable`, or the
   *   database's connection error): never a reason to refuse the token.
   */
  verify(token: string): Promise<Principal | null>;
  /** True when `verify(token)` would answer without asking anyone (cached, or malformed). */
  isCached(token: string): boolean;
}

/** The API caller as the domain's rights see it: its token and scopes, or nobody. */
export const actorOf = (principal: Principal | null): Actor =>
  principal ? { kind: 'token', id: principal.id, scopes: principal.scopes } : { kind: 'anonymous' };

/** The person behind an API request, for email (a personal token's user); null for a client or nobody. */
export const emailSenderOf = (principal: Principal | null): EmailSender | null =>
  principal?.kind === 'user'
    ? {
        userId: principal.userId,
        verifiedEmail: principal.emailVerified ? principal.email : null,
        noticeDefaults: principal.noticeDefaults,
      }
    : null;

/** Who answers a request, in the domain's terms (also the attachment downloads' gate). */
export function responderOf(principal: Principal | null): Responder {
  if (!principal) return { kind: 'anonymous' };
  if (principal.kind === 'client') return { kind: 'client', id: principal.id };
  return { kind: 'user', id: principal.id, email: principal.emailVerified ? principal.email : null };
}
