import type { PushKind } from './push';

/** Who is creating: a verified principal (`client:<id>` or `user:<id>`) and its scopes, or nobody. */
export interface Caller {
  id: string;
  scopes: ReadonlySet<string>;
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

/**
 * May this caller create a push of this kind? The one place that decides it:
 * - an authenticated caller needs the `pushes:write` scope, whatever the kind;
 * - an anonymous caller only where the instance allows anonymous creation, and for a file push
 *   only where files do not require authentication.
 * `kind` is undefined while the body is not parsed yet (a multipart create decides file parts as
 * they arrive): then only what the caller alone decides is checked.
 */
export function mayCreate(
  caller: Caller | undefined,
  kind: PushKind | undefined,
  features: CreateFeatures,
): CreateDecision {
  if (caller) {
    return caller.scopes.has('pushes:write') ? { ok: true } : { ok: false, reason: 'missing_scope' };
  }
  if (kind === 'file' && features.fileRequiresAuth) return { ok: false, reason: 'files_need_authentication' };
  if (kind !== undefined && !features.anonymousCreate) {
    return { ok: false, reason: 'authentication_required' };
  }
  return { ok: true };
}
