import { formToken, formTokenValid } from './csrf';

describe('the login form token', () => {
  const keys = ['k'.repeat(40)];
  it('is valid for its interaction only, and under any configured key (rotation)', () => {
    const token = formToken(keys, 'login', 'uid-1');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(formTokenValid(keys, 'login', 'uid-1', token)).toBe(true);
    expect(formTokenValid(keys, 'login', 'uid-2', token)).toBe(false);
    expect(formTokenValid(keys, 'logout', 'uid-1', token)).toBe(false);
    expect(formTokenValid(['n'.repeat(40), ...keys], 'login', 'uid-1', token)).toBe(true);
    expect(formTokenValid(['n'.repeat(40)], 'login', 'uid-1', token)).toBe(false);
  });

  it('refuses anything that is not a token', () => {
    for (const bad of [undefined, '', 'x', 42, `${formToken(keys, 'login', 'u')}=`, 'a'.repeat(43)]) {
      expect(formTokenValid(keys, 'login', 'u', bad)).toBe(false);
    }
  });
});
