import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ClientCredentials, TestAuth } from '@secret-push/auth/testing';
import { type TestPush, type TestStack, startStack, startTestWorker } from '@secret-push/push/testing';
import { type MailCatcher, startMailCatcher } from '@secret-push/testing';
import { EXIT, main } from './cli.ts';
import { parseRequestRef } from './links.ts';

// `secret-push request …` and `secret-push respond …` in-process (the command's `main` with
// injected argv, env, stdin and outputs) against the real services, with SMTP pointed at a real
// SMTP server in this process and a worker sending through it: the one-time code of a request
// answerable by listed addresses is read from stdin as it arrives. (The plain flow through the
// built binary is in request.e2e.ts.)
const TIMEOUT = 60_000;

let stack: TestStack;
let auth: TestAuth;
let push: TestPush;
let credentials: ClientCredentials;
let mail: MailCatcher;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
let dir: string;

beforeAll(async () => {
  mail = await startMailCatcher();
  stack = await startStack({
    pushEnv: { PUSH_SMTP_URL: mail.url, PUSH_MAIL_FROM: 'secret-push@example.org' },
  });
  ({ auth, push, credentials } = stack);
  worker = await startTestWorker(push);
  dir = mkdtempSync(join(tmpdir(), 'sptest-cli-rq-int-'));
}, TIMEOUT);
afterAll(async () => {
  await worker?.close();
  await stack?.stop();
  await mail?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, TIMEOUT);

const home = () => ({ XDG_CONFIG_HOME: mkdtempSync(join(dir, 'home-')), HOME: '/nonexistent' });
const requester = () => ({
  ...home(),
  SECRET_PUSH_URL: push.url,
  SECRET_PUSH_AUTH_URL: auth.issuer,
  SECRET_PUSH_CLIENT_ID: credentials.client_id,
  SECRET_PUSH_CLIENT_SECRET: credentials.client_secret,
});

async function cli(
  argv: string[],
  env: Record<string, string>,
  stdin: AsyncIterable<Uint8Array> = Readable.from([]),
) {
  let stdout = '';
  let stderr = '';
  const code = await main({
    argv,
    env,
    stdin,
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { code, stdout, stderr };
}

test(
  'answerable by emails: respond --email asks for a code, reads it from stdin, and answers',
  async () => {
    const made = await cli(
      [
        'request',
        'create',
        'Send the key',
        '--email',
        'listed@example.net',
        '--notify',
        'listed@example.net',
      ],
      requester(),
    );
    expect(made).toMatchObject({ code: 0, stderr: '' });
    const link = made.stdout.trim();
    const invitation = await mail.waitFor(
      (m) => m.envelope.to.includes('listed@example.net') && (m.text ?? '').includes(link),
      20_000,
    );
    expect(invitation.text).toContain(link);

    // stdin gives the code once the email with it has arrived.
    async function* codeFromEmail() {
      const email = await mail.waitFor(
        (m) => m.envelope.to.includes('listed@example.net') && /\b\d{6}\b/.test(m.text ?? ''),
        20_000,
      );
      yield Buffer.from(`${/\b(\d{6})\b/.exec(email.text ?? '')![1]}\n`);
    }
    const answered = await cli(
      ['respond', link, '--email', 'listed@example.net', '--text', 'proved by email'],
      home(),
      codeFromEmail(),
    );
    expect(answered).toMatchObject({ code: 0, stdout: 'Answered; the requester can now retrieve it.\n' });
    expect(answered.stderr).toContain('A code was sent to listed@example.net');

    const got = await cli(['request', 'answer', parseRequestRef(link).urlToken], requester());
    expect(got).toMatchObject({ code: 0, stdout: 'proved by email\n' });
  },
  TIMEOUT,
);

const digest = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

test(
  'show, list, audit; the responder reads the request and saves its attachment; close, then 4',
  async () => {
    const attached = randomBytes(100_000);
    const attachedPath = join(dir, 'form.bin');
    writeFileSync(attachedPath, attached);
    const made = await cli(
      ['request', 'create', 'Fill in the form', '--name', 'form', '--attach', attachedPath, '--json'],
      requester(),
    );
    expect(made.code).toBe(0);
    const { html_url: link, files } = JSON.parse(made.stdout) as { html_url: string; files: unknown[] };
    expect(files).toHaveLength(1);

    const shown = await cli(['respond', link, '--show'], home());
    expect(shown).toMatchObject({ code: 0 });
    expect(shown.stdout).toMatch(/^Fill in the form\n\n/);
    expect(shown.stdout).toContain('attached: form.bin');
    const saveDir = join(dir, 'attachments');
    expect((await cli(['respond', link, '--save-attachments', saveDir], home())).code).toBe(0);
    expect(digest(readFileSync(join(saveDir, 'form.bin')))).toBe(digest(attached));

    const show = await cli(['request', 'show', link], requester());
    expect(show.stdout).toContain('state: open');
    expect(show.stdout).toContain('name: form');
    const listed = await cli(['request', 'list', '--state', 'open', '--json'], requester());
    expect((JSON.parse(listed.stdout) as { html_url: string }[]).map((r) => r.html_url)).toContain(link);
    expect((await cli(['request', 'list'], requester())).stdout).toContain(link);
    expect((await cli(['request', 'preview', link], requester())).stdout).toBe(`${link}\n`);
    const audit = await cli(['request', 'audit', link], requester());
    expect(audit.stdout).toMatch(/creation/);
    expect(audit.stdout).toMatch(/attachment_download/);
    expect((await cli(['request', 'answer', link], requester())).code).toBe(EXIT.notFound);

    expect((await cli(['request', 'close', link], requester())).stdout).toBe(`Closed ${link}\n`);
    expect((await cli(['respond', link, '--show'], home())).code).toBe(EXIT.notFound);
    expect((await cli(['respond', link, '--text', 'late'], home())).code).toBe(EXIT.notFound);
  },
  TIMEOUT,
);

test(
  'usage errors exit 2 before anything is sent; no credentials exit 3; a bad code exits 2',
  async () => {
    const env = requester();
    for (const argv of [
      ['request'],
      ['request', 'frobnicate'],
      ['request', 'create', 'x', '--answerable-by', 'emails'],
      ['request', 'create', 'x', '--answerable-by', 'everyone'],
      ['request', 'create', 'x', '--days', '2', '--duration', '1h'],
      ['request', 'list', '--state', 'everything'],
      ['request', 'show', 'not a token'],
      ['respond'],
      ['respond', 'https://h.example/p/abc'],
      ['respond', 'https://h.example/respond/abc', '--url', '--qr', '--text', 'x'],
      ['respond', 'https://h.example/respond/abc', '--code', '123456', '--text', 'x'],
    ]) {
      const run = await cli(argv, env);
      expect([argv, run.code]).toEqual([argv, EXIT.usage]);
      expect(run.stderr).toMatch(/^secret-push: .*\(see secret-push --help\)\n$/);
    }
    expect((await cli(['request', 'list'], { ...home(), SECRET_PUSH_URL: push.url })).code).toBe(EXIT.auth);

    const made = await cli(['request', 'create', 'x', '--email', 'a@example.net'], env);
    const link = made.stdout.trim();
    const bad = await cli(
      ['respond', link, '--email', 'a@example.net', '--text', 'x'],
      home(),
      Readable.from(['12\n']),
    );
    expect(bad.code).toBe(EXIT.usage);
    const help = await cli(['--help'], env);
    expect(help.stdout).toContain('request create [TEXT|-]');
    expect(help.stdout).toContain('respond LINK [-] [FILE…]');
  },
  TIMEOUT,
);
