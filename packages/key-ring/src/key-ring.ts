import { type KeyObject, createCipheriv, createDecipheriv, createSecretKey } from 'node:crypto';
import { pooledRandomBytes } from './random-pool';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export interface Sealed {
  keyId: string;
  /** nonce ‖ tag ‖ ciphertext */
  data: Buffer;
}

export class DecryptionError extends Error {}

/**
 * AES-256-GCM under a ring of keys: the first key seals new data, every key opens what it sealed,
 * so keys can rotate (add a new first key, re-encrypt or let old rows expire, then drop the old
 * key). The caller binds each ciphertext to its row and column with `aad`, so ciphertexts cannot be
 * moved between rows or fields.
 */
export class KeyRing {
  /** KeyObjects, not Buffers: createCipheriv would otherwise import the raw key on every call. */
  private readonly keys: Map<string, KeyObject>;
  private readonly activeId: string;

  constructor(keys: readonly { id: string; key: Buffer }[]) {
    const first = keys[0];
    if (!first) throw new Error('KeyRing needs at least one key');
    for (const k of keys) if (k.key.length !== 32) throw new Error(`key ${k.id} is not 32 bytes`);
    this.keys = new Map(keys.map((k) => [k.id, createSecretKey(k.key)]));
    this.activeId = first.id;
  }

  get activeKeyId(): string {
    return this.activeId;
  }

  seal(plaintext: string, aad: string, keyId = this.activeId): Buffer {
    const key = this.keys.get(keyId);
    if (!key) throw new DecryptionError(`unknown key id ${keyId}`);
    const nonce = pooledRandomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([nonce, cipher.getAuthTag(), body]);
  }

  open(sealed: Sealed, aad: string): string {
    const key = this.keys.get(sealed.keyId);
    if (!key) throw new DecryptionError(`unknown key id ${sealed.keyId}`);
    const nonce = sealed.data.subarray(0, NONCE_BYTES);
    const tag = sealed.data.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', key, nonce);
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([
        decipher.update(sealed.data.subarray(NONCE_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch (err) {
      throw new DecryptionError('ciphertext failed authentication', { cause: err });
    }
  }
}
