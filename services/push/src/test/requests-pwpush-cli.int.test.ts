import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { ClientCredentials, TestAuth } from '@secret-push/auth/testing';
import { startAuth } from '@secret-push/auth/testing';
import { type LocalS3, type MailCatcher, startMailCatcher, startS3 } from '@secret-push/testing';
import { createUserTokenService } from '../domain/user-tokens';
import { createUserRepository } from '../storage/user.repository';
import { type TestPush, startPush } from '../testing';

// The Password Pusher CLI's `pwpush request` (pglombardo/pwpush-cli: pwpush/commands/request.py,
// pwpush/api/endpoints.py, pwpush/api/capabilities.py, pwpush/api/client.py), replayed request by
// request: the capability probe `GET /api/v2/version` (Bearer only) — requests only when
// api_version ≥ 2.1, edition `commercial` and features.requests.enabled; `--notify` only when
// features.requests.email_auto_dispatch; then `POST /api/v2/requests` as JSON `{"request": {…}}`
// (days mapped to the Pro `expire_after_duration` enum), or with `--attach-file` as the multipart
// body python-requests builds (`request[…]` fields with str() values, then one `request[files][]`
// part with a file name and no Content-Type); 201 → `GET /api/v2/requests/:t/preview`, whose
// `url` it prints. Auth headers as client.py's build_auth_headers: Bearer, plus X-User-Email and
// X-User-Token when an email is configured.
jest.setTimeout(90_000);

const USER_AGENT = 'pwpush-cli/0.20.0';
/** `_DURATION_BY_DAYS` of endpoints.py. */
const DURATION_BY_DAYS: Record<number, number> = {
  1: 6,
  2: 7,
  3: 8,
  4: 9,
  5: 10,
  6: 11,
  7: 12,
  14: 13,
  21: 14,
  30: 15,
  60: 16,
  90: 17,
};

let auth: TestAuth;
let s3: LocalS3;
let push: TestPush;
let email: string;
let personalToken: string;
let client: ClientCredentials;
let accessToken: string;

beforeAll(async () => {
  auth = await startAuth();
  s3 = await startS3();
  push = await startPush(auth, { env: s3.env });
  const users = createUserTokenService({ store: createUserRepository(push.db) });
  const user = await users.upsertUser({
    issuer: 'https://idp.example',
    subject: `pwpush-request-${randomBytes(4).toString('hex')}`,
    email: 'Requester@Example.org',
    emailVerified: true,
  });
  email = 'requester@example.org';
  personalToken = (
    await users.createToken(user.id, { name: 'pwpush cli', scopes: ['pushes:read', 'pushes:write'] })
  ).value;
  client = await auth.createClient('pushes:read pushes:write', 'pwpush-cli');
  accessToken = await auth.token(client);
});
afterAll(async () => {
  await push?.stop();
  await s3?.close();
  await auth?.stop();
});

interface Cli {
  token: string;
  email?: string;
}

/** build_auth_headers: Bearer, and the legacy pair only when an email is configured. */
const authHeaders = (cli: Cli): Record<string, string> => ({
  Authorization: `Bearer ${cli.token}`,
  ...(cli.email ? { 'X-User-Email': cli.email, 'X-User-Token': cli.token } : {}),
  'User-Agent': USER_AGENT,
});

type Capabilities = { api_version?: string; edition?: string; features?: Record<string, unknown> };

/** detect_api_capabilities: `GET /api/v2/version` with the Bearer header only. */
async function probe(base: string, cli: Cli): Promise<Capabilities> {
  const res = await request(base).get('/api/v2/version').set('Authorization', `Bearer ${cli.token}`);
  expect(res.status).toBe(200);
  return res.body as Capabilities;
}

const atLeast21 = (version: string | undefined) => {
  const [major = 0, minor = 0] = (version ?? '').split('.').map(Number);
  return major > 2 || (major === 2 && minor >= 1);
};
/** capabilities.py requests_enabled. */
const requestsEnabled = (c: Capabilities) =>
  atLeast21(c.api_version) &&
  c.edition === 'commercial' &&
  Boolean((c.features?.requests as { enabled?: boolean } | undefined)?.enabled);
/** capabilities.py request_email_notifications_enabled. */
const requestEmailEnabled = (c: Capabilities) =>
  atLeast21(c.api_version) &&
  Boolean((c.features?.requests as { email_auto_dispatch?: boolean } | undefined)?.email_auto_dispatch);

interface RequestOptions {
  text: string;
  notify?: string;
  days?: number;
  views?: number;
  deletable?: boolean;
  retrievalStep?: boolean;
  note?: string;
  name?: string;
}

/** request_cmd's data, after adapt_request_payload_for_profile (v2). */
function payloadOf(o: RequestOptions, c: Capabilities): Record<string, unknown> {
  const r: Record<string, unknown> = { request: o.text };
  if (o.notify && requestEmailEnabled(c)) r.notify_emails_to = o.notify;
  if (o.views) r.expire_after_views = o.views;
  if (o.note) r.note = o.note;
  if (o.name) r.name = o.name;
  if (o.deletable !== undefined) r.deletable_by_viewer = o.deletable;
  if (o.retrievalStep !== undefined) r.retrieval_step = o.retrievalStep;
  if (o.days) {
    if (DURATION_BY_DAYS[o.days] !== undefined) r.expire_after_duration = DURATION_BY_DAYS[o.days];
    else r.expire_after_days = o.days;
  }
  return r;
}

/** python str() of a form value, as requests encodes `data=` fields. */
const pyStr = (v: unknown) => (v === true ? 'True' : v === false ? 'False' : String(v));

/** What python-requests sends for `data=flat, files={"request[files][]": fh}`. */
function multipartBody(fields: Record<string, unknown>, file: { name: string; bytes: Buffer }) {
  const boundary = randomBytes(16).toString('hex');
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="request[${k}]"\r\n\r\n${pyStr(v)}\r\n`,
      ),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="request[files][]"; filename="${file.name}"\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { type: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts) };
}

/** `pwpush request …`: probe, create, preview; returns what it prints (the url) and the create's body. */
async function pwpushRequest(
  base: string,
  cli: Cli,
  o: RequestOptions,
  attach?: { name: string; bytes: Buffer },
): Promise<{ url: string; created: Record<string, unknown>; sent: Record<string, unknown> }> {
  const caps = await probe(base, cli);
  expect(requestsEnabled(caps)).toBe(true);
  const sent = payloadOf(o, caps);
  const post = request(base).post('/api/v2/requests').set(authHeaders(cli));
  const res = attach
    ? await (() => {
        const m = multipartBody(sent, attach);
        return post.set('Content-Type', m.type).send(m.body);
      })()
    : await post.send({ request: sent });
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 201 });
  const urlToken = res.body.url_token as string;
  expect(urlToken).toMatch(/^[A-Za-z0-9_-]{16,}$/);
  const preview = await request(base).get(`/api/v2/requests/${urlToken}/preview`).set(authHeaders(cli));
  expect(preview.status).toBe(200);
  return { url: preview.body.url as string, created: res.body, sent };
}

describe('pwpush request against this instance', () => {
  it('probes /version: API 2.1, edition commercial, requests enabled; no email dispatch without SMTP', async () => {
    const caps = await probe(push.url, { token: accessToken });
    expect(caps).toMatchObject({
      api_version: '2.1',
      edition: 'commercial',
      features: { requests: { enabled: true, email_auto_dispatch: false } },
    });
    expect(requestsEnabled(caps)).toBe(true);
    expect(requestEmailEnabled(caps)).toBe(false);
  });

  it('creates by JSON with an access token (Bearer only): 201, then the preview url it prints', async () => {
    const cli = { token: accessToken };
    const { url, created, sent } = await pwpushRequest(push.url, cli, {
      text: 'Need the API key',
      notify: 'admin@example.com',
      days: 7,
      views: 5,
      deletable: true,
      retrievalStep: false,
      note: 'for the rollout',
      name: 'api key',
    });
    // No SMTP here: the CLI drops --notify (it warns "Options ignored").
    expect(sent).not.toHaveProperty('notify_emails_to');
    expect(sent).toMatchObject({ expire_after_duration: 12 });
    expect(url).toBe(`${push.url}/respond/${created.url_token as string}`);
    expect(created).toMatchObject({
      state: 'open',
      request: 'Need the API key',
      name: 'api key',
      note: 'for the rollout',
      expire_after_duration: 12,
      expire_after_views: 5,
      deletable_by_viewer: true,
      retrieval_step: false,
      answer_expire_after_days: 7,
      answer: null,
    });
    // Had it sent the address anyway, this instance (no SMTP) refuses it: why the CLI checks first.
    const refused = await request(push.url)
      .post('/api/v2/requests')
      .set(authHeaders(cli))
      .send({ request: { request: 'x', notify_emails_to: 'admin@example.com' } });
    expect(refused.status).toBe(422);
    expect(refused.body.fields).toHaveProperty('notify_emails_to');
  });

  it('creates by JSON with a personal token and its email (X-User-Email + X-User-Token)', async () => {
    const cli = { token: personalToken, email };
    const { url, created } = await pwpushRequest(push.url, cli, {
      text: 'Send me the production password',
      days: 10,
    });
    expect(url).toBe(`${push.url}/respond/${created.url_token as string}`);
    expect(created).toMatchObject({ expire_after_days: 10, expire_after_views: 1, files: [] });
    const wrongEmail = await request(push.url)
      .post('/api/v2/requests')
      .set(authHeaders({ token: personalToken, email: 'someone.else@example.org' }))
      .send({ request: { request: 'x' } });
    expect(wrongEmail.status).toBe(401);
    expect(typeof wrongEmail.body.error).toBe('string');
  });

  it('creates with --attach-file: the multipart body python-requests sends, one request[files][] part', async () => {
    const cli = { token: personalToken, email };
    const bytes = Buffer.from('%PDF-1.4 the contract template\n');
    const { url, created } = await pwpushRequest(
      push.url,
      cli,
      { text: 'Send me the signed contract', days: 3, views: 2, deletable: false, name: 'contract' },
      { name: 'template.pdf', bytes },
    );
    expect(url).toBe(`${push.url}/respond/${created.url_token as string}`);
    expect(created).toMatchObject({
      request: 'Send me the signed contract',
      name: 'contract',
      expire_after_duration: 8,
      expire_after_views: 2,
      deletable_by_viewer: false,
    });
    const files = created.files as { id: string; filename: string; size: number }[];
    expect(files).toEqual([expect.objectContaining({ filename: 'template.pdf', size: bytes.length })]);
    // The responder gets the very bytes back.
    const token = created.url_token as string;
    const download = await request(push.url)
      .get(`/api/v2/requests/${token}/files/${files[0]!.id}`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(download.status).toBe(200);
    expect(Buffer.compare(download.body as Buffer, bytes)).toBe(0);
  });

  it('creates with --attach-file and no text: an empty request[request] beside the file, 201', async () => {
    // request_cmd: `data["request"]["request"] = request_content` with request_content "" (only
    // "no text and no file" is refused by the CLI), flattened to an empty `request[request]` part.
    const cli = { token: accessToken };
    const bytes = Buffer.from('name,value\nkey,\n');
    const { url, created, sent } = await pwpushRequest(
      push.url,
      cli,
      { text: '' },
      { name: 'form.csv', bytes },
    );
    expect(sent).toEqual({ request: '' });
    const token = created.url_token as string;
    expect(url).toBe(`${push.url}/respond/${token}`);
    expect(created).toMatchObject({ request: '', state: 'open' });
    expect(created.files).toEqual([expect.objectContaining({ filename: 'form.csv', size: bytes.length })]);
    // The responder's view: an empty message, and the file to download.
    const view = await request(push.url).get(`/api/v2/requests/${token}/respond`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ request: '' });
    expect(view.body.files).toEqual([expect.objectContaining({ filename: 'form.csv' })]);
  });

  it('still refuses a blank message without a file (JSON, as without --attach-file): 422, nothing stored', async () => {
    const before = await push.db
      .selectFrom('request')
      .select(push.db.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const res = await request(push.url)
      .post('/api/v2/requests')
      .set(authHeaders({ token: accessToken }))
      .send({ request: { request: '' } });
    expect(res.status).toBe(422);
    expect(res.body.fields).toEqual({ request: ["can't be blank"] });
    const m = multipartBody({ request: ' ' }, { name: 'x', bytes: Buffer.alloc(0) });
    // A file part whose name is not request[files][] is no attachment: still blank.
    const wrong = await request(push.url)
      .post('/api/v2/requests')
      .set(authHeaders({ token: accessToken }))
      .set('Content-Type', m.type)
      .send(m.body.toString('latin1').replace('name="request[files][]"', 'name="request[note]"'));
    expect(wrong.status).toBe(422);
    const after = await push.db
      .selectFrom('request')
      .select(push.db.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe('pwpush request --notify where the instance sends email', () => {
  let mailPush: TestPush;
  let catcher: MailCatcher;
  beforeAll(async () => {
    catcher = await startMailCatcher();
    mailPush = await startPush(auth, {
      env: { PUSH_SMTP_URL: catcher.url, PUSH_MAIL_FROM: 'secret-push <no-reply@mail.example.org>' },
    });
  });
  afterAll(async () => {
    await mailPush?.stop();
    await catcher?.close();
  });

  it('sends notify_emails_to when features.requests.email_auto_dispatch is true: 201', async () => {
    const cli = { token: accessToken };
    const caps = await probe(mailPush.url, cli);
    expect(requestEmailEnabled(caps)).toBe(true);
    const { url, created, sent } = await pwpushRequest(mailPush.url, cli, {
      text: 'Send me the production password',
      notify: 'colleague@example.com',
    });
    expect(sent).toMatchObject({ notify_emails_to: 'colleague@example.com' });
    expect(url).toBe(`${mailPush.url}/respond/${created.url_token as string}`);
  });
});
