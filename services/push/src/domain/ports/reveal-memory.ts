import type { StoredFile } from './file-store';

/*
 * The reveal memory port: what a retry-safe reveal remembers for a short window
 * (domain/reveal-retry.ts); http/reveal-memory.ts implements it over Redis, which forgets by itself.
 */

/** A reveal that spent a view, as a repeat of it (the same reveal id) is answered again. */
export interface RememberedReveal {
  pushId: string;
  viewId: string;
  keyId: string;
  /** The payload as sealed in the push (never in clear); null for a push without one. */
  payloadSealed: Buffer | null;
  /** A file push's files (sealed names and keys), whose links are made again under `viewId`. */
  files: StoredFile[];
  /** HMAC of the passphrase sent (or none) under the reveal id: a repeat must send the same. */
  fingerprint: Buffer;
  /** The push's last view (its copy outlives the wipe only when the operator allows it). */
  lastView: boolean;
}

/**
 * What a claim of a reveal id found: nobody had it (`claimed`: this request reveals, then
 * remembers or releases it), a reveal that spent a view (`remembered`), one still in flight
 * (`busy`), or no memory to ask (`unavailable`: Redis down; the reveal goes on without the id).
 */
export type RevealClaim =
  | { state: 'claimed' }
  | { state: 'remembered'; reveal: RememberedReveal }
  | { state: 'busy' }
  | { state: 'unavailable' };

export interface RevealMemory {
  /** Takes `key` for a reveal in flight (for at most `pendingMs`), or says who has it. */
  claim(key: string, pendingMs: number): Promise<RevealClaim>;
  /** The reveal that spent a view, kept `ttlMs` under its key. */
  remember(key: string, reveal: RememberedReveal, ttlMs: number): Promise<void>;
  /** A claimed reveal that spent nothing: the id is free again. */
  release(key: string): Promise<void>;
}
