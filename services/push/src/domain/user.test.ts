import {
  type PersonalToken,
  type User,
  checkIdentity,
  checkTokenSettings,
  isLastUseStale,
  isTokenUsable,
  isVerifiedEmailOf,
} from './user';

const at = (iso: string) => new Date(iso);

const user = (over: Partial<User> = {}): User => ({
  id: '00000000-0000-4000-8000-000000000001',
  issuer: 'https://idp.example',
  subject: 'sub-1',
  email: 'Ada@Example.org',
  emailVerified: true,
  disabledAt: null,
  createdAt: at('2026-01-01T00:00:00Z'),
  noticeDefaults: [],
  lastSeenAt: at('2026-01-01T00:00:00Z'),
  ...over,
});

const token = (over: Partial<PersonalToken> = {}): PersonalToken => ({
  id: '00000000-0000-4000-8000-000000000002',
  userId: user().id,
  name: 'ci',
  scopes: ['pushes:read'],
  expiresAt: null,
  lastUsedAt: null,
  createdAt: at('2026-01-01T00:00:00Z'),
  regeneratedAt: null,
  ...over,
});

describe('checkTokenSettings', () => {
  it('trims the name and puts the scopes in canonical order, without duplicates', () => {
    expect(
      checkTokenSettings({ name: '  laptop ', scopes: ['pushes:write', 'pushes:read', 'pushes:write'] }),
    ).toEqual({
      ok: true,
      settings: { name: 'laptop', scopes: ['pushes:read', 'pushes:write'], expiresAt: null },
    });
  });

  it.each<[string, Parameters<typeof checkTokenSettings>[0], string]>([
    ['an empty name', { name: '   ', scopes: ['pushes:read'] }, 'name'],
    ['a name over 100 characters', { name: 'n'.repeat(101), scopes: ['pushes:read'] }, 'name'],
    ['a name with a newline', { name: 'two\nlines', scopes: ['pushes:read'] }, 'name'],
    ['no scope', { name: 'x', scopes: [] }, 'scopes'],
    ['an unknown scope', { name: 'x', scopes: ['pushes:read', 'admin'] }, 'scopes'],
    ['an invalid date', { name: 'x', scopes: ['pushes:read'], expiresAt: new Date('nope') }, 'expires_at'],
  ])('refuses %s', (_case, settings, field) => {
    const checked = checkTokenSettings(settings);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(Object.keys(checked.fields)).toEqual([field]);
  });

  it('counts characters, not UTF-16 units: 100 emoji are a valid name', () => {
    expect(checkTokenSettings({ name: '🔑'.repeat(100), scopes: ['pushes:read'] }).ok).toBe(true);
  });
});

describe('checkIdentity', () => {
  it('keeps a verified email, and drops the verification of a missing one', () => {
    const base = { issuer: 'https://idp.example', subject: 's', emailVerified: true };
    expect(checkIdentity({ ...base, email: ' a@b.example ' })).toEqual({
      ok: true,
      identity: { ...base, email: 'a@b.example' },
    });
    expect(checkIdentity({ ...base, email: null })).toEqual({
      ok: true,
      identity: { ...base, email: null, emailVerified: false },
    });
  });

  it('refuses an empty issuer or subject, a subject over 255 characters and a non-address', () => {
    const checked = checkIdentity({
      issuer: '',
      subject: 's'.repeat(256),
      email: 'nope',
      emailVerified: false,
    });
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(Object.keys(checked.fields).sort()).toEqual(['email', 'issuer', 'subject']);
  });
});

describe('isTokenUsable', () => {
  it('refuses the token of a disabled user', () => {
    expect(isTokenUsable(user(), token(), at('2026-06-01T00:00:00Z'))).toBe(true);
    expect(
      isTokenUsable(user({ disabledAt: at('2026-02-01T00:00:00Z') }), token(), at('2026-06-01T00:00:00Z')),
    ).toBe(false);
  });

  it('refuses an expired token: the expiry is a half-open bound', () => {
    const expiring = token({ expiresAt: at('2026-03-01T00:00:00.000Z') });
    expect(isTokenUsable(user(), expiring, at('2026-02-28T23:59:59.999Z'))).toBe(true);
    expect(isTokenUsable(user(), expiring, at('2026-03-01T00:00:00.000Z'))).toBe(false);
  });
});

describe('isVerifiedEmailOf', () => {
  it('matches the user’s email whatever its case, only when it was verified', () => {
    expect(isVerifiedEmailOf(user(), 'ada@example.ORG')).toBe(true);
    expect(isVerifiedEmailOf(user(), 'eve@example.org')).toBe(false);
    expect(isVerifiedEmailOf(user({ emailVerified: false }), 'ada@example.org')).toBe(false);
    expect(isVerifiedEmailOf(user({ email: null, emailVerified: false }), '')).toBe(false);
  });
});

describe('isLastUseStale', () => {
  it('is due when never used, or used a minute ago or more', () => {
    const now = at('2026-01-01T00:01:00Z');
    expect(isLastUseStale(null, now)).toBe(true);
    expect(isLastUseStale(at('2026-01-01T00:00:00.001Z'), now)).toBe(false);
    expect(isLastUseStale(at('2026-01-01T00:00:00Z'), now)).toBe(true);
  });
});
