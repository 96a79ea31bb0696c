import type { KeyRing } from '@secret-push/key-ring';
import { hashPassphrase } from '../security/passphrase';
import { generateUrlToken, hashUrlToken } from '../security/url-token';
import type { NewPushEmail } from './ports/email-store';
import type { NewPushRecord } from './ports/push-store';
import type { NewPush } from './push';

/** A push's sealed columns, and a request's (`message`; its token and note like a push's). */
export type SealedField = 'url_token' | 'payload' | 'note' | 'message';

/** Sealed secrets are bound to their push and column: a copy moved to another row or column fails to open. */
export const aad = (pushId: string, field: SealedField) => `${pushId}|${field}`;

/** Opens a push's sealed field (null stays null). */
export type OpenSealed = (
  pushId: string,
  keyId: string,
  field: SealedField,
  data: Buffer | null,
) => string | null;

export const openerOf =
  (keyRing: KeyRing): OpenSealed =>
  (pushId, keyId, field, data) =>
    data ? keyRing.open({ keyId, data }, aad(pushId, field)) : null;

/** What a sealed push record needs beyond the create's input. */
export interface SealOptions {
  id: string;
  owner: string | null;
  /** The create's email plan (domain/email-policy.ts), when it involves email. */
  email?: NewPushEmail | null;
  /** Its changes yield outbox events (somebody listens). */
  outbox: boolean;
}

/**
 * A push as the store inserts it, from a validated create: a new url_token (as SHA-256 for lookup,
 * and sealed), payload and note sealed under the active key bound to the row, the passphrase as a
 * slow hash. Every way a push comes to be (a create, a request's answer) seals it here.
 */
export async function sealPushRecord(
  keyRing: KeyRing,
  input: NewPush,
  options: SealOptions,
): Promise<{ record: NewPushRecord; urlToken: string }> {
  const { id, owner, email } = options;
  const urlToken = generateUrlToken();
  const keyId = keyRing.activeKeyId;
  const seal = (v: string | null, field: 'payload' | 'note') =>
    v === null ? null : keyRing.seal(v, aad(id, field), keyId);
  return {
    urlToken,
    record: {
      id,
      tokenHash: hashUrlToken(urlToken),
      tokenSealed: keyRing.seal(urlToken, aad(id, 'url_token'), keyId),
      keyId,
      kind: input.kind,
      owner,
      name: input.name,
      payloadSealed: seal(input.payload, 'payload'),
      noteSealed: seal(input.note, 'note'),
      passphraseHash: input.passphrase ? await hashPassphrase(input.passphrase) : null,
      expireAfterDays: input.expireAfterDays,
      expireAfterViews: input.expireAfterViews,
      ttlSeconds: input.ttlSeconds,
      deletableByViewer: input.deletableByViewer,
      retrievalStep: input.retrievalStep,
      ...(email ? { email } : {}),
      outbox: options.outbox,
    },
  };
}
