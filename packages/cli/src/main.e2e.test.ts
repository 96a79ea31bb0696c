import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type ClientCredentials, type TestAuth, startAuth } from '@secret-push/auth/testing';
import { type TestPush, startPush } from '@secret-push/push/testing';
import { type LocalS3, startS3 } from '@secret-push/testing';

// The built binary (`node packages/cli/dist/main.js`) as a child process, against the real
// services in-process. The package is built first (tsc -b, incremental), so dist/ is never stale.
const TIMEOUT = 120_000;
const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'packages', 'cli', 'dist', 'main.js');

let auth: TestAuth;
let s3: LocalS3;
let push: TestPush;
let credentials: ClientCredentials;
let dir: string;

beforeAll(async () => {
  await promisify(execFile)(process.execPath, [
    join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
    '-b',
    join(ROOT, 'packages', 'cli'),
  ]);
  auth = await startAuth();
  s3 = await startS3();
  push = await startPush(auth, { env: { ...s3.env } });
  credentials = await auth.createClient('pushes:read pushes:write');
  dir = mkdtempSync(join(tmpdir(), 'sptest-cli-e2e-'));
}, TIMEOUT);
afterAll(async () => {
  await push?.stop();
  await s3?.close();
  await auth?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, TIMEOUT);

/** Runs `secret-push …` with only the environment given (plus PATH), stdin from `input`. */
function secretPush(
  args: string[],
  env: Record<string, string>,
  input = '',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

test(
  'login, then `echo s3cret | secret-push push --views 2`, get twice, then exit 4; a file with the same SHA-256',
  async () => {
    const env = { XDG_CONFIG_HOME: mkdtempSync(join(dir, 'home-')), HOME: '/nonexistent' };
    const login = await secretPush(
      ['login', '--server', push.url, '--auth-url', auth.issuer, '--client-id', credentials.client_id],
      env,
      `${credentials.client_secret}\n`,
    );
    expect(login).toMatchObject({ code: 0, stdout: '' });
    const config = join(env.XDG_CONFIG_HOME, 'secret-push', 'config.json');
    expect(statSync(config).mode & 0o777).toBe(0o600);

    const created = await secretPush(['push', '--views', '2'], env, 's3cret\n');
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const link = created.stdout.trim();
    expect(link).toMatch(/\/p\/[A-Za-z0-9_-]{22}\/r$/);
    expect(await secretPush(['get', link], env)).toMatchObject({ code: 0, stdout: 's3cret\n' });
    expect(await secretPush(['get', link], env)).toMatchObject({ code: 0, stdout: 's3cret\n' });
    const gone = await secretPush(['get', link], env);
    expect(gone.code).toBe(4);
    expect(gone.stderr).toMatch(/^secret-push: The push has expired[^\n]*\n$/);

    const file = join(dir, 'payload.bin');
    const bytes = randomBytes(200_000);
    writeFileSync(file, bytes);
    const filePush = await secretPush(['push', '--file', file, '--json'], env);
    expect(filePush.code).toBe(0);
    const { html_url: fileLink } = JSON.parse(filePush.stdout) as { html_url: string };
    const out = join(dir, 'out');
    expect((await secretPush(['get', fileLink, '--out', out], env)).code).toBe(0);
    const digest = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
    expect(digest(readFileSync(join(out, 'payload.bin')))).toBe(digest(bytes));

    const usage = await secretPush(['push', '--nope'], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).not.toMatch(/\n\s+at /);
  },
  TIMEOUT,
);
