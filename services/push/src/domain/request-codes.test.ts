import {
  CODE_MAX_ATTEMPTS,
  type CodeSubject,
  generateAnswerCode,
  hashAnswerCode,
  judgeAnswerCode,
  mayReceiveCode,
  normalizeAddress,
  parseAnswerCode,
} from './request-codes';

// The one-time code rules of requests answerable by listed addresses (no I/O).

const NOW = new Date('2026-11-27T12:00:00.000Z');
const LATER = new Date('2026-11-27T13:00:00.000Z');
const RID = '4b0c3d3e-0000-4000-8000-000000000001';

describe('codes', () => {
  it('are 6 digits, uniformly drawn (all positions vary, leading zeros kept)', () => {
    const codes = Array.from({ length: 2000 }, generateAnswerCode);
    expect(codes.every((c) => /^\d{6}$/.test(c))).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(1990);
    expect(codes.some((c) => c.startsWith('0'))).toBe(true);
  });

  it.each([
    ['123456', '123456'],
    [' 123 456 ', '123456'],
    ['123-456', '123456'],
    ['12345', null],
    ['1234567', null],
    ['12a456', null],
    [123456, null],
    [undefined, null],
    ['1'.repeat(30), null],
  ])('parse %p → %p', (raw, parsed) => {
    expect(parseAnswerCode(raw)).toBe(parsed);
  });

  it('hash bound to the request and the address (case-insensitively), never the bare code', () => {
    const h = hashAnswerCode(RID, 'A@Example.org', '123456');
    expect(h.equals(hashAnswerCode(RID, ' a@example.org ', '123456'))).toBe(true);
    expect(h.equals(hashAnswerCode(RID, 'b@example.org', '123456'))).toBe(false);
    expect(h.equals(hashAnswerCode(RID.replace(/1$/, '2'), 'a@example.org', '123456'))).toBe(false);
    expect(h.equals(hashAnswerCode(RID, 'a@example.org', '123457'))).toBe(false);
    expect(h.toString('hex')).not.toContain('123456');
  });

  it('normalizes addresses', () => {
    expect(normalizeAddress('  Mixed@Case.ORG ')).toBe('mixed@case.org');
  });
});

describe('mayReceiveCode', () => {
  const subject: CodeSubject = {
    state: 'open',
    answerableBy: 'emails',
    answerableEmails: ['a@example.org', 'b@example.org'],
    closeAfterAt: LATER,
  };
  it.each<[string, Partial<CodeSubject>, string, boolean]>([
    ['a listed address of an open request', {}, 'A@example.org', true],
    ['an unlisted address', {}, 'c@example.org', false],
    ['an answered request', { state: 'answered' }, 'a@example.org', false],
    ['a closed request', { state: 'closed' }, 'a@example.org', false],
    ['a request past its window', { closeAfterAt: NOW }, 'a@example.org', false],
    [
      'a request answerable by anyone',
      { answerableBy: 'anyone', answerableEmails: [] },
      'a@example.org',
      false,
    ],
    [
      'a request answerable by users',
      { answerableBy: 'users', answerableEmails: [] },
      'a@example.org',
      false,
    ],
  ])('%s → %p', (_, change, address, expected) => {
    expect(mayReceiveCode({ ...subject, ...change }, address, NOW)).toBe(expected);
  });
});

describe('judgeAnswerCode', () => {
  const right = hashAnswerCode(RID, 'a@example.org', '123456');
  const wrong = hashAnswerCode(RID, 'a@example.org', '654321');
  const stored = { codeHash: right, expiresAt: LATER, attempts: 0, usedAt: null };
  it.each([
    ['the right code', stored, right, 'ok'],
    ['a wrong code', stored, wrong, 'wrong'],
    ['no code asked for', undefined, right, 'missing'],
    ['an expired code', { ...stored, expiresAt: NOW }, right, 'expired'],
    ['a used code', { ...stored, usedAt: NOW }, right, 'used'],
    [
      'the right code after the attempts are spent',
      { ...stored, attempts: CODE_MAX_ATTEMPTS },
      right,
      'exhausted',
    ],
    ['the right code on the last attempt', { ...stored, attempts: CODE_MAX_ATTEMPTS - 1 }, right, 'ok'],
  ] as const)('%s → %s', (_, s, given, verdict) => {
    expect(judgeAnswerCode(s, given, NOW)).toBe(verdict);
  });
});
