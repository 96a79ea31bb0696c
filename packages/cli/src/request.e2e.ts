import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ClientCredentials, TestAuth } from '@secret-push/auth/testing';
import { type TestPush, type TestStack, startStack } from '@secret-push/push/testing';

// Requests (issue 28) through the built binary (`node packages/cli/dist/main.js`) as a child
// process, against the real services in-process: the requester creates, the responder (with no
// credentials at all) answers from stdin and with a file, the requester reads the answer.
const TIMEOUT = 120_000;
const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'packages', 'cli', 'dist', 'main.js');

let stack: TestStack;
let auth: TestAuth;
let push: TestPush;
let credentials: ClientCredentials;
let dir: string;

beforeAll(async () => {
  await promisify(execFile)(process.execPath, [
    join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
    '-b',
    join(ROOT, 'packages', 'cli'),
  ]);
  stack = await startStack();
  ({ auth, push, credentials } = stack);
  dir = mkdtempSync(join(tmpdir(), 'sptest-cli-rq-'));
}, TIMEOUT);
afterAll(async () => {
  await stack?.stop();
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
      env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', XDG_CONFIG_HOME: dir, ...env },
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

const requester = () => ({
  SECRET_PUSH_URL: push.url,
  SECRET_PUSH_AUTH_URL: auth.issuer,
  SECRET_PUSH_CLIENT_ID: credentials.client_id,
  SECRET_PUSH_CLIENT_SECRET: credentials.client_secret,
});
/** The responder: no server configured, no credentials; the link says where to go. */
const nobody = {};
const digest = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

test(
  'request create → respond from stdin → request answer; a second answer refused; show, list, audit, close',
  async () => {
    const made = await secretPush(
      ['request', 'create', '--name', 'vendor key', '--views', '2'],
      requester(),
      'Send me the vendor key\n',
    );
    expect(made).toMatchObject({ code: 0, stderr: '' });
    const link = made.stdout.trim();
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/respond\/[A-Za-z0-9_-]+$/);

    const shown = await secretPush(['respond', link, '--show'], nobody);
    expect(shown).toMatchObject({ code: 0 });
    expect(shown.stdout).toMatch(/^Send me the vendor key\n/);

    const answered = await secretPush(['respond', link], nobody, 'sk_live_from_stdin\n');
    expect(answered).toMatchObject({ code: 0, stdout: 'Answered; the requester can now retrieve it.\n' });
    const twice = await secretPush(['respond', link, '--text', 'again'], nobody);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/^secret-push: .*\n$/);

    const got = await secretPush(['request', 'answer', link], requester());
    expect(got).toMatchObject({ code: 0, stdout: 'sk_live_from_stdin\n' });

    const show = await secretPush(['request', 'show', link], requester());
    expect(show.stdout).toContain('state: answered');
    expect(show.stdout).toContain('name: vendor key');
    const listed = await secretPush(['request', 'list', '--state', 'answered', '--json'], requester());
    const tokens = (JSON.parse(listed.stdout) as { html_url: string }[]).map((r) => r.html_url);
    expect(tokens).toContain(link);
    const audit = await secretPush(['request', 'audit', link], requester());
    expect(audit.stdout).toMatch(/answer/);

    expect((await secretPush(['request', 'close', link], requester())).stdout).toBe(`Closed ${link}\n`);
    const closed = await secretPush(['respond', link, '--show'], nobody);
    expect(closed.code).toBe(4);
  },
  TIMEOUT,
);

test(
  'a request with an attached file; the responder saves it, answers with text from stdin and a file; the answer saved with --out',
  async () => {
    const attached = randomBytes(100_000);
    const attachedPath = join(dir, 'form.bin');
    writeFileSync(attachedPath, attached);
    const made = await secretPush(
      ['request', 'create', 'Fill in the form', '--allow-files', '--attach', attachedPath, '--json'],
      requester(),
    );
    expect(made.code).toBe(0);
    const { html_url: link, files } = JSON.parse(made.stdout) as { html_url: string; files: unknown[] };
    expect(files).toHaveLength(1);

    const saveDir = join(dir, 'attachments');
    const saved = await secretPush(['respond', link, '--save-attachments', saveDir], nobody);
    expect(saved.code).toBe(0);
    expect(digest(readFileSync(join(saveDir, 'form.bin')))).toBe(digest(attached));

    const answer = randomBytes(250_000);
    const answerPath = join(dir, 'filled.bin');
    writeFileSync(answerPath, answer);
    const answered = await secretPush(['respond', link, '-', answerPath], nobody, 'see the file\n');
    expect(answered).toMatchObject({ code: 0 });

    const out = join(dir, 'answer-out');
    const got = await secretPush(['request', 'answer', link, '--out', out], requester());
    expect(got).toMatchObject({ code: 0, stdout: 'see the file\n' });
    expect(got.stderr).toContain(`Saved ${join(out, 'filled.bin')}`);
    expect(digest(readFileSync(join(out, 'filled.bin')))).toBe(digest(answer));

    const usage = await secretPush(['respond', link, '--code', '123456', '--text', 'x'], nobody);
    expect(usage.code).toBe(2);
  },
  TIMEOUT,
);
