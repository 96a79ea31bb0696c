import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type * as oidc from 'openid-client';
import { DecryptionError, KeyRing } from '@secret-push/key-ring';
import { type TestDatabase, freshDatabase } from '@secret-push/testing';
import type { AuthDatabase } from '../storage/database';
import { authMigrationSet, runAuthMigrations } from '../storage/migrations';
import { type TestAuth, startAuth } from '../testing';
import { checkSecondFactor } from '../users/second-factor';
import { generateTotpSecret, totpCodeAt } from '../users/totp';
import { totpResealer, totpSecrets } from '../users/totp-secrets';
import { Browser, REDIRECT_URI, authorize, relyingParty, submit } from './support/relying-party';

// The auth service's data key (AUTH_DATA_KEYS) against a real PostgreSQL and auth service: the
// migration that seals the TOTP secrets stored in clear, key rotation (the first key seals, every
// key opens, the migrate command re-seals), and a sign-in with a code under a rotated ring.

const STEP_MS = 30_000;
const keyOf = (id: string) => ({ id, key: randomBytes(32) });
const keyA = keyOf('2026-a');
const keyB = keyOf('2026-b');
const ringA = totpSecrets(new KeyRing([keyA]));
const ringBA = totpSecrets(new KeyRing([keyB, keyA]));
const ringB = totpSecrets(new KeyRing([keyB]));
const envOf = (...keys: { id: string; key: Buffer }[]) =>
  keys.map((k) => `${k.id}:${k.key.toString('base64')}`).join(',');

/** The migrations before the one that seals the TOTP secrets: the database as it was. */
function migrationsBeforeSealing() {
  const all = authMigrationSet();
  return Object.fromEntries(Object.entries(all).filter(([name]) => name < '2026_11_26_0002'));
}

async function accountWithClearSecret(db: TestDatabase<AuthDatabase>['db'], email: string) {
  const secret = generateTotpSecret();
  const row = await sql<{ id: string }>`insert into account (email, password_hash, totp_secret)
    values (${email}, 'scrypt$x', ${secret}) returning id`.execute(db);
  return { id: row.rows[0]!.id, secret };
}

const storedSecret = async (db: TestDatabase<AuthDatabase>['db'], id: string) =>
  (await sql<{ totp_secret: string }>`select totp_secret from account where id = ${id}`.execute(db)).rows[0]!
    .totp_secret;

describe('the migration sealing TOTP secrets, and key rotation', () => {
  let database: TestDatabase<AuthDatabase>;
  beforeAll(async () => {
    database = await freshDatabase<AuthDatabase>('auth', migrationsBeforeSealing());
  });
  afterAll(() => database.drop());

  it('refuses to run without the data key while secrets are in clear, and changes nothing', async () => {
    const clear = await accountWithClearSecret(database.db, 'clear@example.org');
    await expect(runAuthMigrations(database.url)).rejects.toThrow(/1 TOTP secret.*AUTH_DATA_KEYS/);
    expect(await storedSecret(database.db, clear.id)).toBe(clear.secret);
    await database.db.deleteFrom('account').execute();
  });

  it('seals every clear secret, then refuses a clear one; a code of the secret still signs in', async () => {
    const one = await accountWithClearSecret(database.db, 'one@example.org');
    const two = await accountWithClearSecret(database.db, 'two@example.org');
    const result = await runAuthMigrations(database.url, totpResealer(ringA));
    // The sealing, then the migrations after it.
    expect(result.applied).toEqual(['2026_11_26_0002_seal_totp_secrets', '2026_12_01_0001_auth_email']);
    expect(result.resealed).toBe(0);

    const rows = await sql<{ totp_secret: string }>`select totp_secret from account`.execute(database.db);
    for (const { totp_secret } of rows.rows) expect(totp_secret).toMatch(/^sealed:2026-a:/);
    const dump = JSON.stringify(rows.rows);
    expect(dump).not.toContain(one.secret);
    expect(dump).not.toContain(two.secret);

    const check = await checkSecondFactor(database.db, ringA, one.id, totpCodeAt(one.secret));
    expect(check).toEqual({ verified: true, method: 'totp' });
    // The sealed secret of one account does not open for another.
    const sealedOne = await storedSecret(database.db, one.id);
    expect(() => ringA.open(two.id, sealedOne)).toThrow(DecryptionError);
    await expect(
      sql`update account set totp_secret = ${one.secret} where id = ${one.id}`.execute(database.db),
    ).rejects.toThrow(/account_totp_secret_sealed/);
  });

  it('keeps old secrets readable after a rotation, and re-seals them with the new first key', async () => {
    const { rows } = await sql<{
      id: string;
    }>`select id from account where email = 'two@example.org'`.execute(database.db);
    const id = rows[0]!.id;
    const sealedByA = await storedSecret(database.db, id);
    const secret = ringA.open(id, sealedByA);

    // The new key first, the old one still in the ring: the old secret opens, new ones use B.
    const later = totpCodeAt(secret, Date.now() + STEP_MS);
    expect(await checkSecondFactor(database.db, ringBA, id, later)).toEqual({
      verified: true,
      method: 'totp',
    });
    expect(ringBA.seal(id, secret)).toMatch(/^sealed:2026-b:/);
    expect(() => ringB.open(id, sealedByA)).toThrow(DecryptionError);

    // The migrate command re-seals with B; then the old key can go.
    const result = await runAuthMigrations(database.url, totpResealer(ringBA));
    expect(result).toEqual({ applied: [], resealed: 2 });
    const sealedByB = await storedSecret(database.db, id);
    expect(sealedByB).toMatch(/^sealed:2026-b:/);
    expect(ringB.open(id, sealedByB)).toBe(secret);
    expect(await runAuthMigrations(database.url, totpResealer(ringB))).toEqual({ applied: [], resealed: 0 });
  });
});

describe('a sign-in with a code under a rotated data key ring', () => {
  let auth: TestAuth;
  let rp: oidc.Configuration;
  beforeAll(async () => {
    auth = await startAuth({ env: { AUTH_DATA_KEYS: envOf(keyA) } });
    rp = (await relyingParty(auth)).rp;
  });
  afterAll(() => auth.stop());

  it('signs in on a replica whose ring has a new first key, with a secret sealed by the old one', async () => {
    const user = await auth.createUser('rotated@example.org');
    const secret = generateTotpSecret();
    await sql`update account set totp_secret = ${ringA.seal(user.id, secret)} where id = ${user.id}`.execute(
      auth.db,
    );
    const rotated = await auth.startReplica({ env: { AUTH_DATA_KEYS: envOf(keyB, keyA) } });
    try {
      const b = new Browser();
      const started = await authorize(auth, rp, b);
      const second = await submit(
        auth,
        b,
        started.page,
        { email: user.email, password: user.password },
        rotated.url,
      );
      expect(second.body).toContain('<h1>Two-factor authentication</h1>');
      const back = await submit(auth, b, second, { code: totpCodeAt(secret) }, rotated.url);
      expect(back.status).toBe(303);
      expect(back.location).toMatch(new RegExp(`^${REDIRECT_URI}\\?code=`));
    } finally {
      await rotated.close();
    }
  });
});
