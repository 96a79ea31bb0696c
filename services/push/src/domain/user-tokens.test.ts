import { createHash } from 'node:crypto';
import { PersonalTokenNotFound, UserDisabled, UserInputRejected, UserNotFound } from './errors';
import type { UserIdentity } from './user';
import { type InMemoryDomain, createInMemoryDomain } from '../test/support/in-memory-domain';

// UserTokenService over the in-memory UserStore (test/support/in-memory-user-store.ts): fast.
// The same service over PostgreSQL: user-tokens.int.test.ts.

let d: InMemoryDomain;
beforeEach(() => {
  d = createInMemoryDomain();
});

let subjects = 0;
const identity = (over: Partial<UserIdentity> = {}): UserIdentity => ({
  issuer: 'https://idp.example',
  subject: `sub-${++subjects}`,
  email: `person${subjects}@example.org`,
  emailVerified: true,
  ...over,
});
const newUser = (over: Partial<UserIdentity> = {}) => d.users.upsertUser(identity(over));
const READ_WRITE = ['pushes:read', 'pushes:write'];
const sha256hex = (v: string) => createHash('sha256').update(v, 'utf8').digest('hex');

describe('users', () => {
  it('are identified by (issuer, sub): a second sign-in updates the email, never the id', async () => {
    const first = await newUser({ email: 'old@example.org' });
    d.clock.advance(1000);
    const again = await d.users.upsertUser({
      ...identity(),
      subject: first.subject,
      email: 'new@example.org',
    });
    expect(again).toMatchObject({ id: first.id, email: 'new@example.org', createdAt: first.createdAt });
    expect(again.lastSeenAt.getTime()).toBe(first.lastSeenAt.getTime() + 1000);
  });

  it('refuses an identity without a subject, and an unknown user id', async () => {
    await expect(newUser({ subject: '' })).rejects.toBeInstanceOf(UserInputRejected);
    await expect(d.users.findUser('not-a-uuid')).rejects.toBeInstanceOf(UserNotFound);
  });

  it('are listed with how many tokens they hold', async () => {
    const u = await newUser();
    await d.users.createToken(u.id, { name: 'one', scopes: READ_WRITE });
    expect((await d.users.listUsers()).find((x) => x.id === u.id)?.tokenCount).toBe(1);
  });
});

describe('personal tokens', () => {
  it('are given out once and stored only as SHA-256; the value verifies as its user', async () => {
    const u = await newUser();
    const { token, value } = await d.users.createToken(u.id, {
      name: ' laptop ',
      scopes: ['pushes:write', 'pushes:read'],
    });
    expect(value).toMatch(/^spu_[A-Za-z0-9_-]{43}$/);
    expect(token).toMatchObject({ name: 'laptop', scopes: READ_WRITE, expiresAt: null });
    expect(d.userStore.tokenHashesOf(u.id)).toEqual([sha256hex(value)]);
    expect(await d.users.verify(value)).toMatchObject({ user: { id: u.id }, token: { id: token.id } });
    expect(await d.users.verify('spu_' + 'A'.repeat(43))).toBeNull();
    expect(await d.users.verify('nonsense')).toBeNull();
  });

  it('refuse a second token of the same name, unknown scopes, and an expiry in the past', async () => {
    const u = await newUser();
    await d.users.createToken(u.id, { name: 'ci', scopes: READ_WRITE });
    await expect(d.users.createToken(u.id, { name: 'ci', scopes: READ_WRITE })).rejects.toBeInstanceOf(
      UserInputRejected,
    );
    await expect(d.users.createToken(u.id, { name: 'x', scopes: ['admin'] })).rejects.toBeInstanceOf(
      UserInputRejected,
    );
    await expect(
      d.users.createToken(u.id, { name: 'y', scopes: READ_WRITE, expiresAt: d.clock.now() }),
    ).rejects.toBeInstanceOf(UserInputRejected);
  });

  it('stop working at their expiry (half-open)', async () => {
    const u = await newUser();
    const expiresAt = new Date(d.clock.now().getTime() + 60_000);
    const { value } = await d.users.createToken(u.id, { name: 'short', scopes: READ_WRITE, expiresAt });
    d.clock.advance(59_999);
    expect(await d.users.verify(value)).not.toBeNull();
    d.clock.advance(1);
    expect(await d.users.verify(value)).toBeNull();
  });

  it('regenerated: same token, new value; the old value stops working', async () => {
    const u = await newUser();
    const first = await d.users.createToken(u.id, { name: 'ci', scopes: READ_WRITE });
    const again = await d.users.regenerateToken(u.id, first.token.id);
    expect(again.token.id).toBe(first.token.id);
    expect(again.token.regeneratedAt).not.toBeNull();
    expect(await d.users.verify(first.value)).toBeNull();
    expect(await d.users.verify(again.value)).not.toBeNull();
  });

  it('belong to their user: another user cannot regenerate, revoke or see them', async () => {
    const owner = await newUser();
    const other = await newUser();
    const { token } = await d.users.createToken(owner.id, { name: 'mine', scopes: READ_WRITE });
    await expect(d.users.regenerateToken(other.id, token.id)).rejects.toBeInstanceOf(PersonalTokenNotFound);
    await expect(d.users.revokeToken(other.id, token.id)).rejects.toBeInstanceOf(PersonalTokenNotFound);
    expect(await d.users.listTokens(other.id)).toEqual([]);
    await d.users.revokeToken(owner.id, token.id);
    expect(await d.users.listTokens(owner.id)).toEqual([]);
  });

  it('are listed newest first, never with their values', async () => {
    const u = await newUser();
    await d.users.createToken(u.id, { name: 'old', scopes: READ_WRITE });
    d.clock.advance(1000);
    await d.users.createToken(u.id, { name: 'new', scopes: ['pushes:read'] });
    const listed = await d.users.listTokens(u.id);
    expect(listed.map((t) => t.name)).toEqual(['new', 'old']);
    expect(JSON.stringify(listed)).not.toMatch(/spu_|tokenHash/);
  });

  it('record their use at most once per resolution period', async () => {
    const u = await newUser();
    const { token, value } = await d.users.createToken(u.id, { name: 'ci', scopes: READ_WRITE });
    await d.users.recordUse(token.id);
    const firstUse = (await d.users.verify(value))!.token.lastUsedAt!;
    d.clock.advance(30_000);
    await d.users.recordUse(token.id);
    expect((await d.users.verify(value))!.token.lastUsedAt).toEqual(firstUse);
    d.clock.advance(30_000);
    await d.users.recordUse(token.id);
    expect((await d.users.verify(value))!.token.lastUsedAt!.getTime()).toBe(firstUse.getTime() + 60_000);
  });
});

describe('a disabled user', () => {
  it('loses every token at once, gets no new one, and keeps them revoked when enabled again', async () => {
    const u = await newUser();
    const { value } = await d.users.createToken(u.id, { name: 'ci', scopes: READ_WRITE });
    expect(await d.users.disableUser(u.id)).toMatchObject({ tokensRevoked: 1, user: { id: u.id } });
    expect(await d.users.verify(value)).toBeNull();
    await expect(d.users.createToken(u.id, { name: 'new', scopes: READ_WRITE })).rejects.toBeInstanceOf(
      UserDisabled,
    );
    await expect(d.users.regenerateToken(u.id, 'x')).rejects.toBeInstanceOf(UserDisabled);
    expect((await d.users.enableUser(u.id)).disabledAt).toBeNull();
    expect(await d.users.verify(value)).toBeNull();
  });

  it('keeps its first disabledAt when disabled twice', async () => {
    const u = await newUser();
    const first = await d.users.disableUser(u.id);
    d.clock.advance(5000);
    expect((await d.users.disableUser(u.id)).user.disabledAt).toEqual(first.user.disabledAt);
  });
});
