import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { ClientCredentials, TestAuth } from '@secret-push/auth/testing';
import { type TestPush, type TestStack, startStack } from '@secret-push/push/testing';

// The two packages as a user gets them: `pnpm pack` makes a tarball of each, and both are
// installed together with npm into an empty directory. The install is offline against a registry
// that does not exist, so our own packages can never be fetched from the public registry (where
// these names are not ours): the CLI's dependency on the client must be met by the client's tarball.
const TIMEOUT = 120_000;
const ROOT = join(import.meta.dirname, '..', '..', '..');
const run = promisify(execFile);

let stack: TestStack;
let auth: TestAuth;
let push: TestPush;
let credentials: ClientCredentials;
let dir: string;
let app: string;

beforeAll(async () => {
  // dist/ is what gets packed: build it first (incremental).
  await run(process.execPath, [
    join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
    '-b',
    join(ROOT, 'packages', 'cli'),
  ]);
  dir = mkdtempSync(join(tmpdir(), 'sptest-pack-'));
  const packs = join(dir, 'packs');
  for (const pkg of ['client', 'cli']) {
    await run('pnpm', ['pack', '--pack-destination', packs], { cwd: join(ROOT, 'packages', pkg) });
  }
  app = join(dir, 'app');
  await run('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), '{ "private": true, "type": "module" }\n');
  const tarballs = readdirSync(packs).map((f) => join(packs, f));
  await run(
    'npm',
    [
      'install',
      '--offline',
      '--registry=http://127.0.0.1:9/',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      ...tarballs,
    ],
    { cwd: app, env: { ...process.env, npm_config_cache: join(dir, 'npm-cache') } },
  );
  stack = await startStack();
  ({ auth, push, credentials } = stack);
}, TIMEOUT);
afterAll(async () => {
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, TIMEOUT);

/** The installed `secret-push` bin, run by this Node (first on PATH for the bin's `env node`). */
function secretPush(
  args: string[],
  env: Record<string, string>,
  input = '',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(app, 'node_modules', '.bin', 'secret-push'), args, {
      cwd: app,
      env: { PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`, ...env },
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

const installed = (pkg: string) =>
  JSON.parse(readFileSync(join(app, 'node_modules', '@secret-push', pkg, 'package.json'), 'utf8')) as {
    version: string;
    dependencies?: Record<string, string>;
  };

test(
  'the tarballs hold the built code only; the installed CLI depends on the installed client',
  () => {
    const client = installed('client');
    const cli = installed('cli');
    expect(cli.dependencies).toEqual({ '@secret-push/client': client.version });
    const files = (pkg: string) =>
      readdirSync(join(app, 'node_modules', '@secret-push', pkg), { recursive: true }).map(String);
    for (const [pkg, entry] of [
      ['client', 'index.js'],
      ['cli', 'main.js'],
    ] as const) {
      expect(files(pkg)).toContain(join('dist', entry));
      expect(files(pkg).filter((f) => /\.(test|e2e|browser)\.|^src|\.map$|tsconfig/.test(f))).toEqual([]);
    }
    // Exactly the two packages: nothing else was installed (the client has no dependencies).
    expect(readdirSync(join(app, 'node_modules', '@secret-push')).sort()).toEqual(['cli', 'client']);
    expect(readdirSync(join(app, 'node_modules')).filter((f) => !f.startsWith('.'))).toEqual([
      '@secret-push',
    ]);
  },
  TIMEOUT,
);

test(
  'the SDK imports with its types: a TypeScript program that uses it compiles',
  async () => {
    writeFileSync(
      join(app, 'use.ts'),
      [
        "import { createClient, type OwnedPush, SecretPushError } from '@secret-push/client';",
        "const client = createClient({ baseUrl: 'http://127.0.0.1:3000', auth: { token: 't' } });",
        "const p: Promise<OwnedPush> = client.create({ payload: 'x', expire_after_views: 2 });",
        'export { p, SecretPushError };',
        '',
      ].join('\n'),
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    // Node's types come from the repository (the SDK's declarations name Readable and Blob).
    const typeRoots = join(ROOT, 'node_modules', '@types');
    const args = ['--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022'];
    args.push('--typeRoots', typeRoots, '--types', 'node');
    await expect(run(process.execPath, [tsc, ...args, 'use.ts'], { cwd: app })).resolves.toBeDefined();
    // A wrong use is a type error: the declarations are really read.
    writeFileSync(
      join(app, 'wrong.ts'),
      "import { createClient } from '@secret-push/client';\ncreateClient({});\n",
    );
    await expect(run(process.execPath, [tsc, ...args, 'wrong.ts'], { cwd: app })).rejects.toMatchObject({
      stdout: expect.stringContaining("'baseUrl'"),
    });
  },
  TIMEOUT,
);

test(
  'the installed CLI: login, `echo s3cret | secret-push push --views 2`, get prints the secret',
  async () => {
    const env = { XDG_CONFIG_HOME: mkdtempSync(join(dir, 'home-')), HOME: '/nonexistent' };
    const { version } = installed('cli');
    expect(await secretPush(['version'], env)).toMatchObject({ code: 0, stdout: `secret-push ${version}\n` });
    const login = await secretPush(
      ['login', '--server', push.url, '--auth-url', auth.issuer, '--client-id', credentials.client_id],
      env,
      `${credentials.client_secret}\n`,
    );
    expect(login).toMatchObject({ code: 0, stdout: '' });
    const created = await secretPush(['push', '--views', '2'], env, 's3cret\n');
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const link = created.stdout.trim();
    expect(await secretPush(['get', link], env)).toMatchObject({ code: 0, stdout: 's3cret\n' });
    expect(await secretPush(['get', link], env)).toMatchObject({ code: 0, stdout: 's3cret\n' });
    expect((await secretPush(['get', link], env)).code).toBe(4);
  },
  TIMEOUT,
);
