import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ClientCredentials, TestAuth } from '@secret-push/auth/testing';
import {
  type TestPush,
  type TestStack,
  startPush,
  startStack,
  startTestWorker,
} from '@secret-push/push/testing';
import { type MailCatcher, startMailCatcher } from '@secret-push/testing';
import { EXIT, main } from './cli.ts';

// `--notify`, `--notify-locale` and `secret-push notify` (issue 26) in-process against the real
// services: an auth service, a push API whose SMTP is a real SMTP server in this process, a worker
// sending through it, and a second push API without email. Test files of this package run as ES
// modules, where Jest has no `jest` global: timeouts are given per hook and test.
const TIMEOUT = 60_000;

let stack: TestStack;
let auth: TestAuth;
let push: TestPush;
let noEmail: TestPush;
let credentials: ClientCredentials;
let mail: MailCatcher;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
let dir: string;

beforeAll(async () => {
  mail = await startMailCatcher();
  const smtp = { PUSH_SMTP_URL: mail.url, PUSH_MAIL_FROM: 'secret-push@example.org' };
  stack = await startStack({ pushEnv: smtp });
  ({ auth, push, credentials } = stack);
  worker = await startTestWorker(push); // SMTP, keys and public URL from the push service's
  noEmail = await startPush(auth);
  dir = mkdtempSync(join(tmpdir(), 'sptest-cli-notify-'));
}, TIMEOUT);
afterAll(async () => {
  await worker?.close();
  await noEmail?.stop();
  await stack?.stop();
  await mail?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, TIMEOUT);

function envFor(url: string): Record<string, string> {
  return {
    XDG_CONFIG_HOME: mkdtempSync(join(dir, 'home-')),
    HOME: '/nonexistent',
    SECRET_PUSH_URL: url,
    SECRET_PUSH_AUTH_URL: auth.issuer,
    SECRET_PUSH_CLIENT_ID: credentials.client_id,
    SECRET_PUSH_CLIENT_SECRET: credentials.client_secret,
  };
}

async function cli(argv: string[], options: { url?: string; stdin?: string } = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main({
    argv,
    env: envFor(options.url ?? push.url),
    stdin: Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { code, stdout, stderr };
}

const emailTo = (address: string) => mail.waitFor((m) => m.envelope.to.includes(address), 15_000);

test(
  '`push --notify a,b --notify-locale en` emails the link to both, never the secret',
  async () => {
    const created = await cli(
      ['push', '--notify', 'one@example.net,two@example.net', '--notify-locale', 'en'],
      { stdin: 'cli emailed secret\n' },
    );
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const link = created.stdout.trim();
    for (const to of ['one@example.net', 'two@example.net']) {
      const email = await emailTo(to);
      expect(email.text).toContain(link);
      expect(email.text).not.toContain('cli emailed secret');
    }
  },
  TIMEOUT,
);

test(
  '`notify LINK ADDRESS --locale en` emails the link of a push later; a bad address exits 1 with the field',
  async () => {
    const link = (await cli(['push'], { stdin: 'later\n' })).stdout.trim();
    const sent = await cli(['notify', link, 'later@example.net', '--locale', 'en']);
    expect(sent.code).toBe(EXIT.ok);
    expect(sent.stdout.trim().length).toBeGreaterThan(0);
    expect((await emailTo('later@example.net')).text).toContain(link);

    const json = await cli(['notify', link, 'json@example.net', '--json']);
    expect(JSON.parse(json.stdout)).toHaveProperty('message');

    const bad = await cli(['notify', link, 'nope']);
    expect(bad.code).toBe(EXIT.error);
    expect(bad.stderr).toMatch(/^secret-push: .*notify_emails_to/);
  },
  TIMEOUT,
);

test(
  'where the server sends no email, --notify is dropped with a warning and the push is still created',
  async () => {
    const created = await cli(['push', '--notify', 'nobody@example.net'], { url: noEmail.url, stdin: 's\n' });
    expect(created.code).toBe(EXIT.ok);
    expect(created.stdout).toMatch(/\/p\/[\w-]+/);
    expect(created.stderr).toContain('does not send email');
    expect(created.stderr).toContain('--notify is ignored');
  },
  TIMEOUT,
);

test(
  'usage errors: an empty address, --notify-locale alone, notify without addresses',
  async () => {
    expect((await cli(['push', '--notify', 'a@example.net,'], { stdin: 's\n' })).code).toBe(EXIT.usage);
    expect((await cli(['push', '--notify-locale', 'en'], { stdin: 's\n' })).code).toBe(EXIT.usage);
    expect((await cli(['notify', 'AbCdEfGhIjKlMnOpQrStUv'])).code).toBe(EXIT.usage);
  },
  TIMEOUT,
);
