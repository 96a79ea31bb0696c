import { commonEnv, envSection } from '@secret-push/config';
import { developmentKeyProblems, envKeyRing } from '@secret-push/key-ring';

/** The key ring of the pushes' payloads: `encryptionKeys`. */
export const encryptionKeysSection = envSection(
  'Encryption',
  {
    NODE_ENV: commonEnv.NODE_ENV,
    PUSH_ENCRYPTION_KEYS: envKeyRing().describe(
      '`id:base64key[,id:base64key…]`, 32-byte AES-256-GCM keys. The first encrypts new pushes; all ' +
        'decrypt (rotation). Required; ids starting `dev-` are refused in production.',
    ),
  },
  (v) => ({ encryptionKeys: v.PUSH_ENCRYPTION_KEYS }),
  {
    secretFiles: ['PUSH_ENCRYPTION_KEYS'],
    check: (v) => developmentKeyProblems('PUSH_ENCRYPTION_KEYS', v.NODE_ENV, v.PUSH_ENCRYPTION_KEYS),
  },
);
