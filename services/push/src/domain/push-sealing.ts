import type { KeyRing } from '@secret-push/key-ring';

export type SealedField = 'url_token' | 'payload' | 'note';

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
