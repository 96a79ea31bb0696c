import { sql } from 'kysely';
import { findAccountByEmail } from '../storage/account.repository';
import { type TestAuth, startAuth } from '../testing';
import { verifyPassword } from '../users/password';

interface IssuedUser {
  id: string;
  email: string;
  password: string;
}

let auth: TestAuth;
beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.stop());

const account = async (email: string) => {
  const row = await findAccountByEmail(auth.db, email);
  if (!row) throw new Error(`no account ${email}`);
  return row;
};

/** Every column of every account row, as text: what a copy of the database would show. */
const dump = async () =>
  (
    await sql<{ dump: string | null }>`select string_agg(t::text, ' ') as dump from account t`.execute(
      auth.db,
    )
  ).rows[0]!.dump ?? '';

const list = async () => {
  const res = await auth.cli('users', 'list', '--json');
  expect(res.code).toBe(0);
  return JSON.parse(res.out) as {
    id: string;
    email: string;
    created_at: string;
    disabled: boolean;
    mfa: boolean;
    email_verified: boolean;
  }[];
};

describe('secret-push-auth users', () => {
  let alice: IssuedUser;
  const bobPassword = 'bob has a long passphrase';

  it('creates a user with a generated password, shown once and stored only as a hash', async () => {
    const res = await auth.cli('users', 'create', '--email', '  Alice@Example.ORG ', '--json');
    expect(res).toMatchObject({ code: 0, err: '' });
    alice = JSON.parse(res.out) as IssuedUser;
    expect(alice).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'alice@example.org',
      password: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
    });

    const row = await account('alice@example.org');
    expect(row).toMatchObject({
      id: alice.id,
      totp_secret: null,
      recovery_code_hashes: null,
      disabled_at: null,
    });
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword(row.password_hash, alice.password)).toBe(true);
    expect(await dump()).not.toContain(alice.password);
  });

  it('creates a user with the password read from stdin, without one trailing newline', async () => {
    const res = await auth.cli(
      { stdin: `${bobPassword}\n` },
      'users',
      'create',
      '--email',
      'bob@example.org',
      '--password-stdin',
      '--json',
    );
    expect(res).toMatchObject({ code: 0, err: '' });
    const bob = JSON.parse(res.out) as Partial<IssuedUser>;
    expect(bob).toEqual({ id: expect.any(String), email: 'bob@example.org' });
    expect(res.out).not.toContain(bobPassword);
    const row = await account('bob@example.org');
    expect(await verifyPassword(row.password_hash, bobPassword)).toBe(true);
    expect(await verifyPassword(row.password_hash, `${bobPassword}\n`)).toBe(false);
    expect(await dump()).not.toContain(bobPassword);
  });

  it('prints the generated password once, in human-readable lines, without --json', async () => {
    const res = await auth.cli('users', 'create', '--email', 'carol@example.org');
    expect(res.code).toBe(0);
    expect(res.out).toMatch(/^id: +[0-9a-f-]{36}$/m);
    expect(res.out).toMatch(/^email: +carol@example.org$/m);
    expect(res.out).toMatch(/^password: +[A-Za-z0-9_-]{24}$/m);
    expect(res.out).toMatch(/shown only now/);
  });

  it('refuses a second user with the same email, however it is spelled', async () => {
    for (const email of ['alice@example.org', 'ALICE@example.org ']) {
      const res = await auth.cli('users', 'create', '--email', email);
      expect(res.code).toBe(1);
      expect(res.err).toBe('a user with this email already exists');
      expect(res.out).toBe('');
    }
    expect((await list()).filter((u) => u.email === 'alice@example.org')).toHaveLength(1);
  });

  it.each([
    [['users', 'create', '--email', 'not-an-email'], /"not-an-email" is not a valid email address/],
    [['users', 'create', '--email', 'two@@example.org'], /not a valid email address/],
    [['users', 'create', '--email', 'with space@example.org'], /not a valid email address/],
    [['users', 'create'], /users create needs --email/],
    [['users', 'disable'], /users disable needs an EMAIL/],
    [['users', 'disable', 'nobody@example.org'], /^no user with email nobody@example.org$/],
    [['users', 'enable', 'nobody@example.org'], /^no user with email nobody@example.org$/],
    [['users', 'reset-password', 'Nobody@example.org'], /^no user with email nobody@example.org$/],
    [['users', 'reset-mfa', 'nobody@example.org'], /^no user with email nobody@example.org$/],
  ])('refuses %j (exit 1)', async (argv, message) => {
    const res = await auth.cli(...argv);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(message);
    expect(res.out).toBe('');
  });

  it('refuses an email longer than 254 characters (exit 1)', async () => {
    const res = await auth.cli('users', 'create', '--email', `${'a'.repeat(249)}@x.org`);
    expect(res.code).toBe(1);
    expect(res.err).toBe('an email address is at most 254 characters');
  });

  it.each([
    ['too short', 'short pass\n', /at least 12 characters/],
    ['the email', 'dave@example.org\n', /must not be the email address/],
    ['too long', 'x'.repeat(2000), /at most 1024 bytes/],
    [
      'not UTF-8',
      Buffer.from([0x61, 0xff, 0xfe, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61]),
      /not valid UTF-8/,
    ],
  ])('refuses a password on stdin that is %s (exit 1), creating nobody', async (_what, stdin, message) => {
    const res = await auth.cli(
      { stdin },
      'users',
      'create',
      '--email',
      'dave@example.org',
      '--password-stdin',
    );
    expect(res.code).toBe(1);
    expect(res.err).toMatch(message);
    expect((await list()).map((u) => u.email)).not.toContain('dave@example.org');
  });

  it('lists every user, without secrets, with their state', async () => {
    const users = await list();
    expect(users.map((u) => u.email)).toEqual(['alice@example.org', 'bob@example.org', 'carol@example.org']);
    expect(users[0]).toEqual({
      id: alice.id,
      email: 'alice@example.org',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      disabled: false,
      mfa: false,
      mfa_locked: false,
      // the operator gave the address: verified (self sign-ups are not; signup.int.test.ts)
      email_verified: true,
    });
    const human = await auth.cli('users', 'list');
    expect(human.out).toMatch(
      new RegExp(`^${alice.id}\talice@example.org\t\\S+\tactive, no mfa, email verified$`, 'm'),
    );
    expect(human.out).not.toMatch(/scrypt/);
  });

  it('disables and enables a user', async () => {
    const res = await auth.cli('users', 'disable', 'BOB@example.org');
    expect(res.code).toBe(0);
    expect(res.out).toMatch(/^disabled bob@example.org/);
    const disabledAt = (await account('bob@example.org')).disabled_at;
    expect(disabledAt).toBeInstanceOf(Date);
    expect((await list()).find((u) => u.email === 'bob@example.org')).toMatchObject({ disabled: true });

    // Disabling again keeps the time it was first disabled.
    expect((await auth.cli('users', 'disable', 'bob@example.org')).code).toBe(0);
    expect((await account('bob@example.org')).disabled_at).toEqual(disabledAt);

    expect((await auth.cli('users', 'enable', 'bob@example.org')).code).toBe(0);
    expect((await account('bob@example.org')).disabled_at).toBeNull();
    expect((await list()).find((u) => u.email === 'bob@example.org')).toMatchObject({ disabled: false });
  });

  it('resets a password: the new one verifies, the old one no longer does', async () => {
    const before = await account('alice@example.org');
    const res = await auth.cli('users', 'reset-password', 'alice@example.org', '--json');
    expect(res.code).toBe(0);
    const reset = JSON.parse(res.out) as IssuedUser;
    expect(reset).toEqual({
      id: alice.id,
      email: 'alice@example.org',
      password: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
    });
    expect(reset.password).not.toBe(alice.password);

    const after = await account('alice@example.org');
    expect(await verifyPassword(after.password_hash, reset.password)).toBe(true);
    expect(await verifyPassword(after.password_hash, alice.password)).toBe(false);
    expect(after.password_changed_at.getTime()).toBeGreaterThan(before.password_changed_at.getTime());
    expect(after.updated_at.getTime()).toBeGreaterThan(before.updated_at.getTime());
    expect(await dump()).not.toContain(reset.password);

    const human = await auth.cli('users', 'reset-password', 'alice@example.org');
    expect(human.out).toMatch(/^password: +[A-Za-z0-9_-]{24}$/m);
    expect(human.out).toMatch(/shown only now/);
  });

  it('resets the second factor: TOTP secret and recovery codes', async () => {
    const carol = await account('carol@example.org');
    const sealed = auth.totpSecrets.seal(carol.id, 'JBSWY3DPEHPK3PXP');
    await sql`update account set totp_secret = ${sealed}, recovery_code_hashes = array['h1', 'h2']
              where email = 'carol@example.org'`.execute(auth.db);
    expect((await list()).find((u) => u.email === 'carol@example.org')).toMatchObject({ mfa: true });

    const res = await auth.cli('users', 'reset-mfa', 'carol@example.org');
    expect(res.code).toBe(0);
    expect(res.out).toMatch(/carol@example.org/);
    expect(await account('carol@example.org')).toMatchObject({
      totp_secret: null,
      recovery_code_hashes: null,
    });
    expect((await list()).find((u) => u.email === 'carol@example.org')).toMatchObject({ mfa: false });
  });

  it('answers an unknown users command with the usage (exit 2)', async () => {
    const res = await auth.cli('users', 'delete', 'alice@example.org');
    expect(res.code).toBe(2);
    expect(res.err).toMatch(/users reset-mfa EMAIL/);
  });
});
