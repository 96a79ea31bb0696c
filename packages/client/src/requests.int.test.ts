import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClientCredentials, TestAuth } from '@secret-push/auth/testing';
import { type TestPush, type TestStack, startStack, startTestWorker } from '@secret-push/push/testing';
import { type MailCatcher, startMailCatcher } from '@secret-push/testing';
import {
  NotFoundError,
  SecretPushError,
  UnauthorizedError,
  createClient,
  type RequestView,
  type SecretPushClient,
} from './index.ts';

// client.requests (issue 28) against the real services: an auth service, a push API with a
// private s3rver and SMTP pointed at a real SMTP server in this process, and a worker that sends
// through it (the one-time codes). Test files of this package run as ES modules, where Jest has
// no `jest` global: timeouts are given per hook and test.
const TIMEOUT = 60_000;

let stack: TestStack;
let auth: TestAuth;
let push: TestPush;
let credentials: ClientCredentials;
let mail: MailCatcher;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
/** A personal API token of a signed-in person (for requests answerable by users only). */
let personal: string;
let dir: string;

beforeAll(async () => {
  mail = await startMailCatcher();
  const smtp = { PUSH_SMTP_URL: mail.url, PUSH_MAIL_FROM: 'secret-push@example.org' };
  stack = await startStack({ pushEnv: smtp });
  ({ auth, push, credentials } = stack);
  worker = await startTestWorker(push);
  const person = await push.db
    .insertInto('app_user')
    .values({
      issuer: 'https://idp.example',
      subject: `sdk-rq-${randomBytes(4).toString('hex')}`,
      email: 'responder@example.org',
      email_verified: true,
      disabled_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const made = await push.cli('tokens', 'create', '--user', person.id, '--name', 'sdk', '--json');
  personal = (JSON.parse(made.out) as { token: string }).token;
  dir = mkdtempSync(join(tmpdir(), 'sptest-client-rq-'));
}, TIMEOUT);
afterAll(async () => {
  await worker?.close();
  await stack?.stop();
  await mail?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, TIMEOUT);

const owner = (): SecretPushClient =>
  createClient({
    baseUrl: push.url,
    auth: {
      clientId: credentials.client_id,
      clientSecret: credentials.client_secret,
      tokenUrl: `${auth.issuer}/connect/token`,
    },
  });
const anonymous = (): SecretPushClient => createClient({ baseUrl: push.url });

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** The error a promise rejects with (fails the test when it resolves). */
async function failure(p: Promise<unknown>): Promise<SecretPushError> {
  try {
    await p;
  } catch (err) {
    return err as SecretPushError;
  }
  throw new Error('expected a failure');
}

async function tokensOf(list: AsyncIterable<RequestView>): Promise<string[]> {
  const tokens: string[] = [];
  for await (const r of list) tokens.push(r.url_token);
  return tokens;
}

test(
  'version: requests are on; create, view, respond anonymously, a second answer 409, the answer, audit, close',
  async () => {
    const version = await anonymous().version();
    expect(version.edition).toBe('commercial');
    expect(version.features.requests).toMatchObject({ enabled: true, email_auto_dispatch: true });

    const client = owner();
    const made = await client.requests.create({
      request: 'Please send the <vendor> API key',
      name: 'vendor key',
      note: 'for the billing job',
      expire_after_views: 2,
    });
    expect(made).toMatchObject({
      state: 'open',
      request: 'Please send the <vendor> API key',
      name: 'vendor key',
      note: 'for the billing job',
      passphrase: false,
      answerable_by: 'anyone',
      expire_after_views: 2,
      answer: null,
      files: [],
    });
    expect(made.html_url).toBe(`${push.url}/respond/${made.url_token}`);
    expect((await client.requests.preview(made.url_token)).url).toBe(made.html_url);
    expect(await tokensOf(client.requests.list('open'))).toContain(made.url_token);
    expect(await tokensOf(client.requests.list())).toContain(made.url_token);

    const responder = anonymous();
    const view = await responder.requests.view(made.html_url); // by its link
    expect(view).toMatchObject({
      request: 'Please send the <vendor> API key',
      requestor: null,
      passphrase_required: false,
      response_file_attachments: false,
      files: [],
    });
    expect(await client.requests.answer(made.url_token)).toBeNull();

    const done = await responder.requests.respond(made.html_url, { payload: 'sk_live_123' });
    expect(done.state).toBe('answered');
    expect(JSON.stringify(done)).not.toContain('url_token');
    const again = await failure(responder.requests.respond(made.url_token, { payload: 'other' }));
    expect(again).toMatchObject({ status: 409, code: 'already_answered', kind: 'conflict' });

    const answered = await client.requests.get(made.url_token);
    expect(answered.state).toBe('answered');
    expect(answered.answer).toMatchObject({ files: 0 });
    expect(await tokensOf(client.requests.list('ready'))).toContain(made.url_token);
    const got = await client.requests.answer(made.url_token);
    expect(got).toMatchObject({ payload: 'sk_live_123', views_remaining: 1 });

    const kinds = [];
    for await (const e of client.requests.auditEntries(made.url_token)) kinds.push(e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['creation', 'link_opened', 'answer']));
    expect((await client.requests.audit(made.url_token)).logs.length).toBe(kinds.length);

    const closed = await client.requests.close(made.url_token);
    expect(closed).toMatchObject({ state: 'closed', closed_reason: 'owner' });
    expect(await client.requests.close(made.url_token)).toMatchObject({ state: 'closed' });
    expect(await tokensOf(client.requests.list('closed'))).toContain(made.url_token);
    await expect(responder.requests.view(made.url_token)).rejects.toBeInstanceOf(NotFoundError);
  },
  TIMEOUT,
);

test(
  'files both ways: attachments streamed up and down (counted), an answer with files retrieved byte for byte',
  async () => {
    const client = owner();
    const attached = randomBytes(150_000);
    const attachedPath = join(dir, 'form.pdf');
    writeFileSync(attachedPath, attached);
    let sent = 0;
    const made = await client.requests.create(
      {
        request: 'Fill in the form and send it back',
        response_file_attachments: true,
        attachment_downloads: 1,
        files: [{ path: attachedPath, contentType: 'application/pdf' }],
      },
      { onProgress: (n) => (sent = n) },
    );
    expect(sent).toBeGreaterThan(attached.length);
    expect(made.files).toEqual([
      expect.objectContaining({
        filename: 'form.pdf',
        content_type: 'application/pdf',
        size: attached.length,
      }),
    ]);

    const responder = anonymous();
    const view = await responder.requests.view(made.url_token);
    expect(view.response_file_attachments).toBe(true);
    expect(view.files[0]).toMatchObject({ filename: 'form.pdf', downloads_left: 1 });
    const download = await responder.requests.downloadAttachment(made.url_token, view.files[0]!.id);
    expect(download.filename).toBe('form.pdf');
    expect(sha256(await readAll(download.body))).toBe(sha256(attached));
    const spent = await failure(responder.requests.downloadAttachment(made.url_token, view.files[0]!.id));
    expect(spent).toMatchObject({ status: 410, code: 'gone', kind: 'gone' });

    const answerBytes = randomBytes(300_000);
    const answerPath = join(dir, 'filled.bin');
    writeFileSync(answerPath, answerBytes);
    let uploaded = 0;
    await responder.requests.respond(
      made.url_token,
      { payload: 'see the file', files: [{ path: answerPath }] },
      { onProgress: (n) => (uploaded = n) },
    );
    expect(uploaded).toBeGreaterThan(answerBytes.length);

    expect((await client.requests.get(made.url_token)).answer).toMatchObject({ files: 1 });
    const got = await client.requests.answer(made.url_token);
    expect(got?.payload).toBe('see the file');
    expect(got?.files.map((f) => f.filename)).toEqual(['filled.bin']);
    const file = await client.downloadNode(got!.files[0]!);
    expect(sha256(await readAll(file.body))).toBe(sha256(answerBytes));

    const closed = await client.requests.close(made.url_token);
    expect(closed.state).toBe('closed');
  },
  TIMEOUT,
);

test(
  'refusals: files where none were asked for, a passphrase, users only, bad tokens and foreign links',
  async () => {
    const client = owner();
    const noFiles = await client.requests.create({ request: 'text only' });
    const path = join(dir, 'x.txt');
    writeFileSync(path, 'x');
    const refused = await failure(anonymous().requests.respond(noFiles.url_token, { files: [{ path }] }));
    expect(refused).toMatchObject({ status: 422 });
    expect((await client.requests.get(noFiles.url_token)).state).toBe('open');

    const locked = await client.requests.create({ request: 'with a passphrase', passphrase: 'open sesame' });
    expect(locked.passphrase).toBe(true);
    expect(JSON.stringify(locked)).not.toContain('open sesame');
    expect((await anonymous().requests.view(locked.url_token)).passphrase_required).toBe(true);
    for (const passphrase of [undefined, 'wrong']) {
      const err = await failure(
        anonymous().requests.respond(locked.url_token, {
          payload: 'p',
          ...(passphrase !== undefined && { passphrase }),
        }),
      );
      expect(err).toMatchObject({ status: 401, code: 'passphrase_required', kind: 'passphrase_required' });
    }
    await anonymous().requests.respond(locked.url_token, { payload: 'p', passphrase: 'open sesame' });
    expect((await client.requests.get(locked.url_token)).state).toBe('answered');

    const usersOnly = await client.requests.create({ request: 'people only', answerable_by: 'users' });
    const noToken = await failure(anonymous().requests.respond(usersOnly.url_token, { payload: 'p' }));
    expect(noToken).toBeInstanceOf(UnauthorizedError);
    expect(noToken).toMatchObject({ status: 401, code: 'unauthorized' });
    const apiClient = await failure(owner().requests.respond(usersOnly.url_token, { payload: 'p' }));
    expect(apiClient).toMatchObject({ status: 403, code: 'forbidden' });
    const person = createClient({ baseUrl: push.url, auth: { token: personal } });
    await person.requests.respond(usersOnly.url_token, { payload: 'from a person' });
    expect((await client.requests.answer(usersOnly.url_token))?.payload).toBe('from a person');

    // Refused before anything is sent.
    await expect(client.requests.get('../pushes/active')).rejects.toThrow(TypeError);
    await expect(client.requests.get('https://elsewhere.example/respond/abc')).rejects.toThrow(TypeError);
    expect(() => client.requests.list('everything' as never)).toThrow(TypeError);
    await expect(anonymous().requests.view('AAAAAAAAAAAAAAAAAAAAAA')).rejects.toBeInstanceOf(NotFoundError);
  },
  TIMEOUT,
);

test(
  'answerable by listed emails: a one-time code by email, refused without it, accepted with it',
  async () => {
    const client = owner();
    const made = await client.requests.create({
      request: 'listed only',
      answerable_by: 'emails',
      answerable_emails: ['Listed@Example.net', 'other@example.net'],
    });
    expect(made.answerable_emails).toEqual(['listed@example.net', 'other@example.net']);
    const responder = anonymous();
    const noCode = await failure(
      responder.requests.respond(made.url_token, { payload: 'p', email: 'listed@example.net' }),
    );
    expect(noCode).toMatchObject({ status: 403, code: 'code_required' });

    // The same answer for an address that is not listed: nothing to enumerate.
    const unlisted = await responder.requests.requestCode(made.url_token, 'nobody@example.net');
    const listed = await responder.requests.requestCode(made.url_token, 'listed@example.net');
    expect(listed).toEqual(unlisted);
    const email = await mail.waitFor((m) => m.envelope.to.includes('listed@example.net'), 20_000);
    const code = /\b(\d{6})\b/.exec(email.text ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);

    const wrong = code === '000000' ? '111111' : '000000';
    const bad = await failure(
      responder.requests.respond(made.url_token, { payload: 'p', email: 'listed@example.net', code: wrong }),
    );
    expect(bad).toMatchObject({ status: 403, code: 'code_required' });
    await responder.requests.respond(made.url_token, {
      payload: 'proved',
      email: 'listed@example.net',
      code: code!,
    });
    expect((await client.requests.answer(made.url_token))?.payload).toBe('proved');
  },
  TIMEOUT,
);
