import { sql } from 'kysely';
import type { Provider } from 'oidc-provider';
import { createKysely } from '@secret-push/db-kit';
import { type TestDatabase, freshDatabase } from '@secret-push/testing';
import { loadAuthConfig } from '../config';
import { ClientCache, installClientCache } from '../provider/client-cache';
import { createProvider } from '../provider/create-provider';
import type { AuthDatabase } from './database';
import { createKyselyAdapter, storageId } from './kysely-adapter';
import { authMigrations } from './migrations';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let database: TestDatabase<AuthDatabase>;
/** Every statement sent through `db` (the adapter's pool), by its text. */
let statements: string[] = [];
let db: ReturnType<typeof createKysely<AuthDatabase>>;
beforeAll(async () => {
  database = await freshDatabase<AuthDatabase>('adapter', authMigrations);
  db = createKysely<AuthDatabase>({ url: database.url, poolSize: 4, onQuery: (s) => statements.push(s) });
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});
beforeEach(() => {
  statements = [];
});

const inserts = () => statements.filter((s) => /insert into oidc_payload/.test(s)).length;
const selects = () =>
  statements.filter((s) => /select model, id, payload, consumed_at from oidc_payload/.test(s)).length;
const token = (n: number) => ({ jti: `tok-${n}`, kind: 'ClientCredentials', clientId: 'c1', n });

describe('the adapter sends what one turn of the event loop asks as one statement', () => {
  it('writes tokens issued together in one insert, each row as asked, each caller answered', async () => {
    const Adapter = createKyselyAdapter(db);
    const store = new Adapter('ClientCredentials');
    const ids = Array.from({ length: 12 }, (_, i) => `batch-${i}-${Date.now()}`);
    await Promise.all(ids.map((id, i) => store.upsert(id, token(i), 600)));
    expect(inserts()).toBe(1);
    const rows = await db
      .selectFrom('oidc_payload')
      .select(['id', 'payload', 'client_id', sql<number>`extract(epoch from expires_at - now())`.as('ttl')])
      .where('model', '=', 'ClientCredentials')
      .where(
        'id',
        'in',
        ids.map((id) => storageId('ClientCredentials', id)),
      )
      .execute();
    expect(rows).toHaveLength(12);
    for (const row of rows) {
      expect(row.client_id).toBe('c1');
      expect(Number(row.ttl)).toBeGreaterThan(590);
      expect(row.payload).not.toHaveProperty('jti'); // the id is the credential, never stored
    }
    // And read back together: one select for all, the unknown one absent.
    statements = [];
    const found = await Promise.all([...ids, 'unknown'].map((id) => store.find(id)));
    expect(selects()).toBe(1);
    expect(found.slice(0, 12).map((p) => (p as { n: number }).n)).toEqual(ids.map((_, i) => i));
    expect(found[12]).toBeUndefined();
  });

  it('keeps the later of two writes of one row in the same turn', async () => {
    const Adapter = createKyselyAdapter(db);
    const store = new Adapter('Session');
    await Promise.all([store.upsert('same-row', { n: 1 }, 600), store.upsert('same-row', { n: 2 }, 600)]);
    expect(inserts()).toBe(1);
    expect(await store.find('same-row')).toMatchObject({ n: 2 });
  });

  it('fails only the write that cannot be stored, not the others sent with it', async () => {
    const Adapter = createKyselyAdapter(db);
    const store = new Adapter('Session');
    // jsonb refuses \u0000: the batch fails, and each write is then tried on its own.
    const results = await Promise.allSettled([
      store.upsert('good-1', { n: 1 }, 600),
      store.upsert('bad', { text: 'a\u0000b' }, 600),
      store.upsert('good-2', { n: 2 }, 600),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await store.find('good-1')).toMatchObject({ n: 1 });
    expect(await store.find('good-2')).toMatchObject({ n: 2 });
    expect(await store.find('bad')).toBeUndefined();
  });
});

describe('issued client-credentials tokens commit without waiting for the WAL flush', () => {
  it('only inside their own statement: the session keeps the server setting', async () => {
    const single = createKysely<AuthDatabase>({ url: database.url, poolSize: 1 });
    try {
      const setting = async () =>
        (await sql<{ s: string }>`select current_setting('synchronous_commit') as s`.execute(single)).rows[0]!
          .s;
      const before = await setting();
      const Adapter = createKyselyAdapter(single);
      await Promise.all(
        [1, 2].map((n) => new Adapter('ClientCredentials').upsert(`async-${n}`, token(n), 60)),
      );
      expect(await setting()).toBe(before);
      // Committed: another connection sees them at once.
      const seen = await db
        .selectFrom('oidc_payload')
        .select('id')
        .where(
          'id',
          'in',
          [1, 2].map((n) => storageId('ClientCredentials', `async-${n}`)),
        )
        .execute();
      expect(seen).toHaveLength(2);
    } finally {
      await single.destroy();
    }
  });
});

describe('the client cache', () => {
  const env = {
    NODE_ENV: 'test',
    AUTH_ISSUER: 'http://127.0.0.1:1',
    AUTH_DATABASE_URL: 'postgres://unused/unused',
    AUTH_REDIS_URL: 'redis://unused',
    AUTH_DATA_KEYS: `test:${Buffer.alloc(32, 7).toString('base64')}`,
  };
  const metadata = (secret: string) => ({
    client_id: 'cached-client',
    client_secret: secret,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic' as const,
    scope: 'pushes:read',
  });
  let provider: Provider;
  let Adapter: ReturnType<typeof createKyselyAdapter>;
  beforeAll(() => {
    const cache = new ClientCache({ ttlSeconds: 0.5 });
    Adapter = createKyselyAdapter(db, { clientChanged: (id) => cache.invalidate(id) });
    provider = createProvider(loadAuthConfig(env), Adapter);
    installClientCache(provider, cache);
  });
  const secretOf = async () => (await provider.Client.find('cached-client'))?.clientSecret;

  it('reuses a client read less than its TTL ago, and reads it again after', async () => {
    await new Adapter('Client').upsert('cached-client', metadata('one'), 0);
    statements = [];
    expect(await secretOf()).toBe('one');
    expect(await secretOf()).toBe('one');
    expect(selects()).toBe(1);
    // Changed by another process (the CLI, a replica): seen here once the TTL has passed.
    await sql`update oidc_payload set payload = ${JSON.stringify(metadata('two'))}::jsonb
              where model = 'Client' and id = 'cached-client'`.execute(db);
    await sleep(600);
    expect(await secretOf()).toBe('two');
    // Deleted by another process: unknown once the TTL has passed.
    await sql`delete from oidc_payload where model = 'Client' and id = 'cached-client'`.execute(db);
    await sleep(600);
    expect(await secretOf()).toBeUndefined();
  });

  it('forgets a client at once when it is written or deleted through this process', async () => {
    const store = new Adapter('Client');
    await store.upsert('cached-client', metadata('one'), 0);
    expect(await secretOf()).toBe('one');
    await store.upsert('cached-client', metadata('rotated'), 0);
    expect(await secretOf()).toBe('rotated');
    await store.destroy('cached-client');
    expect(await secretOf()).toBeUndefined();
  });

  it('does not keep what a lookup read while the client was being changed here', async () => {
    const store = new Adapter('Client');
    await store.upsert('cached-client', metadata('before'), 0);
    const lookup = secretOf(); // reads the row as it was before the write below
    await store.upsert('cached-client', metadata('after'), 0);
    await lookup;
    expect(await secretOf()).toBe('after');
  });

  it('does not remember a client that was not found', async () => {
    await new Adapter('Client').destroy('cached-client');
    expect(await secretOf()).toBeUndefined();
    await sql`insert into oidc_payload (model, id, payload, client_id)
              values ('Client', 'cached-client', ${JSON.stringify(metadata('new'))}::jsonb, 'cached-client')`.execute(
      db,
    );
    expect(await secretOf()).toBe('new');
  });
});
