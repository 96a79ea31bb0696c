import type { TestAuth } from '@secret-push/auth/testing';
import { type TestPush, type TestWebStack, startPush, startWebStack } from '../testing';
import { hashUrlToken } from '../security/url-token';
import { Browser } from './support/browser';

/*
 * The web app's request pages (issue 28) against the real services: the auth service signs people
 * in, the push service serves /requests/new, /requests, /requests/:token and the responder's
 * /respond/:token. Every page as plain form posts (no JavaScript), the link shown once and a
 * resubmission creating nothing, CSRF and same-origin refusals that change nothing, the 404 and 409
 * pages, a hostile message shown escaped, passphrases, "signed-in users only", another person's
 * request not found, and anonymous access off.
 */
let stack: TestWebStack;
let auth: TestAuth;
let push: TestPush;
let user: { email: string; password: string };

beforeAll(async () => {
  stack = await startWebStack();
  ({ auth, push, user } = stack);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
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
    const [pa, pb] = [await a.text(), await b.text()];
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
