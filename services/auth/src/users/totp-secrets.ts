import { DecryptionError, type KeyRing } from '@secret-push/key-ring';
import type { TotpResealer } from '../storage/totp-secret.repository';
import { generateTotpSecret } from './totp';

/*
 * TOTP secrets at rest, sealed with the data key ring (AUTH_DATA_KEYS): in the account row
 * (`totp_secret`) and while an enrolment waits for its confirming code (the sign-in's pending step,
 * the account console's `AccountEnrolment`). Stored as `sealed:<key id>:<base64>` (AES-256-GCM:
 * nonce ‖ tag ‖ ciphertext), bound to the account by its additional data, so a sealed secret
 * copied to another account's row does not open there. The clear secret exists only in memory: to
 * check a code, and to show the enrolment page.
 */
const PREFIX = 'sealed:';
const SEALED = /^sealed:([\w.-]{1,32}):([A-Za-z0-9+/]+={0,2})$/;

const aad = (accountId: string) => `account:${accountId.toLowerCase()}|totp_secret`;

export interface TotpSecrets {
  /** A new random secret for `accountId`, sealed. */
  generate(accountId: string): string;
  seal(accountId: string, secret: string): string;
  /** The clear secret; throws DecryptionError when it is not sealed, or not by a key of the ring. */
  open(accountId: string, sealed: string): string;
  /** Whether a stored value is sealed by the ring's first key (false: clear, or an older key). */
  isCurrent(stored: string): boolean;
}

/** Whether a stored value has the sealed form at all (what the migration and the check constraint look for). */
export const isSealedTotpSecret = (stored: string): boolean => stored.startsWith(PREFIX);

export function totpSecrets(ring: KeyRing): TotpSecrets {
  const seal = (accountId: string, secret: string) =>
    `${PREFIX}${ring.activeKeyId}:${ring.seal(secret, aad(accountId)).toString('base64')}`;
  return {
    seal,
    generate: (accountId) => seal(accountId, generateTotpSecret()),
    open(accountId, sealed) {
      const [, keyId, data] = SEALED.exec(sealed) ?? [];
      if (keyId === undefined || data === undefined) {
        throw new DecryptionError('the TOTP secret is not sealed (run the migrate command)');
      }
      return ring.open({ keyId, data: Buffer.from(data, 'base64') }, aad(accountId));
    },
    isCurrent: (stored) => stored.startsWith(`${PREFIX}${ring.activeKeyId}:`),
  };
}

/**
 * For the migrate command: a secret in clear becomes sealed, one sealed by an older key is
 * re-sealed by the first key, one sealed by the first key stays (undefined).
 */
export function totpResealer(secrets: TotpSecrets): TotpResealer {
  return (accountId, stored) => {
    if (secrets.isCurrent(stored)) return undefined;
    const clear = isSealedTotpSecret(stored) ? secrets.open(accountId, stored) : stored;
    return secrets.seal(accountId, clear);
  };
}
