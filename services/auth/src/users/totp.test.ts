import {
  RECOVERY_CODES_PER_SET,
  generateRecoveryCodes,
  hashRecoveryCode,
  hashRecoveryCodes,
  normaliseRecoveryCode,
} from './recovery-codes';
import {
  generateTotpSecret,
  isLaterStep,
  normaliseTotpCode,
  totpCodeAt,
  totpCodeStep,
  totpUri,
} from './totp';

// RFC 6238 appendix B: the SHA-1 seed "12345678901234567890", 8-digit codes; ours are the last 6.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP', () => {
  it("matches RFC 6238's SHA-1 test vectors (6 digits)", () => {
    expect(totpCodeAt(RFC_SECRET, 59_000)).toBe('287082');
    expect(totpCodeAt(RFC_SECRET, 1_111_111_109_000)).toBe('081804');
    expect(totpCodeAt(RFC_SECRET, 1_234_567_890_000)).toBe('005924');
    expect(totpCodeAt(RFC_SECRET, 20_000_000_000_000)).toBe('353130');
  });

  it('accepts the previous, current and next step only, and says which step a code is for', () => {
    expect(totpCodeStep(RFC_SECRET, '287082', 59_000)).toBe(1);
    expect(totpCodeStep(RFC_SECRET, '287082', 89_000)).toBe(1); // one step later
    expect(totpCodeStep(RFC_SECRET, '287082', 29_000)).toBe(1); // one step earlier
    expect(totpCodeStep(RFC_SECRET, '287082', 119_000)).toBeUndefined(); // two steps later
    expect(totpCodeStep(RFC_SECRET, '287 082', 59_000)).toBe(1); // as apps show it
    for (const bad of ['', '28708', '2870821', 'abcdef', '28708x']) {
      expect(totpCodeStep(RFC_SECRET, bad, 59_000)).toBeUndefined();
    }
  });

  it('refuses a step not later than the last accepted one (replay)', () => {
    expect(isLaterStep(5, null)).toBe(true);
    expect(isLaterStep(5, '4')).toBe(true);
    expect(isLaterStep(5, '5')).toBe(false);
    expect(isLaterStep(5, 6)).toBe(false);
  });

  it('makes 160-bit base32 secrets and an otpauth URI with the issuer and the account', () => {
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(generateTotpSecret()).not.toBe(secret);
    const uri = new URL(totpUri(secret, 'ann@example.org', 'secret-push'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/secret-push:ann@example.org');
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      issuer: 'secret-push',
      secret,
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    expect(normaliseTotpCode(' 123 456 ')).toBe('123456');
    expect(normaliseTotpCode('12345')).toBeUndefined();
  });
});

describe('recovery codes', () => {
  it('are 10 distinct codes of 10 base32 characters, shown xxxxx-xxxxx', () => {
    const codes = generateRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODES_PER_SET);
    expect(new Set(codes).size).toBe(RECOVERY_CODES_PER_SET);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
  });

  it('are normalised (case, spaces, dashes) before hashing, and stored as SHA-256 hex only', () => {
    expect(normaliseRecoveryCode(' ABCDE - fgh23 ')).toBe('abcdefgh23');
    expect(normaliseRecoveryCode('abcde-fgh2')).toBeUndefined();
    expect(normaliseRecoveryCode('abcde-fgh21')).toBeUndefined(); // 1 is not base32
    const hash = hashRecoveryCode('abcdefgh23');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashRecoveryCodes(['ABCDE-FGH23'])).toEqual([hash]);
  });
});
