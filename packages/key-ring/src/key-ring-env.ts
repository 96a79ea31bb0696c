import { z } from 'zod';
import { envCsv } from '@secret-push/config';

/** One key of a ring as configured: its id (stored beside what it sealed) and its 32 bytes. */
export interface RingKey {
  id: string;
  key: Buffer;
}

/** Ids of keys that `make up` generates start with this; production refuses them. */
export const DEV_KEY_ID_PREFIX = 'dev-';

/**
 * A key ring in the environment: `id:base64key[,id:base64key…]`, 32-byte keys, unique ids of at
 * most 32 characters (`[A-Za-z0-9_.-]`); the first key seals new data, every key opens.
 */
export function envKeyRing() {
  return envCsv().transform((entries, ctx) => {
    const keys: RingKey[] = [];
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
}

/** The problem with `keys` in production (development keys, id `dev-…`), for a section's check. */
export function developmentKeyProblems(
  variable: string,
  nodeEnv: string,
  keys: readonly RingKey[],
): string[] {
  return nodeEnv === 'production' && keys.some((k) => k.id.startsWith(DEV_KEY_ID_PREFIX))
    ? [`${variable}: development keys (id "${DEV_KEY_ID_PREFIX}…") are refused in production`]
    : [];
}
