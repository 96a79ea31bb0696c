import { createHash, randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { type TestDatabase, freshDatabase } from '@secret-push/testing';
import type { PushDatabase } from '../storage/database';
import { pushMigrations } from '../storage/migrations';
import { createUserRepository } from '../storage/user.repository';
import { PersonalTokenNotFound, UserDisabled, UserInputRejected, UserNotFound } from './errors';
import type { UserIdentity } from './user';
import { type UserTokenService, createUserTokenService } from './user-tokens';

// The user and token service over the real PostgreSQL repository: nothing is mocked.

let database: TestDatabase<PushDatabase>;
let db: Kysely<PushDatabase>;
let users: UserTokenService;

beforeAll(async () => {
  database = await freshDatabase<PushDatabase>('user_tokens', pushMigrations);
  db = database.db;
  users = createUserTokenService({ store: createUserRepository(db) });
});
afterAll(() => database.drop());

const ISSUER = 'https://idp.example';
let subjects = 0;
const identity = (over: Partial<UserIdentity> = {}): UserIdentity => ({
  issuer: ISSUER,
  subject: `sub-${++subjects}`,
  email: `person${subjects}@example.org`,
  emailVerified: true,
  ...over,
});
const newUser = (over: Partial<UserIdentity> = {}) => users.upsertUser(identity(over));
const READ_WRITE = ['pushes:read', 'pushes:write'];
const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest();

describe('users', () => {
  it('are identified by (issuer, sub): a second sign-in updates the email and last seen, never the id', async () => {
    const first = await newUser({ email: 'old@example.org', emailVerified: false });
    const again = await users.upsertUser({
      issuer: first.issuer,
      subject: first.subject,
      email: 'new@example.org',
      emailVerified: true,
    });
    expect(again).toMatchObject({ id: first.id, email: 'new@example.org', emailVerified: true });
    expect(again.lastSeenAt.getTime()).toBeGreaterThanOrEqual(first.lastSeenAt.getTime());
    expect(again.createdAt).toEqual(first.createdAt);
  });

  it('are two users when two issuers vouch for the same email', async () => {
    const a = await newUser({ issuer: 'https://one.example', email: 'same@example.org' });
    const b = await newUser({ issuer: 'https://two.example', email: 'SAME@example.org' });
    expect(a.id).not.toBe(b.id);
    expect((await users.findUsersByEmail('Same@Example.org')).map((u) => u.id).sort()).toEqual(
      [a.id, b.id].sort(),
    );
  });

  it('refuses an identity without an issuer or a subject', async () => {
    await expect(users.upsertUser(identity({ subject: '' }))).rejects.toBeInstanceOf(UserInputRejected);
  });

  it('lists users with their token counts', async () => {
    const u = await newUser();
    await users.createToken(u.id, { name: 'one', scopes: READ_WRITE });
    await users.createToken(u.id, { name: 'two', scopes: READ_WRITE });
    const listed = (await users.listUsers()).find((x) => x.id === u.id);
    expect(listed).toMatchObject({ id: u.id, issuer: ISSUER, subject: u.subject, tokenCount: 2 });
  });
});

describe('personal tokens', () => {
  it('are spu_ and 43 base64url characters, returned once and stored only as SHA-256', async () => {
    const u = await newUser();
    const { token, value } = await users.createToken(u.id, {
      name: ' laptop ',
      scopes: ['pushes:write', 'pushes:read'],
    });
    expect(value).toMatch(/^spu_[A-Za-z0-9_-]{43}$/);
    expect(token).toEqual({
      id: expect.any(String),
      userId: u.id,
      name: 'laptop',
      scopes: ['pushes:read', 'pushes:write'],
      expiresAt: null,
      lastUsedAt: null,
      createdAt: expect.any(Date),
      regeneratedAt: null,
    });
    const { rows } = await sql<{ token_hash: Buffer; everything: string }>`
      select token_hash, row_to_json(t)::text as everything from personal_token t where id = ${token.id}`.execute(
      db,
    );
    expect(rows[0]!.token_hash.equals(sha256(value))).toBe(true);
    // Neither the value nor its random part is anywhere in the row.
    expect(rows[0]!.everything).not.toContain(value.slice(4));
    expect(JSON.stringify(await users.listTokens(u.id))).not.toContain(value.slice(4));
  });

  it('authenticate as their user and token', async () => {
    const u = await newUser();
    const { token, value } = await users.createToken(u.id, { name: 'ci', scopes: ['pushes:read'] });
    const verified = await users.verify(value);
    expect(verified?.user.id).toBe(u.id);
    expect(verified?.token).toMatchObject({ id: token.id, scopes: ['pushes:read'] });
    expect(verified?.now).toBeInstanceOf(Date);
    expect(await users.verify(`spu_${'A'.repeat(43)}`)).toBeNull();
    expect(await users.verify(value.slice(0, -1))).toBeNull();
    expect(await users.verify(value.slice(4))).toBeNull();
  });

  it('are listed newest first, without values', async () => {
    const u = await newUser();
    await users.createToken(u.id, { name: 'first', scopes: READ_WRITE });
    await users.createToken(u.id, { name: 'second', scopes: ['pushes:read'] });
    const listed = await users.listTokens(u.id);
    expect(listed.map((t) => t.name)).toEqual(['second', 'first']);
    expect(listed.every((t) => !('value' in t))).toBe(true);
  });

  it('have names unique per user, not across users', async () => {
    const [a, b] = [await newUser(), await newUser()];
    await users.createToken(a.id, { name: 'deploy', scopes: READ_WRITE });
    const duplicate = users.createToken(a.id, { name: ' deploy', scopes: ['pushes:read'] });
    await expect(duplicate).rejects.toBeInstanceOf(UserInputRejected);
    await expect(duplicate).rejects.toMatchObject({ fields: { name: [expect.stringMatching(/already/)] } });
    await expect(users.createToken(b.id, { name: 'deploy', scopes: READ_WRITE })).resolves.toBeDefined();
  });

  it('refuse bad settings: no scope, an unknown scope, a name too long, an expiry in the past', async () => {
    const u = await newUser();
    for (const settings of [
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['pushes:admin'] },
      { name: 'x'.repeat(101), scopes: READ_WRITE },
      { name: 'x', scopes: READ_WRITE, expiresAt: new Date(Date.now() - 60_000) },
    ]) {
      await expect(users.createToken(u.id, settings)).rejects.toBeInstanceOf(UserInputRejected);
    }
    expect(await users.listTokens(u.id)).toEqual([]);
  });

  it('regenerate in place: same id, name and scopes, a new value; the old one is refused at once', async () => {
    const u = await newUser();
    const created = await users.createToken(u.id, { name: 'rotate me', scopes: ['pushes:read'] });
    const regenerated = await users.regenerateToken(u.id, created.token.id);
    expect(regenerated.value).not.toBe(created.value);
    expect(regenerated.value).toMatch(/^spu_[A-Za-z0-9_-]{43}$/);
    expect(regenerated.token).toMatchObject({
      id: created.token.id,
      name: 'rotate me',
      scopes: ['pushes:read'],
      regeneratedAt: expect.any(Date),
    });
    expect(await users.verify(created.value)).toBeNull();
    expect((await users.verify(regenerated.value))?.token.id).toBe(created.token.id);
    expect(await users.listTokens(u.id)).toHaveLength(1);
  });

  it('are deleted by revoke', async () => {
    const u = await newUser();
    const { token, value } = await users.createToken(u.id, { name: 'short-lived', scopes: READ_WRITE });
    await users.revokeToken(u.id, token.id);
    expect(await users.verify(value)).toBeNull();
    expect(await users.listTokens(u.id)).toEqual([]);
    await expect(users.revokeToken(u.id, token.id)).rejects.toBeInstanceOf(PersonalTokenNotFound);
  });

  it('are refused once expired (by the database clock)', async () => {
    const u = await newUser();
    const { token, value } = await users.createToken(u.id, {
      name: 'expiring',
      scopes: READ_WRITE,
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    expect(await users.verify(value)).not.toBeNull();
    await sql`update personal_token set created_at = now() - interval '2 hours', expires_at = now() - interval '1 second'
              where id = ${token.id}`.execute(db);
    expect(await users.verify(value)).toBeNull();
  });

  it('belong to their user only: another user’s token id is not found, and stays as it was', async () => {
    const [owner, other] = [await newUser(), await newUser()];
    const { token, value } = await users.createToken(owner.id, { name: 'mine', scopes: READ_WRITE });
    await expect(users.regenerateToken(other.id, token.id)).rejects.toBeInstanceOf(PersonalTokenNotFound);
    await expect(users.revokeToken(other.id, token.id)).rejects.toBeInstanceOf(PersonalTokenNotFound);
    expect(await users.listTokens(other.id)).toEqual([]);
    expect((await users.verify(value))?.user.id).toBe(owner.id);
    // Ids that are not UUIDs name nothing, and never reach the database as a cast error.
    await expect(users.revokeToken(owner.id, 'not-an-id')).rejects.toBeInstanceOf(PersonalTokenNotFound);
    await expect(users.createToken('not-an-id', { name: 'x', scopes: READ_WRITE })).rejects.toBeInstanceOf(
      UserNotFound,
    );
    await expect(users.createToken(randomUUID(), { name: 'x', scopes: READ_WRITE })).rejects.toBeInstanceOf(
      UserNotFound,
    );
  });

  it('record their last use at most once a minute', async () => {
    const u = await newUser();
    const { token } = await users.createToken(u.id, { name: 'used', scopes: READ_WRITE });
    await users.recordUse(token.id);
    const first = (await users.listTokens(u.id))[0]!.lastUsedAt;
    expect(first).toBeInstanceOf(Date);
    await users.recordUse(token.id);
    expect((await users.listTokens(u.id))[0]!.lastUsedAt).toEqual(first);
    await sql`update personal_token set last_used_at = now() - interval '61 seconds' where id = ${token.id}`.execute(
      db,
    );
    await users.recordUse(token.id);
    expect((await users.listTokens(u.id))[0]!.lastUsedAt!.getTime()).toBeGreaterThan(first!.getTime());
  });
});

describe('disabling a user', () => {
  it('revokes all of its tokens at once and refuses new ones until it is enabled again', async () => {
    const u = await newUser();
    const a = await users.createToken(u.id, { name: 'a', scopes: READ_WRITE });
    const b = await users.createToken(u.id, { name: 'b', scopes: ['pushes:read'] });
    const { user, tokensRevoked } = await users.disableUser(u.id);
    expect(tokensRevoked).toBe(2);
    expect(user.disabledAt).toBeInstanceOf(Date);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from personal_token where user_id = ${u.id}`.execute(db);
    expect(rows[0]!.n).toBe(0);
    expect(await users.verify(a.value)).toBeNull();
    expect(await users.verify(b.value)).toBeNull();
    await expect(users.createToken(u.id, { name: 'c', scopes: READ_WRITE })).rejects.toBeInstanceOf(
      UserDisabled,
    );
    await expect(users.regenerateToken(u.id, a.token.id)).rejects.toBeInstanceOf(UserDisabled);
    // Disabling again keeps the first date and revokes nothing more.
    const again = await users.disableUser(u.id);
    expect(again).toEqual({ user, tokensRevoked: 0 });
    // A sign-in of a disabled user leaves it disabled.
    expect((await users.upsertUser(u)).disabledAt).toEqual(user.disabledAt);

    expect((await users.enableUser(u.id)).disabledAt).toBeNull();
    expect(await users.verify(a.value)).toBeNull();
    const c = await users.createToken(u.id, { name: 'c', scopes: READ_WRITE });
    expect((await users.verify(c.value))?.user.id).toBe(u.id);
  });

  it('refuses a token of a disabled user even if one was left in the table', async () => {
    const u = await newUser();
    const { token, value } = await users.createToken(u.id, { name: 'left', scopes: READ_WRITE });
    await sql`update app_user set disabled_at = now() where id = ${u.id}`.execute(db);
    expect(await users.verify(value)).toBeNull();
    expect((await users.listTokens(u.id))[0]?.id).toBe(token.id);
  });

  it('leaves no token behind when a create races it', async () => {
    for (let i = 0; i < 10; i++) {
      const u = await newUser();
      const results = await Promise.allSettled([
        users.createToken(u.id, { name: `race ${i}`, scopes: READ_WRITE }),
        users.disableUser(u.id),
      ]);
      expect(results[1].status).toBe('fulfilled');
      if (results[0].status === 'rejected') expect(results[0].reason).toBeInstanceOf(UserDisabled);
      expect(await users.listTokens(u.id)).toEqual([]);
    }
  });

  it('answers not found for an unknown user', async () => {
    await expect(users.disableUser(randomUUID())).rejects.toBeInstanceOf(UserNotFound);
    await expect(users.enableUser('someone@example.org')).rejects.toBeInstanceOf(UserNotFound);
  });
});
