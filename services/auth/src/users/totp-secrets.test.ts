import { randomBytes } from 'node:crypto';
import { DecryptionError, KeyRing } from '@secret-push/key-ring';
import { totpResealer, totpSecrets } from './totp-secrets';

const ring = (...ids: string[]) => new KeyRing(ids.map((id) => ({ id, key: randomBytes(32) })));
const ACCOUNT = '0b6f6f3e-8a0c-4d43-9d7e-6a3f1f3b2c11';
const OTHER = '6d0b1f7a-3c2e-4f5a-8b9c-0d1e2f3a4b5c';

describe('TOTP secrets sealed with the data key ring', () => {
  it('seals to "sealed:<key id>:<base64>", not the secret, a new nonce each time; opens to the secret', () => {
    const secrets = totpSecrets(ring('k1'));
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const sealed = secrets.seal(ACCOUNT, secret);
    expect(sealed).toMatch(/^sealed:k1:[A-Za-z0-9+/]+=*$/);
    expect(sealed).not.toContain(secret);
    expect(secrets.seal(ACCOUNT, secret)).not.toBe(sealed);
    expect(secrets.open(ACCOUNT, sealed)).toBe(secret);
    expect(secrets.open(ACCOUNT.toUpperCase(), sealed)).toBe(secret);
    expect(secrets.open(ACCOUNT, secrets.generate(ACCOUNT))).toMatch(/^[A-Z2-7]{32}$/);
  });

  it('opens for its own account only, and refuses a clear, tampered or unknown-key value', () => {
    const secrets = totpSecrets(ring('k1'));
    const sealed = secrets.seal(ACCOUNT, 'JBSWY3DPEHPK3PXP');
    expect(() => secrets.open(OTHER, sealed)).toThrow(DecryptionError);
    expect(() => secrets.open(ACCOUNT, 'JBSWY3DPEHPK3PXP')).toThrow(/not sealed/);
    const data = Buffer.from(sealed.split(':')[2]!, 'base64');
    data[data.length - 1]! ^= 1;
    expect(() => secrets.open(ACCOUNT, `sealed:k1:${data.toString('base64')}`)).toThrow(DecryptionError);
    expect(() => totpSecrets(ring('k2')).open(ACCOUNT, sealed)).toThrow(/unknown key id k1/);
  });

  it('re-seals clear and older-key values with the first key, and leaves current ones', () => {
    const oldKey = { id: 'old', key: randomBytes(32) };
    const before = totpSecrets(new KeyRing([oldKey]));
    const after = totpSecrets(new KeyRing([{ id: 'new', key: randomBytes(32) }, oldKey]));
    const reseal = totpResealer(after);

    const fromClear = reseal(ACCOUNT, 'JBSWY3DPEHPK3PXP')!;
    expect(fromClear).toMatch(/^sealed:new:/);
    expect(after.open(ACCOUNT, fromClear)).toBe('JBSWY3DPEHPK3PXP');

    const fromOld = reseal(ACCOUNT, before.seal(ACCOUNT, 'GEZDGNBVGY3TQOJQ'))!;
    expect(fromOld).toMatch(/^sealed:new:/);
    expect(after.open(ACCOUNT, fromOld)).toBe('GEZDGNBVGY3TQOJQ');
    expect(after.isCurrent(fromOld)).toBe(true);
    expect(reseal(ACCOUNT, fromOld)).toBeUndefined();
  });
});
