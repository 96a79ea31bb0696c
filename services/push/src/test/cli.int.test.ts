import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { runCli } from '../cli/run-cli';
import type { User, UserIdentity } from '../domain/user';
import { type UserTokenService, createUserTokenService } from '../domain/user-tokens';
import { createUserRepository } from '../storage/user.repository';
import { type Harness, bearer, createPush, harness } from './support/helpers';

// The push service's operator CLI (`secret-push-push`), run in-process against a real push
// database; the tokens it prints are then used on the real API.

let h: Harness;
let users: UserTokenService;
beforeAll(async () => {
  h = await harness();
  users = createUserTokenService({ store: createUserRepository(h.push.db) });
});
afterAll(() => h.stop());

const cli = (...argv: string[]) => h.push.cli(...argv);
const person = (over: Partial<UserIdentity> = {}): Promise<User> =>
  users.upsertUser({
    issuer: 'https://idp.example',
    subject: `cli-${randomBytes(4).toString('hex')}`,
    email: `${randomBytes(4).toString('hex')}@example.org`,
    emailVerified: true,
    ...over,
  });

interface ListedUser {
  id: string;
  issuer: string;
  subject: string;
  email: string | null;
  email_verified: boolean;
  disabled: boolean;
  token_count: number;
}
const listed = async (id: string): Promise<ListedUser | undefined> => {
  const res = await cli('users', 'list', '--json');
  expect(res.code).toBe(0);
  return (JSON.parse(res.out) as ListedUser[]).find((u) => u.id === id);
};

describe('secret-push-push', () => {
  it('prints its usage: exit 0 with --help, 2 without a command or with an unknown one', async () => {
    const help = await cli('--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('tokens create --user USER_ID --name NAME');
    expect((await cli()).code).toBe(2);
    expect((await cli('users', 'delete', 'x')).code).toBe(2);
    expect((await cli('tokens', 'list')).code).toBe(2);
    expect((await cli('users', 'list', '--bogus')).code).toBe(2);
  });

  it('needs only the database settings, and says which one is missing (exit 2)', async () => {
    const err: string[] = [];
    const code = await runCli(['users', 'list'], { env: {}, out: () => {}, err: (l) => err.push(l) });
    expect(code).toBe(2);
    expect(err.join('\n')).toContain('PUSH_DATABASE_URL');
    const only = await runCli(['users', 'list', '--json'], {
      env: { PUSH_DATABASE_URL: h.push.env.PUSH_DATABASE_URL },
      out: () => {},
      err: () => {},
    });
    expect(only).toBe(0);
  });

  it('migrate: the database is up to date', async () => {
    const res = await cli('migrate');
    expect(res).toEqual({ code: 0, out: 'push database is up to date', err: '' });
  });
});

describe('users list', () => {
  it('shows issuer, sub, email, verification, state and token count (--json, and one line each)', async () => {
    const u = await person({ email: 'List.Me@example.org', emailVerified: false });
    await users.createToken(u.id, { name: 'one', scopes: ['pushes:read'] });
    expect(await listed(u.id)).toEqual({
      id: u.id,
      issuer: 'https://idp.example',
      subject: u.subject,
      email: 'List.Me@example.org',
      email_verified: false,
      disabled: false,
      disabled_at: null,
      token_count: 1,
      created_at: expect.any(String),
      last_seen_at: expect.any(String),
    });
    const human = await cli('users', 'list');
    expect(human.out.split('\n')).toContain(
      `${u.id}\thttps://idp.example\t${u.subject}\tList.Me@example.org (unverified)\tactive\t1 token(s)`,
    );
  });
});

describe('tokens create', () => {
  it('prints a token once (--json) that works on the API as its user', async () => {
    const u = await person();
    const res = await cli('tokens', 'create', '--user', u.id, '--name', 'deploy bot', '--json');
    expect(res.code).toBe(0);
    const out = JSON.parse(res.out);
    expect(out).toEqual({
      id: expect.any(String),
      user_id: u.id,
      name: 'deploy bot',
      scopes: ['pushes:read', 'pushes:write'],
      expires_at: null,
      created_at: expect.any(String),
      last_used_at: null,
      token: expect.stringMatching(/^spu_[A-Za-z0-9_-]{43}$/),
    });
    const created = await createPush(h.push.url, { payload: 'from an operator-made token' }, out.token);
    expect(created.status).toBe(201);
    const mine = await request(h.push.url).get('/api/v2/pushes/active').set(bearer(out.token));
    expect(mine.body.map((p: { url_token: string }) => p.url_token)).toEqual([created.body.url_token]);
    // Listed without its value.
    expect((await cli('users', 'list', '--json')).out).not.toContain(out.token);
  });

  it('takes --scopes and --expires-days, and says in plain output that the value is shown only now', async () => {
    const u = await person();
    const res = await cli(
      'tokens',
      'create',
      '--user',
      u.id,
      '--name',
      'reader',
      '--scopes',
      'pushes:read',
      '--expires-days',
      '7',
    );
    expect(res.code).toBe(0);
    const value = /^token: +(spu_\S+)$/m.exec(res.out)?.[1];
    expect(value).toBeDefined();
    expect(res.out).toMatch(/^scopes: +pushes:read$/m);
    expect(res.out).toContain('The token is shown only now; it is stored as a hash.');
    const [token] = await users.listTokens(u.id);
    const days = (token!.expiresAt!.getTime() - token!.createdAt.getTime()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
    const refused = await createPush(h.push.url, { payload: 'x' }, value);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('insufficient_scope');
  });

  it.each<[string, (u: User) => string[], RegExp]>([
    ['without --user', () => ['--name', 'x'], /needs --user and --name/],
    ['without --name', (u) => ['--user', u.id], /needs --user and --name/],
    [
      'for an unknown user',
      () => ['--user', '00000000-0000-4000-8000-000000000000', '--name', 'x'],
      /no such user/,
    ],
    ['with an unknown scope', (u) => ['--user', u.id, '--name', 'x', '--scopes', 'pushes:admin'], /scopes/],
    ['with a used name', (u) => ['--user', u.id, '--name', 'taken'], /already the name/],
    [
      'with --expires-days 0',
      (u) => ['--user', u.id, '--name', 'x', '--expires-days', '0'],
      /--expires-days/,
    ],
  ])('refuses a token %s (exit 1)', async (_case, args, message) => {
    const u = await person();
    await users.createToken(u.id, { name: 'taken', scopes: ['pushes:read'] });
    const res = await cli('tokens', 'create', ...args(u));
    expect(res.code).toBe(1);
    expect(res.err).toMatch(message);
    expect(res.out).toBe('');
  });
});

describe('users disable and enable', () => {
  it('disables a user named by email and revokes all of its tokens at once; enable lets it get new ones', async () => {
    const u = await person({ email: 'Leaver@Example.org' });
    const a = await users.createToken(u.id, { name: 'a', scopes: ['pushes:read', 'pushes:write'] });
    await users.createToken(u.id, { name: 'b', scopes: ['pushes:read'] });
    const res = await cli('users', 'disable', 'leaver@example.org');
    expect(res.code).toBe(0);
    expect(res.out).toContain(`disabled ${u.id}`);
    expect(res.out).toContain('2 token(s) revoked');
    expect(await listed(u.id)).toMatchObject({ disabled: true, token_count: 0 });
    const refused = await request(h.push.url).get('/api/v2/pushes/active').set(bearer(a.value));
    expect(refused.status).toBe(401);

    const blocked = await cli('tokens', 'create', '--user', u.id, '--name', 'c');
    expect(blocked.code).toBe(1);
    expect(blocked.err).toMatch(/disabled/);

    const enabled = await cli('users', 'enable', u.id);
    expect(enabled.code).toBe(0);
    expect(enabled.out).toContain('stay revoked');
    expect(await listed(u.id)).toMatchObject({ disabled: false, token_count: 0 });
    expect((await cli('tokens', 'create', '--user', u.id, '--name', 'c')).code).toBe(0);
  });

  it('disables by id', async () => {
    const u = await person();
    expect((await cli('users', 'disable', u.id)).code).toBe(0);
    expect(await listed(u.id)).toMatchObject({ disabled: true });
  });

  it('refuses an email shared by users of several issuers, listing them, and disables nobody', async () => {
    const shared = `shared-${randomBytes(3).toString('hex')}@example.org`;
    const one = await person({ issuer: 'https://one.example', email: shared });
    const two = await person({ issuer: 'https://two.example', email: shared.toUpperCase() });
    const res = await cli('users', 'disable', shared);
    expect(res.code).toBe(1);
    expect(res.err).toContain('2 users have the email');
    expect(res.err).toContain(one.id);
    expect(res.err).toContain(two.id);
    expect(res.err).toContain('https://two.example');
    expect(await listed(one.id)).toMatchObject({ disabled: false });
    expect(await listed(two.id)).toMatchObject({ disabled: false });
  });

  it('refuses an unknown id or email (exit 1), and enable by email (ids only)', async () => {
    const unknownEmail = await cli('users', 'disable', 'nobody@example.org');
    expect(unknownEmail.code).toBe(1);
    expect(unknownEmail.err).toMatch(/no user/);
    expect((await cli('users', 'disable', '00000000-0000-4000-8000-000000000000')).code).toBe(1);
    expect((await cli('users', 'disable')).code).toBe(1);
    const byEmail = await cli('users', 'enable', 'someone@example.org');
    expect(byEmail.code).toBe(1);
    expect(byEmail.err).toMatch(/USER_ID/);
  });
});
