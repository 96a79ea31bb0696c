import { execFileSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Child, runOnce, waitFor } from './processes';

/*
 * A PostgreSQL of the suite's own: a fresh cluster in a postgres-owned temporary folder, its own
 * port and socket folder, fsync off (nothing here must survive a machine crash; a process crash
 * loses nothing, since commits still write the WAL to the OS before they answer). PostgreSQL
 * refuses to run as root: initdb runs through `runuser -u postgres`, and the server is spawned with
 * the postgres uid/gid directly (as runuser would), so that signals reach the postmaster itself
 * and not a runuser in between (which would turn a fast shutdown into a smart one).
 * Never the shared server on 5432.
 */

const PG_BIN = process.env.FAULTS_PG_BIN ?? '/usr/lib/postgresql/15/bin';

interface PgClient {
  connect(): Promise<void>;
  query(text: string): Promise<unknown>;
  on(event: 'error', listener: (err: Error) => void): void;
  end(): Promise<void>;
}
/** The `pg` driver (db-kit's dependency), loaded as is: a session of our own, with its own error listener. */
const pg = createRequire(resolve(__dirname, '../../../../../packages/db-kit/package.json'))('pg') as {
  Client: new (options: { connectionString: string }) => PgClient;
};

/**
 * Opens a transaction that holds ACCESS EXCLUSIVE locks on `tables`: every statement of the
 * services on them waits, its pool client checked out, until the session ends (or the server dies).
 * Returns the function that ends the session.
 */
export async function lockTables(url: string, tables: string[]): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {}); // the server may be killed under it: that is the point
  await client.connect();
  await client.query('begin');
  await client.query(`lock table ${tables.join(', ')} in access exclusive mode`);
  return () => client.end().catch(() => undefined);
}

export interface PrivatePostgres {
  port: number;
  /** postgres://postgres@127.0.0.1:PORT/<database> */
  url(database: string): string;
  child: Child;
  /** Starts the server (again) and waits until it accepts connections. */
  start(): Promise<void>;
  /** True once a session can start (ReadyForQuery), as pg_isready would say, without spawning it. */
  accepting(): Promise<boolean>;
  destroy(): Promise<void>;
}

function idOf(flag: '-u' | '-g', user: string): number {
  return Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
}

/**
 * Opens a session as `postgres` (trust) and waits for ReadyForQuery: true, or false on an error
 * message (starting up, shutting down, in recovery), a refused connection or `timeoutMs`. In
 * process: the readiness polls of the suite spawn nothing (spawning from the test runner blocks
 * its event loop for as long as the child takes to exec, which on a loaded machine is long).
 */
function sessionStarts(port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let buffered = Buffer.alloc(0);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      if (ok) socket.end(Buffer.from([0x58, 0, 0, 0, 4])); // Terminate
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on('connect', () => {
      const params = Buffer.from('user\0postgres\0database\0postgres\0\0', 'latin1');
      const header = Buffer.alloc(8);
      header.writeInt32BE(8 + params.length, 0);
      header.writeInt32BE(196608, 4); // protocol 3.0
      socket.write(Buffer.concat([header, params]));
    });
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      // Messages: a type byte, then a length that counts itself.
      for (let i = 0; i < 1000 && buffered.length >= 5; i++) {
        const type = String.fromCharCode(buffered[0]!);
        const length = buffered.readInt32BE(1);
        if (type === 'Z') return done(true);
        if (type === 'E') return done(false);
        if (buffered.length < 1 + length) return;
        buffered = buffered.subarray(1 + length);
      }
    });
    socket.on('error', () => done(false));
    socket.on('close', () => done(false));
  });
}

export async function startPrivatePostgres(port: number, logDir: string): Promise<PrivatePostgres> {
  // As root (CI, this machine): the cluster belongs to postgres. Otherwise it is the caller's own.
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? { uid: idOf('-u', 'postgres'), gid: idOf('-g', 'postgres') } : undefined;
  const dir = mkdtempSync(join(tmpdir(), 'sp-faults-pg-'));
  const data = join(dir, 'data');
  const sockets = join(dir, 'sock');
  mkdirSync(sockets);
  if (owner) {
    chownSync(dir, owner.uid, owner.gid);
    chownSync(sockets, owner.uid, owner.gid);
  }
  const initdb = [
    join(PG_BIN, 'initdb'),
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ];
  await runOnce(
    owner ? 'runuser' : initdb[0]!,
    owner ? ['-u', 'postgres', '--', ...initdb] : initdb.slice(1),
    {
      env: {},
      cwd: dir,
      timeoutMs: 60_000,
    },
  );
  const child = new Child(
    {
      name: 'postgres',
      command: join(PG_BIN, 'postgres'),
      args: [
        '-D',
        data,
        '-p',
        String(port),
        '-k',
        sockets,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=200',
        '-c',
        'shared_buffers=32MB',
        '-c',
        'log_min_messages=warning',
      ],
      env: {},
      cwd: dir,
      ...owner,
      // A fast shutdown: sessions are terminated (57P01), the server stops at once.
      stopSignal: 'SIGINT',
    },
    logDir,
  );
  const accepting = () => sessionStarts(port, 1000);
  const start = async () => {
    child.start();
    // Crash recovery after a SIGKILL takes a moment; a fresh start well under a second.
    if (!(await waitFor(accepting, 30_000, 100))) throw new Error('private PostgreSQL did not start');
  };
  await start();
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    child,
    start,
    accepting,
    async destroy() {
      await child.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
