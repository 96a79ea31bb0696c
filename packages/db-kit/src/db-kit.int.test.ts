import { randomBytes } from 'node:crypto';
import { type Server, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { type Generated, type Kysely, sql } from 'kysely';
import pg from 'pg';
import {
  type MigrationSet,
  createKysely,
  databaseName,
  dropDatabase,
  ensureDatabase,
  isConnectionError,
  isQueryTimeout,
  migrateDatabase,
  migrateToLatest,
  preparedName,
  withDatabase,
} from './index';

// Needs the local PostgreSQL. db-kit cannot depend on @secret-push/testing (which depends on it), so
// the naming convention of freshDatabase is repeated here: global setup drops `sptest_<epoch>_…`
// databases left behind by crashed runs.
const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const created: string[] = [];

function newDatabaseUrl(label: string): string {
  const name = `sptest_${Math.floor(Date.now() / 1000)}_${label}_${randomBytes(4).toString('hex')}`;
  const url = withDatabase(SERVER_URL, name);
  created.push(url);
  return url;
}

async function databaseExists(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [databaseName(url)]);
    return found.rowCount === 1;
  } finally {
    await client.end();
  }
}

/** A TCP port on 127.0.0.1 where nothing listens. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

/** One plain database for the tests that only need somewhere to connect to. */
let plainUrl: string;
beforeAll(async () => {
  plainUrl = newDatabaseUrl('plain');
  await ensureDatabase(plainUrl);
});

afterAll(async () => {
  await Promise.all(created.map((url) => dropDatabase(url)));
});

// Each migration leaves a trace in `applied`, so applying one twice is visible.
const migrations: MigrationSet = {
  '2026_01_01_0001_create_note': {
    async up(db) {
      await db.schema
        .createTable('note')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('body', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createTable('applied').addColumn('name', 'text').execute();
      await db.insertInto('applied').values({ name: '0001' }).execute();
    },
  },
  '2026_01_02_0001_add_note_tag': {
    async up(db) {
      await db.schema.alterTable('note').addColumn('tag', 'text').execute();
      await db.insertInto('applied').values({ name: '0002' }).execute();
    },
  },
};
const third: MigrationSet = {
  '2026_01_03_0001_index_note_tag': {
    async up(db) {
      await db.schema.createIndex('note_tag').on('note').column('tag').execute();
      await db.insertInto('applied').values({ name: '0003' }).execute();
    },
  },
};

interface TestDB {
  note: { id: Generated<number>; body: string; tag: string | null };
  applied: { name: string };
}

describe('databaseName / withDatabase', () => {
  it('reads and replaces the database of a URL, keeping credentials and options', () => {
    expect(databaseName('postgres://u:p@db:5432/push?sslmode=require')).toBe('push');
    expect(withDatabase('postgres://u:p@db:5432/push?sslmode=require', 'postgres')).toBe(
      'postgres://u:p@db:5432/postgres?sslmode=require',
    );
  });

  it('refuses database names that would need quoting', () => {
    for (const url of [
      'postgres://db/',
      'postgres://db/a%22b',
      'postgres://db/1abc',
      `postgres://db/${'a'.repeat(64)}`,
    ]) {
      expect(() => databaseName(url)).toThrow(/unsupported database name/);
    }
  });
});

describe('ensureDatabase', () => {
  it('creates the database once and is a no-op afterwards, also when several callers race', async () => {
    const url = newDatabaseUrl('ensure');
    expect(await databaseExists(url)).toBe(false);
    await Promise.all([ensureDatabase(url), ensureDatabase(url), ensureDatabase(url)]);
    expect(await databaseExists(url)).toBe(true);
    await expect(ensureDatabase(url)).resolves.toBeUndefined();
    await dropDatabase(url);
    expect(await databaseExists(url)).toBe(false);
    await expect(dropDatabase(url)).resolves.not.toThrow();
  });
});

describe('createKysely', () => {
  let url: string;
  let db: Kysely<TestDB>;
  beforeAll(() => {
    url = plainUrl;
    db = createKysely<TestDB>({ url, poolSize: 2 });
  });
  afterAll(() => db.destroy());

  it('queries the database of its URL', async () => {
    const { rows } = await sql<{ name: string }>`SELECT current_database() AS name`.execute(db);
    expect(rows[0]!.name).toBe(databaseName(url));
  });

  it('opens at most poolSize connections', async () => {
    const backends = () =>
      sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()`.execute(db);
    await Promise.all(Array.from({ length: 6 }, () => sql`SELECT pg_sleep(0.05)`.execute(db)));
    expect((await backends()).rows[0]!.n).toBeLessThanOrEqual(2);
  });

  it('sends a statement marked /*prepared:name*/ as a named prepared statement, and no other', async () => {
    const single = createKysely<TestDB>({ url, poolSize: 1 });
    try {
      const marked = (n: number) => sql<{ n: number }>`/*prepared:db_kit_test*/ SELECT ${n}::int AS n`;
      expect((await marked(1).execute(single)).rows[0]!.n).toBe(1);
      expect((await marked(2).execute(single)).rows[0]!.n).toBe(2); // the same statement, new values
      await sql`SELECT 3 AS unmarked`.execute(single);
      // One connection: what it has prepared is what this pool sent named.
      const { rows } = await sql<{
        name: string;
        statement: string;
      }>`SELECT name, statement FROM pg_prepared_statements`.execute(single);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.name).toBe(preparedName(rows[0]!.statement));
      expect(rows[0]!.name).toMatch(/^db_kit_test_[0-9a-f]{12}$/);
    } finally {
      await single.destroy();
    }
    // Two texts under one marker get two names; no marker, no name.
    expect(preparedName('/*prepared:a*/ SELECT 1')).not.toBe(preparedName('/*prepared:a*/ SELECT 2'));
    expect(preparedName('SELECT 1 /*prepared:a*/')).toBeUndefined();
  });

  it('survives the server closing an idle connection (no crash), and reconnects', async () => {
    await sql`SELECT 1`.execute(db); // leaves an idle client in the pool
    const admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    try {
      const killed = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [databaseName(url)],
      );
      expect(killed.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    await new Promise((r) => setTimeout(r, 100));
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(db);
    expect(rows[0]!.one).toBe(1);
  });
});

describe('createKysely deadlines', () => {
  const pid = async (db: Kysely<TestDB>) =>
    (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(db)).rows[0]!.pid;
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e,
    );

  it('sets statement_timeout: the server cancels a long statement (57014), a connection-class error, and the session stays usable', async () => {
    const db = createKysely<TestDB>({ url: plainUrl, poolSize: 1, statementTimeoutMs: 200 });
    try {
      const { rows } = await sql<{ t: string }>`SELECT current_setting('statement_timeout') AS t`.execute(db);
      expect(rows[0]!.t).toBe('200ms');
      const before = await pid(db);
      const started = Date.now();
      const err = await failure(sql`SELECT pg_sleep(2)`.execute(db));
      expect(Date.now() - started).toBeLessThan(1500);
      expect((err as { code?: string }).code).toBe('57014');
      expect(isConnectionError(err)).toBe(true);
      expect(await pid(db)).toBe(before); // a cancelled statement leaves a healthy session
    } finally {
      await db.destroy();
    }
  });

  it('query_timeout: past our deadline the statement rejects as a connection-class error, and its connection is destroyed, not reused', async () => {
    const db = createKysely<TestDB>({ url: plainUrl, poolSize: 1, queryTimeoutMs: 200 });
    try {
      const before = await pid(db);
      const started = Date.now();
      const err = await failure(sql`SELECT pg_sleep(3)`.execute(db));
      expect(Date.now() - started).toBeLessThan(1500);
      expect(isQueryTimeout(err)).toBe(true);
      expect(isConnectionError(err)).toBe(true);
      // The only pooled connection still has pg_sleep running on it: had it gone back to the pool,
      // this statement would wait behind it (and time out too). It gets a new session at once.
      const next = Date.now();
      const after = await pid(db);
      expect(Date.now() - next).toBeLessThan(1000);
      expect(after).not.toBe(before);
    } finally {
      await db.destroy();
    }
  });

  it('query_timeout in a transaction: the rollback does not wait another deadline, the connection is destroyed', async () => {
    const db = createKysely<TestDB>({ url: plainUrl, poolSize: 1, queryTimeoutMs: 300 });
    try {
      const before = await pid(db);
      const started = Date.now();
      const err = await failure(
        db.transaction().execute(async (trx) => {
          await sql`SELECT 1`.execute(trx);
          await sql`SELECT pg_sleep(3)`.execute(trx);
        }),
      );
      expect(isConnectionError(err)).toBe(true);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(await pid(db)).not.toBe(before);
    } finally {
      await db.destroy();
    }
  });

  it('connectTimeoutMs also bounds the wait for a free pooled connection', async () => {
    const db = createKysely<TestDB>({ url: plainUrl, poolSize: 1, connectTimeoutMs: 200 });
    try {
      await pid(db); // the pool's one connection exists
      const busy = sql`SELECT pg_sleep(1.5)`.execute(db);
      const started = Date.now();
      const err = await failure(sql`SELECT 1`.execute(db));
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(150);
      expect(elapsed).toBeLessThan(1000);
      expect(isConnectionError(err)).toBe(true);
      await busy;
    } finally {
      await db.destroy();
    }
  });
});

describe('migrations', () => {
  it('migrateDatabase creates the database, applies pending migrations once and reports them', async () => {
    const url = newDatabaseUrl('migrate');
    expect(await migrateDatabase(url, migrations)).toEqual([
      '2026_01_01_0001_create_note',
      '2026_01_02_0001_add_note_tag',
    ]);
    expect(await migrateDatabase(url, migrations)).toEqual([]);
    expect(await migrateDatabase(url, { ...migrations, ...third })).toEqual([
      '2026_01_03_0001_index_note_tag',
    ]);

    const db = createKysely<TestDB>({ url, poolSize: 1 });
    try {
      const applied = await db.selectFrom('applied').select('name').orderBy('name').execute();
      expect(applied.map((r) => r.name)).toEqual(['0001', '0002', '0003']);
      await db.insertInto('note').values({ body: 'b', tag: 't' }).execute();
    } finally {
      await db.destroy();
    }
  });

  it('applies each migration exactly once when two processes migrate at the same time', async () => {
    const url = newDatabaseUrl('race');
    await ensureDatabase(url);
    const a = createKysely<TestDB>({ url, poolSize: 2 });
    const b = createKysely<TestDB>({ url, poolSize: 2 });
    try {
      const [ra, rb] = await Promise.all([migrateToLatest(a, migrations), migrateToLatest(b, migrations)]);
      expect([...ra, ...rb].sort()).toEqual(Object.keys(migrations));
      const applied = await a.selectFrom('applied').select('name').orderBy('name').execute();
      expect(applied.map((r) => r.name)).toEqual(['0001', '0002']);
    } finally {
      await a.destroy();
      await b.destroy();
    }
  });

  it('throws the error of a failing migration; the run is one transaction, so nothing of it stays', async () => {
    const url = newDatabaseUrl('failing');
    const broken: MigrationSet = {
      ...migrations,
      '2026_01_04_0001_broken': {
        async up(db) {
          await sql`SELECT * FROM no_such_table`.execute(db);
        },
      },
    };
    await expect(migrateDatabase(url, broken)).rejects.toThrow(/no_such_table/);
    expect(await migrateDatabase(url, migrations)).toEqual(Object.keys(migrations));
  });
});

describe('isConnectionError', () => {
  it('is true for a refused connection (127.0.0.1 and localhost)', async () => {
    const port = await closedPort();
    for (const host of ['127.0.0.1', 'localhost']) {
      const db = createKysely({ url: `postgres://postgres@${host}:${port}/postgres` });
      try {
        const err = await sql`SELECT 1`.execute(db).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toBeDefined();
        expect(isConnectionError(err)).toBe(true);
      } finally {
        await db.destroy();
      }
    }
  });

  it('is true for a transaction whose connection dies inside it (its rollback cannot be sent)', async () => {
    const db = createKysely({ url: SERVER_URL });
    const killer = new pg.Client({ connectionString: SERVER_URL });
    await killer.connect();
    try {
      const err = await db
        .transaction()
        .execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx);
          await killer.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
          // The client sees its socket end first: what it is then asked to send fails at once.
          await new Promise((r) => setTimeout(r, 200));
          await sql`SELECT 1`.execute(trx);
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(err).toBeDefined();
      expect(isConnectionError(err)).toBe(true);
    } finally {
      await killer.end();
      await db.destroy();
    }
  });

  it('is true, and fails within connectTimeoutMs, when the server accepts but never answers', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const silent: Server = createServer((s) => sockets.add(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const { port } = silent.address() as AddressInfo;
    const db = createKysely({ url: `postgres://postgres@127.0.0.1:${port}/postgres`, connectTimeoutMs: 200 });
    try {
      const started = Date.now();
      const err = await sql`SELECT 1`.execute(db).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(Date.now() - started).toBeLessThan(2000);
      expect(isConnectionError(err)).toBe(true);
    } finally {
      await db.destroy();
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
    }
  });

  it('is true when the server ends the session (admin shutdown)', async () => {
    const client = new pg.Client({ connectionString: plainUrl });
    client.on('error', () => {});
    await client.connect();
    const admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    try {
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const pending = client.query('SELECT pg_sleep(5)').then(
        () => undefined,
        (e: unknown) => e,
      );
      await new Promise((r) => setTimeout(r, 100));
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      expect(isConnectionError(await pending)).toBe(true);
    } finally {
      await admin.end();
      await client.end().catch(() => {});
    }
  });

  it('is false for SQL errors', async () => {
    const db = createKysely({ url: plainUrl, poolSize: 1 });
    try {
      for (const query of [
        sql`SELECT * FROM no_such_table`,
        sql`SELECT 1/0`,
        sql`SELEC 1`,
        sql`SELECT 'x'::int`,
      ]) {
        const err = await query.execute(db).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(Error);
        expect(isConnectionError(err)).toBe(false);
      }
    } finally {
      await db.destroy();
    }
  });

  it('is true for a statement stopped by statement_timeout (57014) or by our query_timeout', () => {
    expect(
      isConnectionError(
        Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      ),
    ).toBe(true);
    expect(isConnectionError(new Error('Query read timeout'))).toBe(true);
    expect(isQueryTimeout(new Error('Query read timeout'))).toBe(true);
    expect(isQueryTimeout(new Error('Connection terminated'))).toBe(false);
  });

  it('is false for anything that is not an error object', () => {
    for (const v of [undefined, null, 'ECONNREFUSED', 42, {}]) expect(isConnectionError(v)).toBe(false);
    expect(isConnectionError(new Error('duplicate key value violates unique constraint'))).toBe(false);
    expect(isConnectionError(new AggregateError([new Error('x')]))).toBe(false);
  });
});
