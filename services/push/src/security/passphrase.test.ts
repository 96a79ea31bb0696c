import { hashPassphrase, verifyPassphrase } from './passphrase';

describe('passphrase hashing', () => {
  it('verifies the right passphrase only, and never stores it', async () => {
    const stored = await hashPassphrase('correct horse');
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(stored).not.toContain('correct horse');
    await expect(verifyPassphrase(stored, 'correct horse')).resolves.toBe(true);
    await expect(verifyPassphrase(stored, 'correct horse ')).resolves.toBe(false);
    await expect(verifyPassphrase('garbage', 'x')).resolves.toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassphrase('same')).not.toBe(await hashPassphrase('same'));
  });
});
