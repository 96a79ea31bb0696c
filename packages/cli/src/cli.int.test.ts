import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ClientCredentials, TestAuth } from '@secret-push/auth/testing';
import { createClient } from '@secret-push/client';
import { type TestPush, type TestStack, startStack } from '@secret-push/push/testing';
import { freePort } from '@secret-push/testing';
import { EXIT, main } from './cli.ts';
import { parsePushRef } from './links.ts';

// The command in-process (its `main` with injected argv, env, stdin and outputs) against the real
// services: an auth service, a push API with a private s3rver, PostgreSQL and Redis. Test files of
// this package run as ES modules, where Jest has no `jest` global: timeouts are given per hook and
// test.
const TIMEOUT = 60_000;

let stack: TestStack;
let auth: TestAuth;
let push: TestPush;
let credentials: ClientCredentials;
let dir: string;

beforeAll(async () => {
  stack = await startStack();
  ({ auth, push, credentials } = stack);
  dir = mkdtempSync(join(tmpdir(), 'sptest-cli-'));
}, TIMEOUT);
afterAll(async () => {
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, TIMEOUT);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A fresh config dir, and the environment of a logged-out user. */
function home(): Record<string, string> {
  return { XDG_CONFIG_HOME: mkdtempSync(join(dir, 'home-')), HOME: '/nonexistent' };
}

/** The environment of a script with client credentials in SECRET_PUSH_*. */
function envFor(c: ClientCredentials = credentials): Record<string, string> {
  return {
    ...home(),
    SECRET_PUSH_URL: push.url,
    SECRET_PUSH_AUTH_URL: auth.issuer,
    SECRET_PUSH_CLIENT_ID: c.client_id,
    SECRET_PUSH_CLIENT_SECRET: c.client_secret,
  };
}

async function cli(
  argv: string[],
  options: { env?: Record<string, string>; stdin?: string; tty?: boolean; fetch?: typeof fetch } = {},
): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main({
    argv,
    env: options.env ?? envFor(),
    stdin: Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    stderrIsTTY: options.tty ?? false,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return { code, stdout, stderr };
}

const tokenOf = (link: string) => parsePushRef(link).urlToken;
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

describe('links', () => {
  test('recipient links, JSON URLs and bare tokens', () => {
    const t = 'AbCdEfGhIjKlMnOpQrStUv';
    expect(parsePushRef(t)).toEqual({ urlToken: t });
    expect(parsePushRef(`https://push.example.com/p/${t}`)).toEqual({
      urlToken: t,
      baseUrl: 'https://push.example.com',
    });
    expect(parsePushRef(`https://push.example.com/p/${t}/r`).urlToken).toBe(t);
    expect(parsePushRef(`http://h:3000/sub/api/v2/pushes/${t}.json`)).toEqual({
      urlToken: t,
      baseUrl: 'http://h:3000/sub',
    });
    expect(parsePushRef(`http://h/api/v2/pushes/${t}`).urlToken).toBe(t);
    expect(() => parsePushRef('https://h/other/x')).toThrow('Not a push link');
    expect(() => parsePushRef('ftp://h/p/x')).toThrow();
    expect(() => parsePushRef('a b')).toThrow();
  });
});

describe('push and get', () => {
  test(
    '`echo s3cret | secret-push push --views 2`, then get prints s3cret twice, then exits 4',
    async () => {
      const env = envFor();
      const created = await cli(['push', '--views', '2'], { env, stdin: 's3cret\n' });
      expect(created).toMatchObject({ code: 0, stderr: '' });
      const link = created.stdout.trim();
      expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/p\/[A-Za-z0-9_-]{22}\/r$/);

      expect(await cli(['get', link], { env })).toMatchObject({ code: 0, stdout: 's3cret\n' });
      const last = await cli(['get', link], { env });
      expect(last).toMatchObject({ code: 0, stdout: 's3cret\n' });
      expect(last.stderr).toContain('last view');
      const gone = await cli(['get', link], { env });
      expect(gone.code).toBe(EXIT.notFound);
      expect(gone.stdout).toBe('');
      expect(gone.stderr).toMatch(/^secret-push: The push has expired.*\n$/);
    },
    TIMEOUT,
  );

  test(
    'every create option, --json output, and every form of a link',
    async () => {
      const env = envFor();
      const created = await cli(
        [
          'push',
          '-',
          '--json',
          '--views',
          '5',
          '--duration',
          '1h',
          '--no-retrieval-step',
          '--no-deletable-by-viewer',
          '--name',
          'db password',
          '--note',
          'for the migration',
        ],
        { env, stdin: 'multi\nline\n' },
      );
      expect(created.code).toBe(0);
      const p = JSON.parse(created.stdout) as Record<string, unknown>;
      expect(p).toMatchObject({
        kind: 'text',
        expire_after_views: 5,
        retrieval_step: false,
        deletable_by_viewer: false,
        name: 'db password',
        note: 'for the migration',
      });
      expect(Date.parse(p.expires_at as string) - Date.parse(p.created_at as string)).toBe(3600_000);
      const token = p.url_token as string;
      expect(p.html_url).toBe(`${push.url}/p/${token}`);

      // A link of another server than the configured one is followed there, without our credentials.
      const elsewhere = await cli(['preview', `${push.url}/p/${token}`], {
        env: { ...env, SECRET_PUSH_URL: 'http://127.0.0.1:9', SECRET_PUSH_CLIENT_SECRET: 'not sent' },
      });
      expect(elsewhere).toMatchObject({ code: 0, stdout: `${push.url}/p/${token}\n` });

      for (const ref of [token, `${push.url}/p/${token}`, `${push.url}/p/${token}/r`, p.json_url as string]) {
        expect(await cli(['get', ref], { env })).toMatchObject({ code: 0, stdout: 'multi\nline\n' });
      }
      const json = await cli(['get', `${push.url}/api/v2/pushes/${token}.json`, '--json'], { env });
      expect(JSON.parse(json.stdout)).toMatchObject({ payload: 'multi\nline', views_remaining: 0 });

      const days = await cli(['push', '--json', '--days', '3', '--retrieval-step'], { env, stdin: 'x' });
      expect(JSON.parse(days.stdout)).toMatchObject({ expire_after_days: 3, retrieval_step: true });
    },
    TIMEOUT,
  );

  test(
    'url and qr pushes; a secret given as an argument',
    async () => {
      const env = envFor();
      const url = await cli(['push', '--url', '--json'], { env, stdin: 'https://example.com/x\n' });
      expect(JSON.parse(url.stdout)).toMatchObject({ kind: 'url' });
      const qr = await cli(['push', '--qr', 'WIFI:S:net;;'], { env });
      expect(qr.code).toBe(0);
      expect((await cli(['get', qr.stdout.trim()], { env })).stdout).toBe('WIFI:S:net;;\n');
    },
    TIMEOUT,
  );

  test(
    'a passphrase read from a file; a missing or wrong one exits 3',
    async () => {
      const env = envFor();
      const file = join(dir, 'pass.txt');
      writeFileSync(file, 'open sesame\n');
      const wrong = join(dir, 'wrong.txt');
      writeFileSync(wrong, 'nope\n');
      const created = await cli(['push', '--passphrase-file', file, '--json'], { env, stdin: 'guarded' });
      const p = JSON.parse(created.stdout) as { html_url: string; passphrase_protected: boolean };
      expect(p.passphrase_protected).toBe(true);

      const missing = await cli(['get', p.html_url], { env });
      expect(missing.code).toBe(EXIT.auth);
      expect(missing.stderr).toMatch(/passphrase is incorrect.*\[request id [^\]]+\]\n$/);
      expect((await cli(['get', p.html_url, '--passphrase-file', wrong], { env })).code).toBe(EXIT.auth);
      expect(await cli(['get', p.html_url, '--passphrase-file', file], { env })).toMatchObject({
        code: 0,
        stdout: 'guarded\n',
      });
      // Never from argv: there is no --passphrase option.
      expect((await cli(['push', '--passphrase', 'x'], { env, stdin: 's' })).code).toBe(EXIT.usage);
    },
    TIMEOUT,
  );

  test(
    'files: --file twice, get --out saves them with the same SHA-256; progress only on a TTY',
    async () => {
      const env = envFor();
      const a = join(dir, 'a.bin');
      const b = join(dir, 'notes.txt');
      const bytes = randomBytes(300_000);
      writeFileSync(a, bytes);
      writeFileSync(b, 'some notes\n');
      const created = await cli(['push', '--file', a, '--file', b, '--views', '1'], {
        env,
        stdin: 'ignored',
        tty: true,
      });
      expect(created.code).toBe(0);
      expect(created.stderr).toMatch(/Uploading \[#+\] 100%/);
      const link = created.stdout.trim();

      const out = join(dir, 'out');
      const got = await cli(['get', link, '--out', out], { env });
      expect(got.code).toBe(0);
      expect(got.stderr).toContain(`Saved ${join(out, 'a.bin')}`);
      expect(got.stderr).not.toContain('\r'); // not a TTY: no progress bar
      expect(readdirSync(out).sort()).toEqual(['a.bin', 'notes.txt']);
      expect(sha256(readFileSync(join(out, 'a.bin')))).toBe(sha256(bytes));
      expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('some notes\n');

      // Saved again into the same directory: never over the existing files.
      const again = await cli(['push', '--file', b], { env });
      expect((await cli(['get', again.stdout.trim(), '--out', out], { env })).code).toBe(0);
      expect(readdirSync(out).sort()).toEqual(['a.bin', 'notes-1.txt', 'notes.txt']);

      // A file push with a text, fetched as JSON without --out: the files are listed, not saved.
      const withText = await cli(['push', '--file', b, 'see attached', '--views', '2'], { env });
      const listed = await cli(['get', withText.stdout.trim()], { env });
      expect(listed.stdout).toBe('see attached\n');
      expect(listed.stderr).toContain('notes.txt (11 B)');
      const asJson = await cli(['get', withText.stdout.trim(), '--json'], { env });
      expect(JSON.parse(asJson.stdout)).toMatchObject({ files: [{ filename: 'notes.txt', size: 11 }] });
    },
    TIMEOUT,
  );
});

describe('--copy', () => {
  test(
    'the link goes to the clipboard tool through its stdin; a failing tool gives way to the next; none is a note',
    async () => {
      // Stand-ins for the system's clipboard tools: xclip fails (no X server), xsel takes the text.
      const bin = mkdtempSync(join(dir, 'bin-'));
      const clip = join(dir, 'clipboard.txt');
      writeFileSync(join(bin, 'xclip'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
      writeFileSync(join(bin, 'xsel'), `#!/bin/sh\n[ "$*" = "--clipboard --input" ] && cat > '${clip}'\n`, {
        mode: 0o755,
      });
      const env = { ...envFor(), PATH: `${bin}:/usr/bin:/bin`, DISPLAY: ':99' };
      const copied = await cli(['push', '--copy'], { env, stdin: 'to the clipboard' });
      expect(copied.code).toBe(0);
      expect(readFileSync(clip, 'utf8')).toBe(copied.stdout.trim());
      expect(copied.stderr).toBe('The link is in the clipboard (xsel).\n');

      // No graphical session: no tool is tried; the link is printed and the command succeeds.
      const { DISPLAY: _none, ...headless } = env;
      const printed = await cli(['push', '--copy'], { env: headless, stdin: 'printed only' });
      expect(printed.code).toBe(0);
      expect(printed.stdout).toMatch(/\/p\/[A-Za-z0-9_-]{22}\/r\n$/);
      expect(printed.stderr).toMatch(/^No clipboard here .*: the link is only printed\.\n$/);
      expect(readFileSync(clip, 'utf8')).toBe(copied.stdout.trim());
    },
    TIMEOUT,
  );
});

describe('owner commands', () => {
  test(
    'preview, audit and expire, human and --json',
    async () => {
      const env = envFor();
      const link = (await cli(['push', '--name', 'audited'], { env, stdin: 's' })).stdout.trim();
      expect(await cli(['preview', link], { env })).toMatchObject({ code: 0, stdout: `${link}\n` });
      expect(JSON.parse((await cli(['preview', link, '--json'], { env })).stdout)).toEqual({ url: link });
      await cli(['get', link], { env });

      const table = await cli(['audit', link], { env });
      expect(table.code).toBe(0);
      expect(table.stdout.split('\n')[0]).toMatch(/^TIME\s+EVENT\s+IP\s+USER AGENT$/);
      expect(table.stdout).toContain('creation');
      expect(table.stdout).toMatch(/view .*secret-push-cli\//);
      const audited = await cli(['audit', tokenOf(link), '--json'], { env });
      expect({ code: audited.code, stderr: audited.stderr }).toEqual({ code: 0, stderr: '' }); // stderr says why, if not
      const entries = JSON.parse(audited.stdout) as { kind: string }[];
      expect(entries.map((e) => e.kind)).toEqual(['creation', 'view']);

      expect(await cli(['expire', link], { env })).toMatchObject({ code: 0, stdout: `Expired ${link}\n` });
      const again = await cli(['expire', link, '--json'], { env });
      expect(JSON.parse(again.stdout)).toMatchObject({ expired: true, deleted: true });
      expect((await cli(['get', link], { env })).code).toBe(EXIT.notFound);
    },
    TIMEOUT,
  );

  test(
    'list active and expired: a table, or every page as one --json array',
    async () => {
      const own = await auth.createClient('pushes:read pushes:write', 'lister');
      const env = envFor(own);
      const sdk = createClient({
        baseUrl: push.url,
        auth: {
          clientId: own.client_id,
          clientSecret: own.client_secret,
          tokenUrl: `${auth.issuer}/connect/token`,
        },
      });
      for (let i = 0; i < 52; i++) {
        await sdk.create({ payload: `p${i}`, name: `n${i}`, expire_after_views: 3 });
      }
      const gone = await sdk.create({ payload: 'x', name: 'gone' });
      await sdk.expire(gone.url_token);

      const all = JSON.parse((await cli(['list', 'active', '--json'], { env })).stdout) as { name: string }[];
      expect(all).toHaveLength(52); // two pages
      expect(all[0]?.name).toBe('n51');

      const table = await cli(['list', 'active'], { env });
      const lines = table.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^NAME\s+KIND\s+VIEWS LEFT\s+EXPIRES\s+LINK$/);
      expect(lines).toHaveLength(53);
      expect(lines[1]).toMatch(/^n51\s+text\s+3\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC\s+http:\/\/\S+\/p\/\S+\/r$/);

      const expired = await cli(['list', 'expired'], { env });
      expect(expired.stdout).toMatch(/gone\s+text\s+5\s+expired \d{4}-/);
      const none = await cli(['list', 'expired'], { env: envFor(await auth.createClient()) });
      expect(none).toMatchObject({ code: 0, stdout: '', stderr: 'No expired pushes.\n' });
    },
    TIMEOUT,
  );
});

describe('login, token and configuration', () => {
  test(
    'login with client credentials from stdin writes the config with mode 0600; later commands use it',
    async () => {
      const env = home();
      const login = await cli(
        ['login', '--server', push.url, '--auth-url', auth.issuer, '--client-id', credentials.client_id],
        { env, stdin: `${credentials.client_secret}\n` },
      );
      expect(login).toMatchObject({ code: 0, stdout: '' });
      const path = join(env.XDG_CONFIG_HOME!, 'secret-push', 'config.json');
      expect(login.stderr).toContain(path);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
        url: push.url,
        authUrl: auth.issuer,
        clientId: credentials.client_id,
        clientSecret: credentials.client_secret,
      });

      const created = await cli(['push', '--name', 'from config'], { env, stdin: 'configured' });
      expect(created.code).toBe(0);
      const listed = await cli(['list', 'active'], { env });
      expect(listed.stdout).toContain('from config');
      const token = await cli(['token'], { env });
      expect(token.stdout).toMatch(/^\S{16,}\n$/);
      const tokenJson = JSON.parse((await cli(['token', '--json'], { env })).stdout) as Record<
        string,
        unknown
      >;
      expect(tokenJson).toMatchObject({
        token_type: 'Bearer',
        access_token: expect.any(String),
        scope: 'pushes:read pushes:write',
      });
      // Seconds left of the token's hour (each `cli` call is a new process in real use: a new token).
      expect(tokenJson.expires_in).toBeGreaterThan(3000);
      expect(tokenJson.expires_in).toBeLessThanOrEqual(3600);
    },
    TIMEOUT,
  );

  test(
    'login with --client-secret-file, and with --token-file; bad credentials exit 3 and save nothing',
    async () => {
      const env = home();
      const path = join(env.XDG_CONFIG_HOME!, 'secret-push', 'config.json');
      const bad = join(dir, 'bad-secret');
      writeFileSync(bad, 'not the secret\n');
      const refused = await cli(
        [
          'login',
          '--server',
          push.url,
          '--auth-url',
          auth.issuer,
          '--client-id',
          credentials.client_id,
          '--client-secret-file',
          bad,
        ],
        { env },
      );
      expect(refused.code).toBe(EXIT.auth);
      expect(refused.stderr).toMatch(/^secret-push: The token request was refused \(401 invalid_client\)/);
      expect(() => statSync(path)).toThrow();

      const good = join(dir, 'good-secret');
      writeFileSync(good, credentials.client_secret);
      const args = ['--server', push.url, '--auth-url', auth.issuer, '--client-id', credentials.client_id];
      expect((await cli(['login', ...args, '--client-secret-file', good], { env })).code).toBe(0);
      expect(statSync(path).mode & 0o777).toBe(0o600);

      // A static token replaces the client credentials.
      const tokenFile = join(dir, 'token');
      writeFileSync(tokenFile, `${await auth.token(credentials)}\n`);
      expect((await cli(['login', '--server', push.url, '--token-file', tokenFile], { env })).code).toBe(0);
      const saved = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
      expect(saved).not.toHaveProperty('clientSecret');
      expect(saved.token).toBe(readFileSync(tokenFile, 'utf8').trim());
      expect((await cli(['list', 'active', '--json'], { env })).code).toBe(0);
      expect((await cli(['token'], { env })).stdout).toBe(`${saved.token as string}\n`);
    },
    TIMEOUT,
  );

  test(
    'precedence: flags > environment > saved config',
    async () => {
      const closed = `http://127.0.0.1:${await freePort()}`;
      const env = home();
      const tokenFile = join(dir, 'token2');
      writeFileSync(tokenFile, await auth.token(credentials));
      await cli(['login', '--server', closed, '--token-file', tokenFile], { env });
      // The saved server is down; the environment's is up; a flag beats both.
      expect((await cli(['push'], { env, stdin: 'x' })).code).toBe(EXIT.unavailable);
      expect((await cli(['push'], { env: { ...env, SECRET_PUSH_URL: push.url }, stdin: 'x' })).code).toBe(0);
      expect(
        (await cli(['push', '--server', push.url], { env: { ...env, SECRET_PUSH_URL: closed }, stdin: 'x' }))
          .code,
      ).toBe(0);
      // The environment's token beats the saved one.
      const badToken = await cli(['list', 'active'], {
        env: { ...env, SECRET_PUSH_URL: push.url, SECRET_PUSH_TOKEN: 'x'.repeat(40) },
      });
      expect(badToken.code).toBe(EXIT.auth);
      expect(badToken.stderr).toMatch(/^secret-push: .*\[request id [^\]]+\]\n$/);
    },
    TIMEOUT,
  );

  test(
    'version, human and --json',
    async () => {
      const env = envFor();
      const human = await cli(['version'], { env });
      expect(human.stdout).toMatch(
        /^secret-push 0\.1\.0\nserver \S+ \(API 2\.1\) at http:\/\/127\.0\.0\.1:\d+\n$/,
      );
      const json = JSON.parse((await cli(['version', '--json'], { env })).stdout) as Record<string, unknown>;
      expect(json).toMatchObject({ cli: '0.1.0', server: { api_version: '2.1', url: push.url } });
      expect((await cli(['version'], { env: home() })).stdout).toBe('secret-push 0.1.0\n');
      const closed = `http://127.0.0.1:${await freePort()}`;
      const down = await cli(['version', '--server', closed], { env });
      expect(down).toMatchObject({ code: EXIT.unavailable, stdout: 'secret-push 0.1.0\n' });
    },
    TIMEOUT,
  );
});

describe('exit codes', () => {
  test(
    '2 usage, 3 authentication, 4 not found, 5 unavailable or rate limited, 1 anything else',
    async () => {
      const env = envFor();
      expect((await cli([], { env })).code).toBe(EXIT.usage);
      expect((await cli(['--help'], { env })).code).toBe(EXIT.ok);
      expect((await cli(['frobnicate'], { env })).stderr).toBe(
        'secret-push: Unknown command: frobnicate (see secret-push --help)\n',
      );
      for (const argv of [
        ['frobnicate'],
        ['push', '--bogus'],
        ['push', '--views', 'many'],
        ['push', '--days', '2', '--duration', '1h'],
        ['push', '--duration', '7m'],
        ['push', '--url', '--qr'],
        ['get'],
        ['get', 'https://example.com/not/a/push'],
        ['list', 'everything'],
      ]) {
        const r = await cli(argv, { env, stdin: 's' });
        expect([argv, r.code]).toEqual([argv, EXIT.usage]);
        expect(r.stderr).toMatch(/^secret-push: [^\n]+\n$/); // one line, never a stack trace
      }
      expect((await cli(['push'], { env, stdin: '\n' })).code).toBe(EXIT.usage); // empty secret
      expect((await cli(['push'], { env: home(), stdin: 's' })).code).toBe(EXIT.usage); // no server
      expect((await cli(['login', '--server', push.url], { env: home() })).code).toBe(EXIT.usage); // no id

      // 3: no credentials for an owner command; credentials the auth service refuses.
      expect((await cli(['list', 'active'], { env: { ...home(), SECRET_PUSH_URL: push.url } })).code).toBe(
        EXIT.auth,
      );
      const refused = await cli(['push'], {
        env: { ...env, SECRET_PUSH_CLIENT_SECRET: 'wrong' },
        stdin: 's',
      });
      expect(refused.code).toBe(EXIT.auth);
      expect((await cli(['token'], { env: { ...env, SECRET_PUSH_CLIENT_SECRET: 'wrong' } })).code).toBe(
        EXIT.auth,
      );
      // 403: another client's push.
      const mine = (await cli(['push'], { env, stdin: 's' })).stdout.trim();
      const other = envFor(await auth.createClient());
      expect((await cli(['audit', mine], { env: other })).code).toBe(EXIT.auth);

      // 4: an unknown token.
      const unknown = await cli(['get', 'AAAAAAAAAAAAAAAAAAAAAA'], { env });
      expect(unknown.code).toBe(EXIT.notFound);
      expect(unknown.stderr).toMatch(/^secret-push: .*\[request id \S+\]\n$/);
      expect((await cli(['preview', 'AAAAAAAAAAAAAAAAAAAAAA'], { env })).code).toBe(EXIT.notFound);

      // 5: no server; the API's 429 and 503.
      const closed = `http://127.0.0.1:${await freePort()}`;
      const down = await cli(['get', `${closed}/p/AAAAAAAAAAAAAAAAAAAAAA`], { env });
      expect(down.code).toBe(EXIT.unavailable);
      expect(down.stderr).toMatch(/^secret-push: .*no answer/);
      const answering = (status: number, code: string, headers: Record<string, string> = {}) =>
        (async (input: string | URL | Request, init?: RequestInit) =>
          String(input instanceof Request ? input.url : input).endsWith('/connect/token')
            ? fetch(input, init) // the token endpoint works; the API refuses
            : new Response(JSON.stringify({ error: `Refused (${code}).`, code, request_id: 'req-123' }), {
                status,
                headers: { 'content-type': 'application/json', ...headers },
              })) as typeof fetch;
      const limited = await cli(['preview', 'AAAAAAAAAAAAAAAAAAAAAA'], {
        env,
        fetch: answering(429, 'rate_limited', { 'retry-after': '120' }),
      });
      expect(limited).toMatchObject({
        code: EXIT.unavailable,
        stderr: 'secret-push: Refused (rate_limited). Try again in 120 s. [request id req-123]\n',
      });
      const unavailable = await cli(['get', 'AAAAAAAAAAAAAAAAAAAAAA'], {
        env,
        fetch: answering(502, 'bad_gateway'),
      });
      expect(unavailable.code).toBe(EXIT.unavailable);

      // 1: anything else, e.g. a value the API refuses (422), with its fields.
      const invalid = await cli(['push', '--views', '1000'], { env, stdin: 's' });
      expect(invalid.code).toBe(EXIT.error);
      expect(invalid.stderr).toMatch(/^secret-push: .*expire_after_views.*\[request id \S+\]\n$/);
      const missingFile = await cli(['push', '--file', join(dir, 'nope')], { env });
      expect(missingFile).toMatchObject({ code: EXIT.error });
      expect(missingFile.stderr).toMatch(/nope: no such file\n$/);
    },
    TIMEOUT,
  );
});

describe('plain http', () => {
  /** A fetch that sends what is meant for `host` to the real push service, counting it. */
  function onLoopback(host: string) {
    const sent: string[] = [];
    const f = ((input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.host !== host) return fetch(input, init);
      sent.push(url.pathname);
      const real = new URL(push.url);
      url.protocol = real.protocol;
      url.host = real.host;
      return fetch(url, init);
    }) as typeof fetch;
    return { sent, fetch: f };
  }

  test(
    'an http:// server or auth URL off this machine is refused (exit 2, nothing sent) unless --insecure',
    async () => {
      const remote = onLoopback('push.example.test');
      const env = { ...envFor(), SECRET_PUSH_URL: 'http://push.example.test' };
      const refused = await cli(['push'], { env, stdin: 's3cret\n', fetch: remote.fetch });
      expect(refused.code).toBe(EXIT.usage);
      expect(refused.stderr).toMatch(
        /^secret-push: Refusing http:\/\/push\.example\.test: a plain http:\/\/ URL sends secrets unencrypted\. Use https:\/\/, or pass --insecure .*\n$/,
      );
      const viaLink = await cli(['get', 'http://push.example.test/p/AAAAAAAAAAAAAAAAAAAAAA'], {
        env: envFor(),
        fetch: remote.fetch,
      });
      expect(viaLink.code).toBe(EXIT.usage);
      const authRefused = await cli(['token'], {
        env: { ...envFor(), SECRET_PUSH_AUTH_URL: 'http://auth.example.test' },
      });
      expect(authRefused.code).toBe(EXIT.usage);
      expect(authRefused.stderr).toContain('Refusing http://auth.example.test');
      expect(remote.sent).toEqual([]);

      const allowed = await cli(['push', '--insecure'], { env, stdin: 's3cret\n', fetch: remote.fetch });
      expect(allowed).toMatchObject({ code: 0, stderr: '' });
      expect(remote.sent).toEqual(['/api/v2/pushes']);
      // Loopback needs no flag (every other test here runs on 127.0.0.1).
      expect((await cli(['get', allowed.stdout.trim()], { env: envFor() })).stdout).toBe('s3cret\n');
    },
    TIMEOUT,
  );
});
