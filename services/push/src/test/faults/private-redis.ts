import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Child, waitFor } from './processes';

/*
 * A redis-server of the suite's own (never the shared one on 6379), with an append-only file
 * written on every write (not fsynced): a killed or restarted Redis comes back with its data, as a
 * persistent production Redis would, so the queue's tick scheduler and the rate-limit counters
 * survive the outage. (A Redis that loses its data is tested in the worker's own tests, which
 * delete the queue's keys under a running worker.)
 */

export interface PrivateRedis {
  port: number;
  url: string;
  child: Child;
  start(): Promise<void>;
  /** True when it answers PING within 500 ms. */
  answers(): Promise<boolean>;
  destroy(): Promise<void>;
}

/** One PING over a raw socket: no client library, no reconnect loop to clean up. */
function ping(port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (b: Buffer) => {
      answer += b.toString('latin1');
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
    socket.on('error', () => done(false));
  });
}

export async function startPrivateRedis(port: number, logDir: string): Promise<PrivateRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'sp-faults-redis-'));
  const child = new Child(
    {
      name: 'redis',
      command: 'redis-server',
      args: [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'no',
        '--loglevel',
        'warning',
      ],
      env: {},
      cwd: dir,
    },
    logDir,
  );
  const answers = () => ping(port);
  const start = async () => {
    child.start();
    if (!(await waitFor(answers, 15_000, 50))) throw new Error('private redis-server did not start');
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    child,
    start,
    answers,
    async destroy() {
      await child.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
