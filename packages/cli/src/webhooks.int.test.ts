import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ClientCredentials, TestAuth } from '@secret-push/auth/testing';
import { type TestPush, type TestStack, startStack } from '@secret-push/push/testing';
import { WEBHOOK_EVENT_TYPES } from '@secret-push/client';
import { EXIT, main } from './cli.ts';

// `secret-push webhooks …` (issue 27) in-process against the real services: an auth service and a
// push API. No worker runs: a test message stays queued (`pending`) in the delivery log, which is
// what these tests look at (delivery itself is the push service's and the SDK's tests). Test files
// of this package run as ES modules, where Jest has no `jest` global: timeouts are given per hook
// and test.
const TIMEOUT = 60_000;

let stack: TestStack;
let auth: TestAuth;
let push: TestPush;
let credentials: ClientCredentials;
let dir: string;

beforeAll(async () => {
  stack = await startStack();
  ({ auth, push, credentials } = stack);
  dir = mkdtempSync(join(tmpdir(), 'sptest-cli-webhooks-'));
}, TIMEOUT);
afterAll(async () => {
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, TIMEOUT);

const home = () => ({ XDG_CONFIG_HOME: mkdtempSync(join(dir, 'home-')), HOME: '/nonexistent' });

function envFor(c: ClientCredentials = credentials): Record<string, string> {
  return {
    ...home(),
    SECRET_PUSH_URL: push.url,
    SECRET_PUSH_AUTH_URL: auth.issuer,
    SECRET_PUSH_CLIENT_ID: c.client_id,
    SECRET_PUSH_CLIENT_SECRET: c.client_secret,
  };
}

async function cli(argv: string[], env: Record<string, string> = envFor()) {
  let stdout = '';
  let stderr = '';
  const code = await main({
    argv,
    env,
    stdin: Readable.from([]),
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { code, stdout, stderr };
}

/** The `name: value` lines of `webhooks add` and `rotate`. */
interface Details {
  id: string;
  url: string;
  events: string;
  state: string;
  secret: string;
  'previous secret signs until'?: string;
}
const fields = (stdout: string) =>
  Object.fromEntries(
    stdout
      .trim()
      .split('\n')
      .map((l) => l.split(/: (.*)/s).slice(0, 2)),
  ) as unknown as Details;

interface Endpoint {
  id: string;
  url: string;
  enabled: boolean;
  event_types: string[];
  secret?: string;
}

test(
  'add prints the id and the secret once; list, disable, enable, rotate, rm; --json',
  async () => {
    const env = envFor(await auth.createClient('pushes:read pushes:write'));
    const added = await cli(['webhooks', 'add', 'https://hooks.example/cli'], env);
    expect(added.code).toBe(EXIT.ok);
    const made = fields(added.stdout);
    expect(made).toMatchObject({
      url: 'https://hooks.example/cli',
      state: 'enabled',
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(made.events.split(', ')).toHaveLength(WEBHOOK_EVENT_TYPES.length); // every type by default
    expect(added.stderr).toMatch(/^Store the secret now.*not shown again/);

    const json = await cli(
      [
        'webhooks',
        'add',
        'https://hooks.example/cli-2',
        '--types',
        'viewed,push.expired',
        '--disabled',
        '--json',
      ],
      env,
    );
    expect(json.code).toBe(EXIT.ok);
    const second = JSON.parse(json.stdout) as Endpoint;
    expect(second).toMatchObject({
      url: 'https://hooks.example/cli-2',
      event_types: ['push.viewed', 'push.expired'],
      enabled: false,
      secret: expect.stringMatching(/^whsec_/),
    });

    const table = await cli(['webhooks', 'list'], env);
    expect(table.code).toBe(EXIT.ok);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+STATE\s+EVENTS\s+URL$/);
    expect(lines[1]).toMatch(new RegExp(`^${made.id}\\s+enabled\\s+all\\s+https://hooks.example/cli$`));
    expect(lines[2]).toMatch(
      new RegExp(`^${second.id}\\s+disabled \\(disabled by its owner\\)\\s+push.viewed,push.expired\\s+`),
    );
    const listed = await cli(['webhooks', 'list', '--json'], env);
    expect((JSON.parse(listed.stdout) as Endpoint[]).map((w) => w.id)).toEqual([made.id, second.id]);
    expect(table.stdout + listed.stdout).not.toMatch(/whsec_/);

    expect(await cli(['webhooks', 'enable', second.id], env)).toMatchObject({
      code: EXIT.ok,
      stdout: `Webhook ${second.id} enabled\n`,
    });
    expect(await cli(['webhooks', 'disable', made.id], env)).toMatchObject({
      code: EXIT.ok,
      stdout: `Webhook ${made.id} disabled\n`,
    });
    const states = JSON.parse((await cli(['webhooks', 'list', '--json'], env)).stdout) as Endpoint[];
    expect(states.map((w) => w.enabled)).toEqual([false, true]);

    const rotated = await cli(['webhooks', 'rotate', made.id], env);
    expect(rotated.code).toBe(EXIT.ok);
    const after = fields(rotated.stdout);
    expect(after.secret).toMatch(/^whsec_/);
    expect(after.secret).not.toBe(made.secret);
    expect(after['previous secret signs until']).toMatch(/ UTC$/);
    expect(rotated.stderr).toContain('Store the secret now');

    expect(await cli(['webhooks', 'rm', made.id], env)).toMatchObject({
      code: EXIT.ok,
      stdout: `Deleted webhook ${made.id} (https://hooks.example/cli)\n`,
    });
    const gone = await cli(['webhooks', 'rm', made.id], env);
    expect(gone).toMatchObject({ code: EXIT.notFound, stdout: '' });
    expect(gone.stderr).toMatch(/^secret-push: Webhook not found\./);
    await cli(['webhooks', 'rm', second.id], env);
    expect(await cli(['webhooks', 'list'], env)).toMatchObject({
      code: EXIT.ok,
      stdout: '',
      stderr: 'No webhooks.\n',
    });
  },
  TIMEOUT,
);

test(
  'test queues a webhook.test message, seen pending in deliveries; replay; one of another owner or missing is not found',
  async () => {
    const env = envFor();
    const made = JSON.parse(
      (await cli(['webhooks', 'add', 'https://hooks.example/cli-test', '--types', 'created', '--json'], env))
        .stdout,
    ) as Endpoint;

    const sent = await cli(['webhooks', 'test', made.id], env);
    expect(sent.code).toBe(EXIT.ok);
    const msg = /Queued a webhook\.test message, (msg_[0-9a-f]{32}):/.exec(sent.stdout)?.[1];
    expect(msg).toBeDefined();

    const log = await cli(['webhooks', 'deliveries', made.id], env);
    expect(log.code).toBe(EXIT.ok);
    const rows = log.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^ID\s+TYPE\s+STATUS\s+ATTEMPTS\s+CODE\s+QUEUED\s+LAST ERROR$/);
    expect(rows[1]).toMatch(
      new RegExp(`^${msg}\\s+webhook\\.test\\s+pending\\s+0\\s+-\\s+\\d{4}-.* UTC\\s+-$`),
    );
    expect(rows).toHaveLength(2);
    const asJson = JSON.parse((await cli(['webhooks', 'deliveries', made.id, '--json'], env)).stdout) as {
      id: string;
      status: string;
    }[];
    expect(asJson).toEqual([expect.objectContaining({ id: msg, status: 'pending', type: 'webhook.test' })]);
    expect(await cli(['webhooks', 'deliveries', made.id, '--page', '2'], env)).toMatchObject({
      code: EXIT.ok,
      stdout: '',
      stderr: 'No deliveries on this page.\n',
    });

    expect(await cli(['webhooks', 'replay', made.id, msg!], env)).toMatchObject({
      code: EXIT.ok,
      stdout: `${msg} is due again now (the same webhook-id)\n`,
    });
    const unknownMsg = await cli(['webhooks', 'replay', made.id, `msg_${'0'.repeat(32)}`], env);
    expect(unknownMsg.code).toBe(EXIT.notFound);
    expect(unknownMsg.stderr).toMatch(/^secret-push: Webhook not found\./);

    // Another owner's endpoint, and one that does not exist, are not found: exit 4, one line.
    const stranger = envFor(await auth.createClient('pushes:read pushes:write'));
    for (const argv of [
      ['webhooks', 'test', made.id],
      ['webhooks', 'deliveries', made.id],
      ['webhooks', 'rm', made.id],
      ['webhooks', 'disable', made.id],
      ['webhooks', 'rotate', made.id],
      ['webhooks', 'replay', made.id, msg!],
    ]) {
      const run = await cli(argv, stranger);
      expect([run.code, run.stdout]).toEqual([EXIT.notFound, '']);
      expect(run.stderr).toMatch(/^secret-push: Webhook not found\. \[request id [^\]]+\]\n$/);
    }
    const missing = await cli(['webhooks', 'test', '00000000-0000-4000-8000-000000000000'], env);
    expect(missing.code).toBe(EXIT.notFound);
    // Nothing changed: still enabled, one delivery.
    expect(JSON.parse((await cli(['webhooks', 'list', '--json'], env)).stdout)).toEqual([
      expect.objectContaining({ id: made.id, enabled: true }),
    ]);
    expect(JSON.parse((await cli(['webhooks', 'deliveries', made.id, '--json'], env)).stdout)).toHaveLength(
      1,
    );
    await cli(['webhooks', 'rm', made.id], env);
  },
  TIMEOUT,
);

test(
  "a person's token manages the person's own webhooks; a read-only client may list but not add",
  async () => {
    const person = await push.db
      .insertInto('app_user')
      .values({
        issuer: 'https://idp.example',
        subject: `cli-${randomBytes(4).toString('hex')}`,
        email: 'hooks@example.org',
        email_verified: true,
        disabled_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const token = JSON.parse(
      (await push.cli('tokens', 'create', '--user', person.id, '--name', 'cli', '--json')).out,
    ) as { token: string };
    const personal = { ...home(), SECRET_PUSH_URL: push.url, SECRET_PUSH_TOKEN: token.token };
    const added = await cli(['webhooks', 'add', 'https://hooks.example/person', '--json'], personal);
    expect(added.code).toBe(EXIT.ok);
    const mine = JSON.parse((await cli(['webhooks', 'list', '--json'], personal)).stdout) as Endpoint[];
    expect(mine.map((w) => w.url)).toEqual(['https://hooks.example/person']);

    const readOnly = envFor(await auth.createClient('pushes:read'));
    expect(await cli(['webhooks', 'list'], readOnly)).toMatchObject({
      code: EXIT.ok,
      stderr: 'No webhooks.\n',
    });
    const refused = await cli(['webhooks', 'add', 'https://hooks.example/ro'], readOnly);
    expect(refused).toMatchObject({ code: EXIT.auth, stdout: '' });
    expect(refused.stderr).toMatch(/^secret-push: .*pushes:write/);
  },
  TIMEOUT,
);

test(
  'usage errors exit 2 and send nothing; a URL the API refuses exits 1 naming the field; no credentials exit 3',
  async () => {
    const env = envFor(await auth.createClient('pushes:read pushes:write'));
    for (const [argv, message] of [
      [['webhooks'], /^secret-push: Expected webhooks add, list, rm/],
      [['webhooks', 'bogus'], /^secret-push: Unknown webhooks command: bogus/],
      [['webhooks', 'constructor'], /Unknown webhooks command/],
      [['webhooks', 'add'], /Expected the URL/],
      [
        ['webhooks', 'add', 'https://hooks.example/x', '--types', 'viewed,eaten'],
        /--types takes event types.*"eaten"/,
      ],
      [['webhooks', 'add', 'https://hooks.example/x', '--types', ''], /--types takes event types/],
      [['webhooks', 'add', 'https://hooks.example/x', '--colour'], /Unknown option '--colour'/],
      [['webhooks', 'list', 'extra'], /takes no arguments/],
      [['webhooks', 'rm'], /Expected a webhook id/],
      [['webhooks', 'rm', 'a/b'], /Not a webhook id/],
      [
        ['webhooks', 'replay', '00000000-0000-4000-8000-000000000000'],
        /Expected a webhook id and a delivery id/,
      ],
      [['webhooks', 'replay', '00000000-0000-4000-8000-000000000000', '../x'], /Not a delivery id/],
      [
        ['webhooks', 'deliveries', '00000000-0000-4000-8000-000000000000', '--page', 'two'],
        /--page needs a whole number/,
      ],
      [['toString'], /Unknown command: toString/],
    ] as const) {
      const run = await cli([...argv], env);
      expect([argv, run.code, run.stdout]).toEqual([argv, EXIT.usage, '']);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).toMatch(/\(see secret-push --help\)\n$/);
    }

    const ftp = await cli(['webhooks', 'add', 'ftp://hooks.example/x'], env);
    expect([ftp.code, ftp.stdout]).toEqual([EXIT.error, '']);
    expect(ftp.stderr).toMatch(/^secret-push: .*\(url .*\)/);
    expect((await cli(['webhooks', 'list'], env)).stderr).toBe('No webhooks.\n');

    const loggedOut = await cli(['webhooks', 'list'], { ...home(), SECRET_PUSH_URL: push.url });
    expect(loggedOut).toMatchObject({ code: EXIT.auth, stdout: '' });
    expect(loggedOut.stderr).toContain('Webhooks need credentials: run secret-push login');
  },
  TIMEOUT,
);
