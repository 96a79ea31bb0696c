import {
  PASSWORD_MAX_BYTES,
  generatePassword,
  hashPassword,
  passwordRuleViolation,
  verifyDummy,
  verifyPassword,
} from './password';

describe('password hashing', () => {
  let stored: string;
  beforeAll(async () => {
    stored = await hashPassword('correct horse battery staple');
  });

  it('stores scrypt$N$r$p$salt$hash with N=2^15, r=8, p=1, a 16-byte salt and a 32-byte hash', () => {
    const [scheme, n, r, p, salt, hash, ...rest] = stored.split('$');
    expect([scheme, n, r, p, rest]).toEqual(['scrypt', '32768', '8', '1', []]);
    expect(Buffer.from(salt!, 'base64url')).toHaveLength(16);
    expect(Buffer.from(hash!, 'base64url')).toHaveLength(32);
    expect(`${salt}$${hash}`).toMatch(/^[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(stored).not.toContain('correct horse');
  });

  it('verifies the password and refuses any other', async () => {
    expect(await verifyPassword(stored, 'correct horse battery staple')).toBe(true);
    expect(await verifyPassword(stored, 'correct horse battery stapl')).toBe(false);
    expect(await verifyPassword(stored, 'Correct horse battery staple')).toBe(false);
    expect(await verifyPassword(stored, '')).toBe(false);
  });

  it('salts every hash: two hashes of one password differ, and both verify', async () => {
    const again = await hashPassword('correct horse battery staple');
    expect(again).not.toBe(stored);
    expect(await verifyPassword(again, 'correct horse battery staple')).toBe(true);
  });

  it('hashes one Unicode spelling (NFC) of a password', async () => {
    const composed = await hashPassword('caf\u00e9 au lait, merci');
    expect(await verifyPassword(composed, 'cafe\u0301 au lait, merci')).toBe(true);
  });

  it('answers false, without throwing, for a malformed or greedy hash', async () => {
    const [, , , , salt, hash] = stored.split('$');
    const malformed = [
      '',
      'scrypt',
      'bcrypt$32768$8$1$' + `${salt}$${hash}`,
      `scrypt$32768$8$1$${salt}`,
      `scrypt$32768$8$1$${salt}$${hash}$extra`,
      `scrypt$32767$8$1$${salt}$${hash}`, // N not a power of two
      `scrypt$0$8$1$${salt}$${hash}`,
      `scrypt$-32768$8$1$${salt}$${hash}`,
      `scrypt$32768$0$1$${salt}$${hash}`,
      `scrypt$32768$8$x$${salt}$${hash}`,
      `scrypt$1073741824$8$1$${salt}$${hash}`, // would need 1 TiB
      `scrypt$32768$8$1$${salt}$${hash!.slice(0, 20)}`, // truncated hash
      `scrypt$32768$8$1$${salt}$${hash}==`, // not base64url
      `scrypt$32768$8$1$$${hash}`,
    ];
    for (const bad of malformed) {
      await expect(verifyPassword(bad, 'correct horse battery staple')).resolves.toBe(false);
    }
  });

  it('refuses a candidate longer than any accepted password without hashing it', async () => {
    const long = 'x'.repeat(PASSWORD_MAX_BYTES + 1);
    expect(await verifyPassword(stored, long)).toBe(false);
  });

  it('has a dummy verification that always fails', async () => {
    expect(await verifyDummy('correct horse battery staple')).toBe(false);
    expect(await verifyDummy('')).toBe(false);
  });
});

describe('generated passwords', () => {
  it('are 24 URL-safe characters, all different', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 100; i++) {
      const password = generatePassword();
      expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(passwordRuleViolation(password, 'someone@example.org')).toBeUndefined();
      seen.add(password);
    }
    expect(seen.size).toBe(100);
  });
});

describe('password rules', () => {
  const email = 'alice@example.org';
  it.each([
    ['short', 'elevenchars', /at least 12 characters/],
    ['too long', 'x'.repeat(PASSWORD_MAX_BYTES + 1), /at most 1024 bytes/],
    ['too long in UTF-8 bytes', '\u00e9'.repeat(513), /at most 1024 bytes/], // 1026 bytes
    ['the email', 'alice@example.org', /must not be the email/],
    ['the email in capitals, with spaces', ' ALICE@example.org ', /must not be the email/],
  ])('refuse a password that is %s', (_what, password, message) => {
    expect(passwordRuleViolation(password, email)).toMatch(message);
  });

  it.each([
    ['12 characters', 'twelve chars'],
    ['1024 bytes', 'x'.repeat(PASSWORD_MAX_BYTES)],
    ['12 characters of several bytes each', '\u{1F511}'.repeat(12)],
  ])('accept %s', (_what, password) => {
    expect(passwordRuleViolation(password, email)).toBeUndefined();
  });

  it('count characters, not UTF-16 units: 11 emoji are too short', () => {
    expect(passwordRuleViolation('\u{1F511}'.repeat(11), email)).toMatch(/at least 12/);
  });
});
