import { type KyselyPlugin, sql } from 'kysely';
import { type ClientCredentials, type TestAuth, startAuth } from '../testing';
import { introspect, postForm } from './support/helpers';
import { deleteExpiredPayloads } from '../storage/oidc-payload.repository';
import { CLIENT_CACHE_SECONDS } from '../provider/client-cache';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let auth: TestAuth;
beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.stop());

describe('what the database holds', () => {
  it('never holds a client secret or an access token in plain text', async () => {
    const client = await auth.createClient();
    const token = await auth.token(client);
    const { rows } = await sql<{
      dump: string;
    }>`select string_agg(t::text, ' ') as dump from oidc_payload t`.execute(auth.db);
    const dump = rows[0]!.dump;
    expect(dump).toContain(client.client_id);
    expect(dump).not.toContain(client.client_secret);
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(auth.resourceServer.client_secret);
  });
});

describe('purge of expired rows', () => {
  it('deletes tokens that expired longer ago than the grace period, and nothing else', async () => {
    const client = await auth.createClient('pushes:read');
    const [old, live] = [await auth.token(client), await auth.token(client)];
    await sql`update oidc_payload set expires_at = now() - interval '2 hours'
              where model = 'ClientCredentials' and id = encode(sha256(${old}::bytea), 'hex')`.execute(
      auth.db,
    );
    expect(await deleteExpiredPayloads(auth.db, 3600)).toBe(1);
    expect((await introspect(auth.issuer, auth.resourceServer, live)).body.active).toBe(true);
    expect((await introspect(auth.issuer, auth.resourceServer, old)).body).toEqual({ active: false });
  });

  const model = 'PurgeTest';
  /** `n` rows of `model` named `${prefix}-1…n`, expiring at `expiresAt` (an SQL expression) minus i seconds. */
  const insertRows = (prefix: string, n: number, expiresAt: string) =>
    sql`insert into oidc_payload (model, id, payload, expires_at)
        select ${model}, ${prefix} || '-' || i, '{}'::jsonb, ${sql.raw(expiresAt)} - make_interval(secs => i)
        from generate_series(1, ${n}::int) i`.execute(auth.db);
  const remaining = async () =>
    (
      await sql<{ id: string }>`select id from oidc_payload where model = ${model} order by id`.execute(
        auth.db,
      )
    ).rows.map((r) => r.id);
  // What every purge below must leave: never expiring, expired within the grace, not expired.
  const kept = [
    ...['forever-1', 'forever-2'],
    ...['grace-1', 'grace-2', 'grace-3', 'grace-4'],
    ...['live-1', 'live-2', 'live-3', 'live-4'],
  ];

  it('deletes in batches until one is short, counting every row, and keeps the rest', async () => {
    await insertRows('gone', 25, "now() - interval '2 hours'"); // 3 full batches of 7, then 4
    await insertRows('grace', 4, "now() - interval '10 minutes'"); // expired, but within the grace
    await insertRows('live', 4, "now() + interval '1 hour'");
    await sql`insert into oidc_payload (model, id, payload) values
              (${model}, 'forever-1', '{}'), (${model}, 'forever-2', '{}')`.execute(auth.db);

    // Every statement the purge runs, counted by its result.
    let statements = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: (args) => (statements++, Promise.resolve(args.result)),
    };
    const db = auth.db.withPlugin(counting);

    expect(await deleteExpiredPayloads(db, 3600, { batchSize: 7 })).toBe(25);
    expect(statements).toBe(4);
    expect(await remaining()).toEqual(kept);

    // A backlog of exactly two batches: the third, empty, batch ends the run.
    await insertRows('again', 14, "now() - interval '1 day'");
    statements = 0;
    expect(await deleteExpiredPayloads(db, 3600, { batchSize: 7 })).toBe(14);
    expect(statements).toBe(3);
    expect(await deleteExpiredPayloads(db, 3600, { batchSize: 7 })).toBe(0);
    expect(await remaining()).toEqual(kept);
  });

  it('stops between batches once its signal is aborted, having counted what it deleted', async () => {
    await insertRows('stopped', 10, "now() - interval '2 hours'");
    const stop = new AbortController();
    stop.abort();
    expect(await deleteExpiredPayloads(auth.db, 3600, { batchSize: 4, signal: stop.signal })).toBe(4);
    expect(await deleteExpiredPayloads(auth.db, 3600, { batchSize: 4 })).toBe(6);
    expect(await remaining()).toEqual(kept);
    await expect(deleteExpiredPayloads(auth.db, 3600, { batchSize: 0 })).rejects.toThrow(RangeError);
  });
});

describe('secret-push-auth CLI', () => {
  it('creates, lists, rotates and deletes a client; deleting kills its live tokens', async () => {
    const created = await auth.cli(
      'clients',
      'create',
      '--name',
      'ci-bot',
      '--scopes',
      'pushes:write',
      '--json',
    );
    expect(created.code).toBe(0);
    const client = JSON.parse(created.out) as ClientCredentials;
    expect(client).toEqual({
      client_id: expect.stringMatching(/^spc_/),
      client_secret: expect.any(String),
      scope: 'pushes:write',
    });

    const listed = await auth.cli('clients', 'list', '--json');
    expect(JSON.parse(listed.out)).toContainEqual(
      expect.objectContaining({
        client_id: client.client_id,
        name: 'ci-bot',
        scope: 'pushes:write',
        resource_server: false,
      }),
    );

    const token = await auth.token(client);
    const rotated = await auth.cli('clients', 'rotate-secret', client.client_id, '--json');
    expect(rotated.code).toBe(0);
    const newSecret = (JSON.parse(rotated.out) as ClientCredentials).client_secret;
    expect(newSecret).not.toBe(client.client_secret);
    // A running auth service reuses a client's stored metadata for CLIENT_CACHE_SECONDS.
    await sleep(CLIENT_CACHE_SECONDS * 1000 + 200);
    const old = await postForm(auth.issuer, '/connect/token', { grant_type: 'client_credentials' }, client);
    expect(old.status).toBe(401);
    const fresh = await auth.token({ ...client, client_secret: newSecret });
    expect((await introspect(auth.issuer, auth.resourceServer, token)).body.active).toBe(true);

    const deleted = await auth.cli('clients', 'delete', client.client_id);
    expect(deleted.code).toBe(0);
    expect(deleted.out).toMatch(/2 live token\(s\) revoked/);
    expect((await introspect(auth.issuer, auth.resourceServer, token)).body).toEqual({ active: false });
    expect((await introspect(auth.issuer, auth.resourceServer, fresh)).body).toEqual({ active: false });
    await sleep(CLIENT_CACHE_SECONDS * 1000 + 200);
    const after = await postForm(
      auth.issuer,
      '/connect/token',
      { grant_type: 'client_credentials' },
      { ...client, client_secret: newSecret },
    );
    expect(after.status).toBe(401);
  });

  it('prints human-readable credentials once without --json', async () => {
    const res = await auth.cli('clients', 'create', '--name', 'human', '--scopes', 'pushes:read');
    expect(res.code).toBe(0);
    expect(res.out).toMatch(/^client_id: +spc_/m);
    expect(res.out).toMatch(/^client_secret: +\S{43}$/m);
  });

  it.each([
    [['clients', 'create', '--name', 'x', '--scopes', 'admin'], /unknown scope admin/],
    [['clients', 'create', '--scopes', 'pushes:read'], /needs --name and --scopes/],
    [['clients', 'create', '--name', ' ', '--scopes', 'pushes:read'], /name must be 1 to 200 characters/],
    [['clients', 'delete', 'spc_missing'], /no client spc_missing/],
    [['clients', 'rotate-secret', 'spc_missing'], /no client spc_missing/],
  ])('refuses %j', async (argv, message) => {
    const res = await auth.cli(...argv);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(message);
  });

  it('gives every client a different random id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await auth.createClient('pushes:read')).client_id);
    expect(ids.size).toBe(5);
  });
});
