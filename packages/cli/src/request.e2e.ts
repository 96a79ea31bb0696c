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
// credentials at all) answers from stdin and with a file, the requester reads the answer. Kept to
// one request (the CLI suite has 4 minutes); the other commands run in-process in request.int.test.ts.
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
  'request create → respond with text from stdin and a file → request answer --out; a second answer exits 1',
  async () => {
    const made = await secretPush(
      ['request', 'create', '--name', 'vendor key', '--allow-files', '--views', '2'],
      requester(),
      'Send me the vendor key\n',
    );
    expect(made).toMatchObject({ code: 0, stderr: '' });
    const link = made.stdout.trim();
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/respond\/[A-Za-z0-9_-]+$/);

    const bytes = randomBytes(250_000);
    const file = join(dir, 'filled.bin');
    writeFileSync(file, bytes);
    const answered = await secretPush(['respond', link, '-', file], nobody, 'sk_live_from_stdin\n');
    expect(answered).toMatchObject({ code: 0, stdout: 'Answered; the requester can now retrieve it.\n' });
    const twice = await secretPush(['respond', link, '--text', 'again'], nobody);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/^secret-push: [^\n]*\n$/);

    const out = join(dir, 'answer-out');
    const got = await secretPush(['request', 'answer', link, '--out', out], requester());
    expect(got).toMatchObject({ code: 0, stdout: 'sk_live_from_stdin\n' });
    expect(got.stderr).toContain(`Saved ${join(out, 'filled.bin')}`);
    expect(digest(readFileSync(join(out, 'filled.bin')))).toBe(digest(bytes));
  },
  TIMEOUT,
);
