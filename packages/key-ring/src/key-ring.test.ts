import { randomBytes } from 'node:crypto';
import { DecryptionError, KeyRing } from './key-ring';

const k = (id: string) => ({ id, key: randomBytes(32) });

describe('KeyRing', () => {
  it('seals with the first key and opens with any key of the ring (rotation)', () => {
    const old = k('2025');
    const before = new KeyRing([old]);
    const sealed = before.seal('secret', 'row-1|payload');
    const rotated = new KeyRing([k('2026'), old]);
    expect(rotated.activeKeyId).toBe('2026');
    expect(rotated.open({ keyId: '2025', data: sealed }, 'row-1|payload')).toBe('secret');
  });

  it('refuses another row or field, tampering, and unknown keys', () => {
    const ring = new KeyRing([k('a')]);
    const sealed = ring.seal('secret', 'row-1|payload');
    expect(() => ring.open({ keyId: 'a', data: sealed }, 'row-2|payload')).toThrow(DecryptionError);
    expect(() => ring.open({ keyId: 'a', data: sealed }, 'row-1|note')).toThrow(DecryptionError);
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1]! ^= 1;
    expect(() => ring.open({ keyId: 'a', data: tampered }, 'row-1|payload')).toThrow(DecryptionError);
    expect(() => ring.open({ keyId: 'b', data: sealed }, 'row-1|payload')).toThrow(DecryptionError);
  });

  it('uses a fresh nonce each time', () => {
    const ring = new KeyRing([k('a')]);
    expect(ring.seal('same', 'x').equals(ring.seal('same', 'x'))).toBe(false);
  });
});
