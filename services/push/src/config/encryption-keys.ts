import { z } from 'zod';
import { commonEnv, envCsv, envSection } from '@secret-push/config';

/** Encryption keys: `id:base64key[,id:base64key…]`, 32-byte keys; the first one encrypts new rows. */
const keyRing = envCsv().transform((entries, ctx) => {
  const keys: { id: string; key: Buffer }[] = [];
  for (const entry of entries) {
    const sep = entry.indexOf(':');
    const id = entry.slice(0, sep);
    const key = Buffer.from(entry.slice(sep + 1), 'base64');
    if (sep < 1 || !/^[\w.-]{1,32}$/.test(id) || key.length !== 32) {
      ctx.addIssue({ code: 'custom', message: 'each key must be "id:<32 bytes in base64>"' });
      return z.NEVER;
    }
    keys.push({ id, key });
  }
  if (keys.length === 0) ctx.addIssue({ code: 'custom', message: 'at least one key is required' });
  if (new Set(keys.map((k) => k.id)).size !== keys.length) {
    ctx.addIssue({ code: 'custom', message: 'key ids must be unique' });
  }
  return keys;
});

/** The key ring of the pushes' payloads: `encryptionKeys`. */
export const encryptionKeysSection = envSection(
  'Encryption',
  {
    NODE_ENV: commonEnv.NODE_ENV,
    PUSH_ENCRYPTION_KEYS: keyRing.describe(
      '`id:base64key[,id:base64key…]`, 32-byte AES-256-GCM keys. The first encrypts new pushes; all ' +
        'decrypt (rotation). Required; ids starting `dev-` are refused in production.',
    ),
  },
  (v) => ({ encryptionKeys: v.PUSH_ENCRYPTION_KEYS }),
  {
    secretFiles: ['PUSH_ENCRYPTION_KEYS'],
    check: (v) =>
      v.NODE_ENV === 'production' && v.PUSH_ENCRYPTION_KEYS.some((k) => k.id.startsWith('dev-'))
        ? ['PUSH_ENCRYPTION_KEYS: development keys (id "dev-…") are refused in production']
        : [],
  },
);
