import type { PushKind } from './push';

/** A scope a token may hold. */
export type Scope = 'pushes:read' | 'pushes:write';

/**
 * Who is acting, as the domain's rights see it: the one principal type every edge builds (the API
 * from its bearer token, the web app from its session). A new way of acting (a link that lets its
 * holder create one answer for somebody else, say) is a new case here, decided below.
 */
export type Actor =
  /** A verified token (`client:<id>` or `user:<id>`): it may do what its scopes say. */
  | { kind: 'token'; id: string; scopes: ReadonlySet<string> }
  /** A person signed in to the web app (`user:<id>`): the web app is theirs, with every scope. */
  | { kind: 'session'; id: string }
  /** Nobody in particular. */
  | { kind: 'anonymous' };

export const ANONYMOUS: Actor = { kind: 'anonymous' };

/** The owner recorded on what this actor creates: null for nobody. */
export function ownerOf(actor: Actor): string | null {
  switch (actor.kind) {
    case 'token':
    case 'session':
      return actor.id;
    case 'anonymous':
      return null;
  }
}

/** Whether the actor holds `scope`: a token its own scopes, a session every scope, nobody none. */
export function holds(actor: Actor, scope: Scope): boolean {
  switch (actor.kind) {
    case 'token':
      return actor.scopes.has(scope);
    case 'session':
      return true;
    case 'anonymous':
      return false;
  }
}

/** The instance settings that decide creation rights. */
export interface CreateFeatures {
  /** Anonymous callers may create (text, URL and QR pushes; files see `fileRequiresAuth`). */
  anonymousCreate: boolean;
  /** File pushes need an authenticated caller even when anonymous creation is allowed. */
  fileRequiresAuth: boolean;
}

export type CreateDecision =
  | { ok: true }
  | { ok: false; reason: 'authentication_required' | 'files_need_authentication' | 'missing_scope' };

export type CreateRefusal = Exclude<CreateDecision, { ok: true }>;

const OK: CreateDecision = { ok: true };

/**
 * May this actor create a push of this kind? The one place that decides it:
 * - a token needs the `pushes:write` scope, whatever the kind;
 * - a person's session may create any kind (the kinds the instance enables are the schema's);
 * - nobody only where the instance allows anonymous creation, and for a file push only where
 *   files do not require authentication.
 * `kind` is undefined while the body is not parsed yet (a multipart create decides file parts as
 * they arrive): then only what the actor alone decides is checked.
 */
export function mayCreate(
  actor: Actor,
  kind: PushKind | undefined,
  features: CreateFeatures,
): CreateDecision {
  switch (actor.kind) {
    case 'token':
      return holds(actor, 'pushes:write') ? OK : { ok: false, reason: 'missing_scope' };
    case 'session':
      return OK;
    case 'anonymous':
      if (kind === 'file' && features.fileRequiresAuth) {
        return { ok: false, reason: 'files_need_authentication' };
      }
      if (kind !== undefined && !features.anonymousCreate) {
        return { ok: false, reason: 'authentication_required' };
      }
      return OK;
  }
}

/**
 * May this actor create a request? Always someone: a token with `pushes:write`, or a person's
 * session; nobody never (a request's answer is a push owned by its requester).
 */
export function mayCreateRequest(actor: Actor): CreateDecision {
  switch (actor.kind) {
    case 'token':
      return holds(actor, 'pushes:write') ? OK : { ok: false, reason: 'missing_scope' };
    case 'session':
      return OK;
    case 'anonymous':
      return { ok: false, reason: 'authentication_required' };
  }
}
