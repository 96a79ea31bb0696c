import { createHash, randomBytes } from 'node:crypto';
import type { TestAuth } from '@secret-push/auth/testing';
import { type LocalS3, type MailCatcher, startMailCatcher } from '@secret-push/testing';
import { type TestPush, type TestWebStack, startPush, startTestWorker, startWebStack } from '../testing';
import { hashUrlToken } from '../security/url-token';
import type { WorkerService } from '../worker-server';
import { Browser } from './support/browser';
import { personWithToken } from './support/email';
import { bearer, waitFor } from './support/helpers';

/*
 * The web app's request pages (issue 28) against the real services: the auth service signs people
 * in, the push service serves /requests/new, /requests, /requests/:token and the responder's
 * /respond/:token. Every page as plain form posts (no JavaScript), the link shown once and a
 * resubmission creating nothing, CSRF and same-origin refusals that change nothing, the 404 and 409
 * pages, a hostile message shown escaped, passphrases, "signed-in users only", another person's
 * request not found, and anonymous access off. With an object store (a private s3rver), a test
 * SMTP server and a worker: file answers as a plain multipart post (limits, 413 and 422 pages that
 * leave nothing), the requester's files downloaded from the page, the one-time code of listed
 * addresses, and the answer limits of the API on the page's answers.
 */
let stack: TestWebStack;
let auth: TestAuth;
let push: TestPush;
let s3: LocalS3;
let mail: MailCatcher;
let worker: WorkerService;
let user: { email: string; password: string };

const MIB = 1024 * 1024;
/** Answers per minute to one request (the API's limit, which the page's answers take too). */
const PER_REQUEST = 6;

beforeAll(async () => {
  mail = await startMailCatcher();
  stack = await startWebStack({
    files: true,
    pushEnv: {
      PUSH_SMTP_URL: mail.url,
      PUSH_MAIL_FROM: 'secret-push@example.org',
      PUSH_REQUESTS_MAX_TOTAL_FILE_BYTES: String(MIB),
      PUSH_RATE_LIMIT_ANSWERS_PER_MINUTE: '1000',
      PUSH_RATE_LIMIT_ANSWERS_PER_REQUEST_PER_MINUTE: String(PER_REQUEST),
    },
  });
  ({ auth, push, user } = stack);
  s3 = stack.s3!;
  worker = await startTestWorker(push);
}, 60_000);
afterAll(async () => {
  await worker?.close();
  await stack?.stop();
  await mail?.close();
});

const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };
const csrfOf = (body: string) => /name="csrf" value="([^"]+)"/.exec(body)![1]!;
const keyOf = (body: string) => /name="idempotency_key" value="([^"]+)"/.exec(body)![1]!;
const linkOf = (body: string) => /id="link"[^>]*?value="([^"]+)"/.exec(body)?.[1];
const tokenOf = (link: string) => /\/respond\/([\w-]+)$/.exec(link)![1]!;

const body = (fields: Record<string, string | string[]>) =>
  new URLSearchParams(
    Object.entries(fields).flatMap(([k, v]) =>
      (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x]),
    ),
  ).toString();

interface Person {
  b: Browser;
  csrf: string;
}

async function newUser(email: string): Promise<{ email: string; password: string }> {
  const made = await auth.cli('users', 'create', '--email', email, '--json');
  expect(made.code).toBe(0);
  return JSON.parse(made.out) as { email: string; password: string };
}

async function signedIn(who: { email: string; password: string }, url = push.url): Promise<Person> {
  const b = new Browser();
  const landed = await b.signIn(url, auth.issuer, who);
  expect(landed.body).toContain('Signed in as');
  return { b, csrf: csrfOf(landed.body) };
}

const post = (b: Browser, path: string, fields: Record<string, string | string[]>, url = push.url) =>
  b.fetch(`${url}${path}`, { method: 'POST', headers: FORM_TYPE, body: body(fields) });

const countRequests = async () =>
  Number(
    (
      await push.db
        .selectFrom('request')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

function expectPageHeaders(res: Response) {
  expect(res.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const csp = res.headers.get('content-security-policy')!;
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
}

/** Opens the form, sends it with `fields`; the created page's link and the 303 itself. */
async function create(p: Person, fields: Record<string, string | string[]> = {}) {
  const form = await p.b.follow(`${push.url}/requests/new`);
  expect(form.res.status).toBe(200);
  const sent = { csrf: p.csrf, idempotency_key: keyOf(form.body), request: 'Please send the key', ...fields };
  const res = await post(p.b, '/requests/new', sent);
  expect(res.status).toBe(303);
  expect(res.headers.get('location')).toBe('/requests/created');
  const created = await p.b.follow(`${push.url}/requests/created`);
  expect(created.res.status).toBe(200);
  const link = linkOf(created.body)!;
  return { link, token: tokenOf(link), sent, created };
}

describe('requester pages', () => {
  it('nobody signed in is sent to sign in; the header links "Request a secret" and "Your requests"', async () => {
    for (const path of ['/requests/new', '/requests', '/requests/created']) {
      const res = await new Browser().fetch(`${push.url}${path}`);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/sign-in');
    }
    const refused = await post(new Browser(), '/requests/new', { request: 'x' });
    expect(refused.status).toBe(403);
    const p = await signedIn(user);
    const home = await p.b.follow(`${push.url}/`);
    expect(home.body).toContain('<a href="/requests/new">Request a secret</a>');
    expect(home.body).toContain('<a href="/requests">Your requests</a>');
    const anonymousHome = await new Browser().follow(`${push.url}/`);
    expect(anonymousHome.body).not.toContain('Request a secret');
  });

  it('the form: labelled fields, CSRF and key; a create shows the link once, a reload the same, a resubmission nothing', async () => {
    const p = await signedIn(user);
    const form = await p.b.follow(`${push.url}/requests/new`);
    expectPageHeaders(form.res);
    for (const id of ['request', 'name', 'note', 'expire_after_days', 'expire_after_views', 'passphrase']) {
      expect(form.body).toContain(`<label for="${id}">`);
    }
    expect(form.body).toMatch(/name="answerable_by"\s+value="users"/);
    const before = await countRequests();
    const { link, token, sent, created } = await create(p, { name: 'Reload test' });
    expect(link).toBe(`${push.url}/respond/${token}`);
    expectPageHeaders(created.res);
    expect(created.body).toContain('data-copy="link"');
    expect(created.body).toContain('<svg');
    expect(await countRequests()).toBe(before + 1);
    // A reload shows the same link; the same form sent again creates nothing and shows it too.
    expect(linkOf((await p.b.follow(`${push.url}/requests/created`)).body)).toBe(link);
    const again = await post(p.b, '/requests/new', sent);
    expect(again.status).toBe(303);
    expect(linkOf((await p.b.follow(`${push.url}/requests/created`)).body)).toBe(link);
    expect(await countRequests()).toBe(before + 1);
    // Another browser (no cookie): the link is not shown again.
    const other = await signedIn(user);
    const gone = await other.b.follow(`${push.url}/requests/created`);
    expect(gone.res.status).toBe(404);
    expect(gone.body).toContain('Link no longer shown');
    expect(gone.body).not.toContain(token);
  });

  it('refusals: no CSRF token or another site → 403 and nothing made; bad input → 422 next to the field, kept', async () => {
    const p = await signedIn(user);
    const form = await p.b.follow(`${push.url}/requests/new`);
    const before = await countRequests();
    const noCsrf = await post(p.b, '/requests/new', { idempotency_key: keyOf(form.body), request: 'x' });
    expect(noCsrf.status).toBe(403);
    // Sent from another site with the person's cookies (a browser says so in Sec-Fetch-Site).
    const forged = await fetch(`${push.url}/requests/new`, {
      method: 'POST',
      headers: {
        ...FORM_TYPE,
        'sec-fetch-site': 'cross-site',
        cookie: [...p.b.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      body: body({ csrf: p.csrf, idempotency_key: keyOf(form.body), request: 'x' }),
      redirect: 'manual',
    });
    expect(forged.status).toBe(403);
    expect(await countRequests()).toBe(before);

    const blank = await post(p.b, '/requests/new', {
      csrf: p.csrf,
      idempotency_key: keyOf(form.body),
      request: '  ',
    });
    expect(blank.status).toBe(422);
    expect(await blank.text()).toContain('id="request-error"');
    const bad = await post(p.b, '/requests/new', {
      csrf: p.csrf,
      idempotency_key: keyOf(form.body),
      request: 'kept request',
      name: 'kept <name>',
      expire_after_days: '9999',
      passphrase: 'typed once',
    });
    expect(bad.status).toBe(422);
    const page = await bad.text();
    expect(page).toContain('id="expire_after_days-error"');
    expect(page).toContain('kept request</textarea');
    expect(page).toContain('value="kept &lt;name&gt;"');
    expect(page).toContain('Enter the passphrase again');
    expect(page).not.toContain('typed once');
    expect(await countRequests()).toBe(before);
  });
});

const requestRow = (token: string) =>
  push.db
    .selectFrom('request')
    .selectAll()
    .where('token_hash', '=', hashUrlToken(token))
    .executeTakeFirstOrThrow();
const auditKinds = async (token: string) => {
  const row = await requestRow(token);
  const entries = await push.db
    .selectFrom('request_audit_entry')
    .select('kind')
    .where('request_id', '=', row.id)
    .orderBy('created_at')
    .execute();
  return entries.map((e) => e.kind);
};

/** The responder's form post, as a browser sends it from the page (no JavaScript). */
const answer = (token: string, fields: Record<string, string>, b = new Browser(), url = push.url) =>
  post(b, `/respond/${token}`, fields, url);

describe("the request form's presets", () => {
  it("open for a preset (1 hour) or Custom days; the answer's views 1 by default; a preset not offered → 422, nothing made", async () => {
    const p = await signedIn(user);
    const form = await p.b.follow(`${push.url}/requests/new`);
    expect(form.body).toMatch(/id="duration-3d"[^>]*value="3d"\s+checked/);
    expect(form.body).toMatch(/id="views-1"[^>]*value="1"\s+checked/);
    expect(form.body).toContain('<script src="/static/form-presets.js" defer></script>');

    const hour = await create(p, { duration: '1h', views: '2' });
    const row = await requestRow(hour.token);
    expect(row.expire_after_duration).toBe(3); // the API's index of 1 hour
    expect(row.expire_after_days).toBeNull();
    expect(row.answer_expire_after_views).toBe(2);
    const custom = await create(p, {
      duration: 'custom',
      expire_after_days: '4',
      views: 'custom',
      expire_after_views: '3',
    });
    expect(await requestRow(custom.token)).toMatchObject({
      expire_after_days: 4,
      answer_expire_after_views: 3,
    });

    const before = await countRequests();
    const odd = await post(p.b, '/requests/new', {
      csrf: p.csrf,
      idempotency_key: keyOf(form.body),
      request: 'kept',
      duration: '90d',
      views: '1',
    });
    expect(odd.status).toBe(422);
    expect(await odd.text()).toMatch(/<a href="#duration">Open for<\/a>:\s*Choose how long the link works\./);
    expect(await countRequests()).toBe(before);
  });
});

describe('the responder page', () => {
  it('GET shows the request escaped and spends nothing; an answer by a plain post; then 409 pages', async () => {
    const p = await signedIn(user);
    const hostile = '<script>alert(1)</script> & "quotes" <img src=x onerror=alert(2)>';
    const { token } = await create(p, { request: hostile, name: '<b>named</b>' });
    const page = await new Browser().fetch(`${push.url}/respond/${token}`);
    expect(page.status).toBe(200);
    expectPageHeaders(page);
    const html = await page.text();
    expect(html).toContain(
      '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot; &lt;img src=x onerror=alert(2)&gt;',
    );
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('named'); // the name is the owner's
    expect(html).not.toContain(user.email); // include_requestor is off
    expect(html).toMatch(/<form method="post" action="\/respond\/[\w-]+" class="respond"/);
    expect(html).not.toContain('<script>'); // no inline script
    await new Browser().fetch(`${push.url}/respond/${token}`);
    expect((await requestRow(token)).state).toBe('open');
    expect(await auditKinds(token)).toEqual(['creation', 'link_opened', 'link_opened']);

    // The owner's detail shows the hostile message escaped too.
    const detail = await p.b.follow(`${push.url}/requests/${token}`);
    expect(detail.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(detail.body).toContain('&lt;b&gt;named&lt;/b&gt;');

    const responder = new Browser();
    const sent = await answer(token, { payload: 'the-key-123' }, responder);
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe(`/respond/${token}/done`);
    const done = await responder.follow(`${push.url}/respond/${token}/done`);
    expect(done.res.status).toBe(200);
    expect(done.body).toContain('Your answer was sent');
    expect(done.body).not.toContain('the-key-123');
    const row = await requestRow(token);
    expect(row.state).toBe('answered');
    expect(row.answer_push_id).not.toBeNull();

    const seen = await new Browser().fetch(`${push.url}/respond/${token}`);
    expect(seen.status).toBe(409);
    expectPageHeaders(seen);
    expect(await seen.text()).toContain('This request has already been answered');
    const second = await answer(token, { payload: 'another' });
    expect(second.status).toBe(409);
    expect(await second.text()).toContain('This request has already been answered');
    expect((await requestRow(token)).answer_push_id).toBe(row.answer_push_id);
  });

  it('unknown and closed requests: one 404 page; /r/:token is still the legacy redirect', async () => {
    const p = await signedIn(user);
    const { token } = await create(p, { name: 'to close' });
    const closed = await post(p.b, `/requests/${token}/close`, { csrf: p.csrf, back: `/requests/${token}` });
    expect(closed.status).toBe(303);
    expect(closed.headers.get('location')).toBe(`/requests/${token}`);
    expect((await requestRow(token)).state).toBe('closed');
    const a = await new Browser().fetch(`${push.url}/respond/${token}`);
    const b = await new Browser().fetch(`${push.url}/respond/AAAAAAAAAAAAAAAAAAAAAA`);
    expect(a.status).toBe(404);
    expect(b.status).toBe(404);
    expectPageHeaders(a);
    // The language selector returns to the path asked for: the only part that may differ.
    const [pa, pb] = [await a.text(), await b.text()].map((t) => t.replace(/name="back" value="[^"]*"/g, ''));
    expect(pa).toBe(pb);
    expect(pa).toContain('This request is closed or does not exist');
    const late = await answer(token, { payload: 'too late' });
    expect(late.status).toBe(404);
    expect((await requestRow(token)).answer_push_id).toBeNull();
    const legacy = await fetch(`${push.url}/r/${token}`, { redirect: 'manual' });
    expect(legacy.status).toBe(301);
    expect(legacy.headers.get('location')).toBe(`/p/${token}`);
  });

  it('a passphrase: asked for, a wrong one 401 with the form again (the answer kept), the right one answers', async () => {
    const p = await signedIn(user);
    const { token } = await create(p, { passphrase: 'open sesame' });
    const page = await (await new Browser().fetch(`${push.url}/respond/${token}`)).text();
    expect(page).toContain('id="passphrase"');
    const wrong = await answer(token, { payload: 'kept answer', passphrase: 'nope' });
    expect(wrong.status).toBe(401);
    const again = await wrong.text();
    expect(again).toContain('id="passphrase-error"');
    expect(again).toContain('kept answer');
    expect(again).not.toContain('nope');
    expect((await requestRow(token)).state).toBe('open');
    // The form shown again is the request shown again (link_opened).
    expect(await auditKinds(token)).toEqual(['creation', 'link_opened', 'failed_passphrase', 'link_opened']);
    const right = await answer(token, { payload: 'kept answer', passphrase: 'open sesame' });
    expect(right.status).toBe(303);
    expect((await requestRow(token)).state).toBe('answered');
  });

  it('signed-in users only: an anonymous visitor is asked to sign in; a signed-in person answers with the CSRF token', async () => {
    const p = await signedIn(user);
    const { token } = await create(p, { answerable_by: 'users' });
    const refused = await answer(token, { payload: 'anonymous try' });
    expect(refused.status).toBe(401);
    expect(await refused.text()).toContain('Sign in to answer this request');
    expect((await requestRow(token)).state).toBe('open');

    const responder = await signedIn(await newUser('responder-users@example.org'));
    const form = await responder.b.follow(`${push.url}/respond/${token}`);
    expect(form.res.status).toBe(200);
    expect(form.body).toContain(`name="csrf" value="${responder.csrf}"`);
    const noCsrf = await answer(token, { payload: 'x' }, responder.b);
    expect(noCsrf.status).toBe(403);
    expect((await requestRow(token)).state).toBe('open');
    const ok = await answer(token, { payload: 'from a user', csrf: responder.csrf }, responder.b);
    expect(ok.status).toBe(303);
    expect((await requestRow(token)).state).toBe('answered');
  });

  it('an answer sent from another site is refused and stores nothing', async () => {
    const p = await signedIn(user);
    const { token } = await create(p);
    const forged = await fetch(`${push.url}/respond/${token}`, {
      method: 'POST',
      headers: { ...FORM_TYPE, 'sec-fetch-site': 'cross-site' },
      body: body({ payload: 'forged' }),
      redirect: 'manual',
    });
    expect(forged.status).toBe(403);
    expect((await requestRow(token)).state).toBe('open');
  });
});

describe('the owner: lists, detail, close', () => {
  it('lists by state with the answer link on the detail; another person sees nothing and closes nothing', async () => {
    const p = await signedIn(await newUser('lists@example.org'));
    const open = await create(p, { name: 'still open' });
    const answered = await create(p, { name: 'got it', expire_after_views: '2' });
    expect((await fetch(`${push.url}/respond/${answered.token}`)).status).toBe(200);
    expect((await answer(answered.token, { payload: 'the answer' })).status).toBe(303);

    const openList = await p.b.follow(`${push.url}/requests`);
    expectPageHeaders(openList.res);
    expect(openList.body).toContain('still open');
    expect(openList.body).not.toContain('got it');
    expect(openList.body).toContain(
      `href="/requests/${open.token}/close?back=${encodeURIComponent('/requests?state=open')}"`,
    );
    const answeredList = await p.b.follow(`${push.url}/requests?state=answered`);
    expect(answeredList.body).toContain('got it');
    expect(answeredList.body).not.toContain('still open');

    const detail = await p.b.follow(`${push.url}/requests/${answered.token}`);
    expect(detail.res.status).toBe(200);
    const answerLink = /<a href="([^"]+)">Open the answer<\/a>/.exec(detail.body)?.[1];
    expect(answerLink).toMatch(new RegExp(`^${push.url}/p/[\\w-]+`));
    expect(detail.body).toContain('uses one of its 2');
    expect(detail.body).toContain('Link opened by a responder');
    expect(detail.body).toContain('Answered');
    // Opening the answer's page spends nothing; revealing it there spends one view.
    const reveal = await new Browser().follow(answerLink!);
    expect(reveal.res.status).toBe(200);

    const other = await signedIn(await newUser('other-owner@example.org'));
    const foreign = await other.b.follow(`${push.url}/requests/${open.token}`);
    expect(foreign.res.status).toBe(404);
    expect(foreign.body).not.toContain('still open');
    const foreignClose = await post(other.b, `/requests/${open.token}/close`, { csrf: other.csrf });
    expect(foreignClose.status).toBe(404);
    expect((await requestRow(open.token)).state).toBe('open');
    // Close asks first: its page names the request and changes nothing; another's is not found.
    const ask = await p.b.follow(
      `${push.url}/requests/${open.token}/close?back=${encodeURIComponent('/requests?state=open')}`,
    );
    expect(ask.res.status).toBe(200);
    expect(ask.body).toMatch(/<h1 class="question">Close the request “[^”]+”\?<\/h1>/);
    expect(ask.body).toContain('name="back" value="/requests?state=open"');
    expect((await other.b.fetch(`${push.url}/requests/${open.token}/close`)).status).toBe(404);
    expect((await requestRow(open.token)).state).toBe('open');
    const noCsrf = await post(p.b, `/requests/${open.token}/close`, {});
    expect(noCsrf.status).toBe(403);
    expect((await requestRow(open.token)).state).toBe('open');

    const closed = await post(p.b, `/requests/${open.token}/close`, {
      csrf: p.csrf,
      back: '/requests?state=open',
    });
    expect(closed.headers.get('location')).toBe('/requests?state=open');
    const after = await p.b.follow(`${push.url}/requests?state=open`);
    expect(after.body).toMatch(
      /<p role="status" class="notice flash">Request “[^”]+” closed: nobody can answer it any more.<\/p>/,
    );
    expect((await p.b.follow(`${push.url}/requests?state=open`)).body).not.toContain('closed: nobody');
    const closedList = await p.b.follow(`${push.url}/requests?state=closed`);
    expect(closedList.body).toContain('still open');
    expect(closedList.body).not.toContain(`/requests/${open.token}/close`);
    const offsite = await post(p.b, `/requests/${answered.token}/close`, {
      csrf: p.csrf,
      back: 'https://evil.example/',
    });
    expect(offsite.headers.get('location')).toBe('/requests');
  });
});

describe('anonymous access off', () => {
  let closedPush: TestPush;
  beforeAll(async () => {
    closedPush = await startPush(auth, { env: { PUSH_ANONYMOUS_ACCESS: 'false' } });
  }, 30_000);
  afterAll(async () => {
    await closedPush?.stop();
  });

  it('the responder page asks anonymous visitors to sign in, and an anonymous answer is refused', async () => {
    const res = await fetch(`${closedPush.url}/respond/AAAAAAAAAAAAAAAAAAAAAA`);
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('Sign in to answer this request');
    const sent = await answer('AAAAAAAAAAAAAAAAAAAAAA', { payload: 'x' }, new Browser(), closedPush.url);
    expect(sent.status).toBe(401);
  });
});

// ---- files, codes and limits on the responder's page

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A person's request through the API (JSON, or multipart with the requester's files). */
async function apiRequest(
  owner: { token: string },
  fields: Record<string, unknown>,
  files: { name: string; data: Buffer }[] = [],
): Promise<string> {
  const sent = { request: 'Please send the key', ...fields };
  let res: Response;
  if (files.length === 0) {
    res = await fetch(`${push.url}/api/v2/requests`, {
      method: 'POST',
      headers: { ...bearer(owner.token), 'content-type': 'application/json' },
      body: JSON.stringify({ request: sent }),
    });
  } else {
    const form = new FormData();
    for (const [k, v] of Object.entries(sent)) form.append(`request[${k}]`, String(v));
    for (const f of files) form.append('request[files][]', new Blob([f.data]), f.name);
    res = await fetch(`${push.url}/api/v2/requests`, {
      method: 'POST',
      headers: bearer(owner.token),
      body: form,
    });
  }
  expect(res.status).toBe(201);
  return ((await res.json()) as { url_token: string }).url_token;
}

/** The page's answer form as a browser sends it without JavaScript: fields in order, then the files. */
function answerForm(fields: [string, string][], files: { name: string; data: Buffer }[]): FormData {
  const form = new FormData();
  for (const [k, v] of fields) form.append(k, v);
  for (const f of files) {
    form.append('files', new Blob([f.data], { type: 'application/octet-stream' }), f.name);
  }
  // A browser sends the file input even when nothing is chosen: an empty part without a name.
  if (files.length === 0) form.append('files', new Blob([]), '');
  return form;
}
const answerWith = (token: string, form: FormData, b = new Browser()) =>
  b.fetch(`${push.url}/respond/${token}`, { method: 'POST', body: form });

const stored = async () => {
  const [pushes, intents] = await Promise.all([
    push.db
      .selectFrom('push')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
    push.db
      .selectFrom('upload_intent')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { pushes: Number(pushes.n), intents: Number(intents.n), keys: (await s3.listKeys()).length };
};
/** Nothing was stored: no push, no upload intent, and (once the clean-up is done) no object. */
async function expectNothingStored(before: Awaited<ReturnType<typeof stored>>) {
  await waitFor(async () => (await stored()).keys === before.keys, 5000);
  expect(await stored()).toEqual(before);
}

describe('file answers on the page', () => {
  it('a request that takes files: a multipart form with the limits; text and two files answer; the owner gets them byte for byte', async () => {
    const owner = await personWithToken(push);
    const token = await apiRequest(owner, { response_file_attachments: true, expire_after_views: 2 });
    const page = await new Browser().fetch(`${push.url}/respond/${token}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(
      /<form method="post" action="\/respond\/[\w-]+" class="respond"\s+enctype="multipart\/form-data"/,
    );
    expect(html).toContain('<label for="files">Files (optional)</label>');
    expect(html).toContain('data-max-total-bytes="1048576"');
    expect(html).toContain('1 MiB together');
    expect(html).toContain('<progress id="upload-progress"');
    expect(html).toContain('<script src="/static/respond-form.js" defer></script>');
    const script = await fetch(`${push.url}/static/respond-form.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);

    const files = [
      { name: 'id_ed25519', data: randomBytes(300_000) },
      { name: 'notes <1>.txt', data: Buffer.from('in the vault\n') },
    ];
    const responder = new Browser();
    const sent = await answerWith(token, answerForm([['payload', 'see the files']], files), responder);
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe(`/respond/${token}/done`);
    expect((await requestRow(token)).state).toBe('answered');

    const view = await fetch(`${push.url}/api/v2/requests/${token}`, { headers: bearer(owner.token) });
    const answerToken = ((await view.json()) as { answer: { url_token: string; files: number } }).answer;
    expect(answerToken.files).toBe(2);
    const got = await fetch(`${push.url}/api/v2/pushes/${answerToken.url_token}`, {
      headers: bearer(owner.token),
    });
    const push_ = (await got.json()) as { payload: string; files: { filename: string; url: string }[] };
    expect(push_.payload).toBe('see the files');
    expect(push_.files.map((f) => f.filename)).toEqual(['id_ed25519', 'notes <1>.txt']);
    for (const [i, f] of push_.files.entries()) {
      const bytes = Buffer.from(await (await fetch(new URL(f.url, push.url))).arrayBuffer());
      expect(sha256(bytes)).toBe(sha256(files[i]!.data));
    }
  });

  it('files only (no text) answer; an empty file input with text answers with text', async () => {
    const owner = await personWithToken(push);
    const onlyFiles = await apiRequest(owner, { response_file_attachments: true });
    const a = await answerWith(
      onlyFiles,
      answerForm([['payload', '']], [{ name: 'k.pem', data: randomBytes(1000) }]),
    );
    expect(a.status).toBe(303);
    const textOnly = await apiRequest(owner, { response_file_attachments: true });
    const b = await answerWith(textOnly, answerForm([['payload', 'just text']], []));
    expect(b.status).toBe(303);
    expect((await requestRow(textOnly)).state).toBe('answered');
  });

  it('too large: a 413 page with the problem next to the files, the text kept, nothing stored', async () => {
    const owner = await personWithToken(push);
    const token = await apiRequest(owner, { response_file_attachments: true });
    const before = await stored();
    const two = [0, 1].map((i) => ({ name: `part${i}.bin`, data: randomBytes(600_000) }));
    const res = await answerWith(token, answerForm([['payload', 'kept text']], two));
    expect(res.status).toBe(413);
    expectPageHeaders(res);
    const html = await res.text();
    expect(html).toContain('id="files-error"');
    expect(html).toContain('The files together exceed 1 MB.');
    expect(html).toContain('kept text</textarea');
    await expectNothingStored(before);
    expect((await requestRow(token)).state).toBe('open');
  });

  it('files where the request takes none: a text form; a forged multipart post is a 422 page, nothing stored', async () => {
    const owner = await personWithToken(push);
    const token = await apiRequest(owner, {});
    const html = await (await new Browser().fetch(`${push.url}/respond/${token}`)).text();
    expect(html).not.toContain('multipart/form-data');
    expect(html).not.toContain('respond-form.js');
    const before = await stored();
    const res = await answerWith(
      token,
      answerForm([['payload', 'x']], [{ name: 'a.bin', data: randomBytes(200_000) }]),
    );
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('This request does not accept files');
    await expectNothingStored(before);
    expect((await requestRow(token)).state).toBe('open');
  });

  it('a wrong passphrase with files: 401 with the form, the files deleted; a second answer with files: 409, deleted', async () => {
    const owner = await personWithToken(push);
    const token = await apiRequest(owner, { response_file_attachments: true, passphrase: 'open sesame' });
    const before = await stored();
    const file = [{ name: 'a.bin', data: randomBytes(100_000) }];
    const wrong = await answerWith(
      token,
      answerForm(
        [
          ['passphrase', 'nope'],
          ['payload', ''],
        ],
        file,
      ),
    );
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('id="passphrase-error"');
    await expectNothingStored(before);
    const right = await answerWith(
      token,
      answerForm(
        [
          ['passphrase', 'open sesame'],
          ['payload', ''],
        ],
        file,
      ),
    );
    expect(right.status).toBe(303);
    const after = await stored();
    const again = await answerWith(
      token,
      answerForm(
        [
          ['passphrase', 'open sesame'],
          ['payload', ''],
        ],
        file,
      ),
    );
    expect(again.status).toBe(409);
    await expectNothingStored(after);
  });
});

describe("the requester's files on the page", () => {
  it('listed with a readable size and a download link; the download is counted, then a 410 page', async () => {
    const owner = await personWithToken(push);
    const data = randomBytes(1_500);
    const token = await apiRequest(owner, { attachment_downloads: 1 }, [{ name: 'form <v2>.pdf', data }]);
    const html = await (await new Browser().fetch(`${push.url}/respond/${token}`)).text();
    expect(html).toContain('Files from the requester');
    expect(html).toContain('form &lt;v2&gt;.pdf');
    expect(html).toContain('1.5 kB');
    expect(html).toContain('1 download left');
    const href = /<a href="(\/respond\/[\w-]+\/files\/[\w-]+)" download=/.exec(html)![1]!;
    const got = await new Browser().fetch(`${push.url}${href}`);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/octet-stream');
    expect(got.headers.get('content-disposition')).toContain('attachment');
    expect(got.headers.get('content-security-policy')).toContain('sandbox');
    expect(sha256(Buffer.from(await got.arrayBuffer()))).toBe(sha256(data));
    expect(await auditKinds(token)).toContain('attachment_download');
    const spent = await new Browser().fetch(`${push.url}${href}`);
    expect(spent.status).toBe(410);
    expect(await spent.text()).toContain('downloaded as many times as allowed');
    const after = await (await new Browser().fetch(`${push.url}/respond/${token}`)).text();
    expect(after).toContain('no downloads left');
    expect(after).not.toContain(`href="${href}"`);
    const unknown = await new Browser().fetch(`${push.url}/respond/${token}/files/not-a-uuid`);
    expect(unknown.status).toBe(404);
  });
});

describe('a request made of files alone (a blank message, as `pwpush request --attach-file` sends it)', () => {
  it('the responder and the owner read a line that says so, never an empty message box', async () => {
    const p = await signedIn(await newUser('files-only@example.org'));
    const tokens = await p.b.follow(`${push.url}/users/token`);
    const made = await post(p.b, '/users/token', {
      csrf: csrfOf(tokens.body),
      name: 'files only',
      scopes: ['pushes:read', 'pushes:write'],
    });
    expect(made.status).toBe(201);
    const value = /id="new-token"[^>]*value="(spu_[^"]+)"/s.exec(await made.text())![1]!;
    const token = await apiRequest({ token: value }, { request: '' }, [
      { name: 'contract.pdf', data: randomBytes(100) },
    ]);

    const page = await (await new Browser().fetch(`${push.url}/respond/${token}`)).text();
    expect(page).not.toContain('class="secret" id="request-message"');
    expect(page).toMatch(/<p id="request-message">\s*The requester sent no message, only the files below/);
    expect(page).toContain('contract.pdf');
    expect(page).toMatch(/The request closes\s+<span class="when"\s*>in \d+ days?\s/);

    const detail = await p.b.follow(`${push.url}/requests/${token}`);
    expect(detail.res.status).toBe(200);
    expect(detail.body).not.toContain('class="secret" id="request-message"');
    expect(detail.body).toMatch(
      /<p id="request-message">\s*No message: the responder sees the files you attached/,
    );
  });
});

describe('signed-in users only, with files', () => {
  it('anonymous: 401 for the page, the file and a multipart answer (nothing stored); a person downloads and answers with files, the CSRF token first', async () => {
    const owner = await personWithToken(push);
    const data = randomBytes(2_000);
    const token = await apiRequest(owner, { answerable_by: 'users', response_file_attachments: true }, [
      { name: 'brief.txt', data },
    ]);
    const responder = await signedIn(await newUser('files-users@example.org'));
    const html = (await responder.b.follow(`${push.url}/respond/${token}`)).body;
    const href = /<a href="(\/respond\/[\w-]+\/files\/[\w-]+)" download=/.exec(html)![1]!;

    expect((await new Browser().fetch(`${push.url}/respond/${token}`)).status).toBe(401);
    const anonymousFile = await new Browser().fetch(`${push.url}${href}`);
    expect(anonymousFile.status).toBe(401);
    expect(await anonymousFile.text()).toContain('Sign in to answer this request');
    const before = await stored();
    const file = [{ name: 'answer.bin', data: randomBytes(100_000) }];
    const anonymous = await answerWith(token, answerForm([['payload', '']], file));
    expect(anonymous.status).toBe(401);
    const noCsrf = await answerWith(token, answerForm([['payload', '']], file), responder.b);
    expect(noCsrf.status).toBe(403);
    await expectNothingStored(before);
    expect((await requestRow(token)).state).toBe('open');

    const got = await responder.b.fetch(`${push.url}${href}`);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(data)).toBe(true);
    const ok = await answerWith(
      token,
      answerForm(
        [
          ['csrf', responder.csrf],
          ['payload', ''],
        ],
        file,
      ),
      responder.b,
    );
    expect(ok.status).toBe(303);
    expect((await requestRow(token)).state).toBe('answered');
  });
});

describe('listed addresses: the one-time code on the page', () => {
  const codeIn = (subject: string) => /Your code: (\d{6})/.exec(subject)?.[1] ?? '';

  it('created from the form; the code sent to a listed address (none to another); a wrong code 403, the right one answers', async () => {
    const p = await signedIn(user);
    const { token } = await create(p, { answerable_by: 'emails', answerable_emails: 'listed@example.org' });
    const page = await (await new Browser().fetch(`${push.url}/respond/${token}`)).text();
    expect(page).toContain(`<form method="post" action="/respond/${token}/code">`);
    expect(page).toContain('<label for="code-email">Email address for the code</label>');

    const responder = new Browser();
    const blank = await post(responder, `/respond/${token}/code`, { email: ' ' });
    expect(blank.status).toBe(422);
    expect(await blank.text()).toContain('id="code-email-error"');
    const stranger = await post(responder, `/respond/${token}/code`, { email: 'stranger@example.org' });
    expect(stranger.status).toBe(200);
    const sent = await post(responder, `/respond/${token}/code`, { email: 'listed@example.org' });
    expect(sent.status).toBe(200);
    const sentPage = await sent.text();
    expect(sentPage).toContain('If that address may answer, a code was sent to it.');
    expect(sentPage).toContain('value="listed@example.org"');
    const m = await mail.waitFor((x) => x.envelope.to.includes('listed@example.org'), 20_000);
    const code = codeIn(m.subject);
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.messages.some((x) => x.envelope.to.includes('stranger@example.org'))).toBe(false);

    const noCode = await answer(token, { email: 'listed@example.org', payload: 'the secret' }, responder);
    expect(noCode.status).toBe(403);
    const wrongCode = code === '000000' ? '111111' : '000000';
    const wrong = await answer(
      token,
      { email: 'listed@example.org', code: wrongCode, payload: 'kept' },
      responder,
    );
    expect(wrong.status).toBe(403);
    const wrongPage = await wrong.text();
    expect(wrongPage).toContain('id="code-error"');
    expect(wrongPage).toContain('kept</textarea');
    expect((await requestRow(token)).state).toBe('open');
    const right = await answer(
      token,
      { email: 'listed@example.org', code, payload: 'the secret' },
      responder,
    );
    expect(right.status).toBe(303);
    expect((await requestRow(token)).state).toBe('answered');
    expect(await auditKinds(token)).toContain('code_sent');
  });
});

describe('limits', () => {
  it("the page's answers take the API's per-request answer limit (429 page); its GET does not count", async () => {
    const owner = await personWithToken(push);
    const token = await apiRequest(owner, {});
    // The API's answers and the page's share the per-request budget.
    const api = await fetch(`${push.url}/api/v2/requests/${token}/respond`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ response: { payload: ' ' } }),
    });
    expect(api.status).toBe(422);
    for (let i = 1; i < PER_REQUEST; i++) {
      expect((await answer(token, { payload: ' ' })).status).toBe(422);
      expect((await new Browser().fetch(`${push.url}/respond/${token}`)).status).toBe(200);
    }
    const limited = await answer(token, { payload: 'now too many' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await limited.text()).toContain('Too many requests');
    expect((await requestRow(token)).state).toBe('open');
    expect((await new Browser().fetch(`${push.url}/respond/${token}`)).status).toBe(200);
    // Another request from the same address is answered: the limit is this request's.
    const other = await apiRequest(owner, {});
    expect((await answer(other, { payload: 'fine' })).status).toBe(303);
  });
});
