import { sql } from 'kysely';
import { untranslatedText } from '@secret-push/testing';
import { type TestPush, type TestWebStack, startPush, startWebStack } from '../testing';
import { Browser } from './support/browser';
import { createPush } from './support/helpers';

/*
 * The pseudo-locale sweep (issue 30): every page of the push service, in each of its states, asked
 * for in `en-XA` (every catalogue letter accented and lengthened), must show no plain-ASCII word
 * but the test's own data, the brand and values (URLs, addresses, tokens, Intl's dates). What is
 * left is a literal that bypasses the catalogues: the failure lists each word with the state and
 * the path it was seen on.
 *
 * States visited (the GET page routes of pages/*.routes.ts, and the axe matrix of
 * accessibility.browser.ts):
 * - anonymous: `/` (the create form; again with problems, a 422 re-render), `/created` (the link and
 *   the receipt; without the cookie: the 404 "no longer shown" page), `/about`, `/receipt/:receipt`,
 *   `/receipt/:receipt/expire` and after the expire, `/signed-out`, `/sign-in/callback` (400 page);
 * - recipient: `/p/:token` and `/p/:token/r` for text, url, qr and file pushes (open, with a
 *   passphrase, the wrong passphrase, revealed, deleted by the viewer, gone 404), `/f/:token` and
 *   `/r/:token` (301 to the page), a file download used up (410);
 * - signed in: `/` (the create form), `/created`, `/pushes` (empty and full), `/pushes/:token/audit`,
 *   `/pushes/:token/expire`, `/users/token` (empty, a token shown once, a 422 re-render, the list),
 *   `/users/token/:id/revoke` and `/regenerate`, `/users/webhooks` (empty, a secret shown once,
 *   a 422 re-render, the list), `/users/webhooks/:id`, `/users/webhooks/:id/delete`, `/account`,
 *   `/account/delete`, `/requests/new` (and a 422 re-render), `/requests/created`, `/requests`
 *   (empty and full), `/requests/:token`, `/requests/:token/close`;
 * - responder: `/respond/:url_token` (and an empty answer's re-render), `/respond/:url_token/done`;
 * - errors: 403 (a form without its token), 404 (an unknown path, an unknown push), 410, 429 (the
 *   retrieval limit of a second push service), 500 (a table gone), 503 (a push service whose Redis
 *   does not answer, for a signed-in browser).
 * The last test compares these with the app's router stack: a GET route answering HTML that no
 * state visits fails it.
 */

let stack: TestWebStack;
let push: TestPush;
/** A second push service on the same database: a retrieval limit of 1 a minute (the 429 page). */
let limited: TestPush;
/** A third whose Redis does not answer: a signed-in browser's session cannot be read (503 pages). */
let degraded: TestPush;

beforeAll(async () => {
  // One download per view: a second download of a file is the "used up" page.
  stack = await startWebStack({ files: true, pushEnv: { PUSH_FILES_DOWNLOADS_PER_VIEW: '1' } });
  ({ push } = stack);
  const shared = { database: { url: push.env.PUSH_DATABASE_URL! } };
  const base = Object.fromEntries(Object.entries(push.env).filter(([k]) => k !== 'PUSH_PORT'));
  limited = await startPush(stack.auth, {
    ...shared,
    env: { ...base, PUSH_RATE_LIMIT_RETRIEVE_PER_MINUTE: '1' },
  });
  degraded = await startPush(stack.auth, {
    ...shared,
    env: { ...base, PUSH_REDIS_URL: 'redis://127.0.0.1:9', PUSH_REDIS_COMMAND_TIMEOUT_MS: '200' },
  });
}, 90_000);

afterAll(async () => {
  await degraded?.stop();
  await limited?.stop();
  await stack?.stop();
});

/** A browser whose language is the pseudo-locale: every request says `Accept-Language: en-XA`. */
class PseudoBrowser extends Browser {
  override fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('accept-language', 'en-XA');
    return super.fetch(url, { ...init, headers });
  }
}

/** The test's own data (shown back on pages) and the brand: the only words allowed. */
const DATA = {
  payload: 'sweep payload',
  name: 'Sweep name',
  url: 'https://example.com/sweep',
  qr: 'WIFI:T:WPA;S:office;P:pw;;',
  passphrase: 'sweep phrase',
  request: 'Sweep request',
  answer: 'sweep answer',
  token: 'Sweep token',
  hook: 'https://hooks.example/sweep',
  file: 'sweep.txt',
};
const ALLOW: (string | RegExp)[] = [
  ...Object.values(DATA),
  'secret-push', // the brand (the default BRAND_NAME)
  'node', // the user agent of the test's requests, in the audit logs
  'UTC', // a time zone's name: a value, like Intl's dates
  // Technical tokens kept as they are in every language: scopes, event types, header names, a product.
  /^pushes:(?:read|write)$/,
  /^(?:push|request|email)\.[a-z_]+$/,
  'X-User-Token',
  'X-User-Email',
  'webhook-signature',
  'Password Pusher',
  'Authorization: Bearer <token>', // the header a token goes in, shown as code
];

/**
 * Intl's output in `en-XA` is English (the translator formats dates, numbers and relative times as
 * `en`): values, not literals. Taken out of the page before the check: `<time>` elements, and the
 * phrases Intl writes for relative times, lists of values, dates and sizes.
 */
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\\.?';
const WEEKDAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*\\.?,?';
const INTL_VALUES: RegExp[] = [
  /<time\b[^>]*>[\s\S]*?<\/time>/g,
  /<pre\b[^>]*>[\s\S]*?<\/pre>/g, // command lines (`curl …`, `echo … | push`): code, not text
  new RegExp(
    `\\b(?:${WEEKDAY} )?${MONTH} \\d{1,2}(?:, \\d{4})?(?:(?:,| at) \\d{1,2}:\\d{2}(?::\\d{2})?(?:\\s?[AP]M)?)?(?: UTC)?`,
    'g',
  ),
  new RegExp(`\\b\\d{1,2} ${MONTH}(?: \\d{4})?`, 'g'),
  /\b\d{1,2}:\d{2}(?::\d{2})?\s?(?:[AP]M)(?: UTC)?\b/g,
  /\b(?:in \d[\d,.]* (?:second|minute|hour|day|week|month|year)s?|\d[\d,.]* (?:second|minute|hour|day|week|month|year)s? ago|yesterday|tomorrow|now)\b/g,
  /\b\d[\d,.]*\s?(?:byte|bytes|kB|KB|MB|GB|TB)\b/g,
];
const withoutValues = (page: string) => INTL_VALUES.reduce((p, r) => p.replace(r, ' '), page);

interface Seen {
  /** What the page is (its state). */
  state: string;
  /** The route pattern it is served by (as in the router stack). */
  route: string;
  path: string;
  status: number;
  body: string;
}
const seen: Seen[] = [];
/** Steps that could not be taken (a setup that failed): reported by the first test. */
const broken: { state: string; error: string }[] = [];

/** Records a page, with the route that serves it; `expected`: the status this state must have. */
function record(
  state: string,
  route: string,
  path: string,
  page: { status: number; body: string },
  expected: number,
) {
  seen.push({ state, route, path, status: page.status, body: page.body });
  if (page.status !== expected) {
    broken.push({ state, error: `${path}: ${page.status}, expected ${expected}` });
  }
}

async function visit(
  b: Browser,
  state: string,
  route: string,
  url: string,
  expected = 200,
  init?: RequestInit,
) {
  const got = await b.follow(url, init);
  const path = new URL(got.url).pathname;
  record(state, route, path, { status: got.res.status, body: got.body }, expected);
  return got;
}

/** Runs a step; an error is reported, not thrown, so that one broken step leaves the other states. */
async function step(state: string, fn: () => Promise<unknown>) {
  try {
    await fn();
  } catch (err) {
    broken.push({ state, error: err instanceof Error ? err.message : String(err) });
  }
}

const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string | string[]>) =>
  new URLSearchParams(
    Object.entries(fields).flatMap(([k, v]) =>
      (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x]),
    ),
  ).toString();
const postInit = (fields: Record<string, string | string[]>): RequestInit => ({
  method: 'POST',
  headers: FORM_TYPE,
  body: form(fields),
});
const csrfOf = (body: string) => /name="csrf" value="([^"]+)"/.exec(body)?.[1] ?? '';
const keyOf = (body: string) => /name="idempotency_key" value="([^"]+)"/.exec(body)?.[1] ?? '';
const linkOf = (body: string) => /id="link"[^>]*?value="([^"]+)"/.exec(body)?.[1] ?? '';

async function apiPush(fields: Record<string, unknown>): Promise<string> {
  const res = await createPush(push.url, fields);
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { url_token: string }).url_token;
}

async function anonymousStates(): Promise<void> {
  const b = new PseudoBrowser();
  const u = push.url;
  await step('create form', () => visit(b, 'create form (anonymous)', '/', `${u}/`));
  await step('create form with problems', async () => {
    const page = await b.follow(`${u}/`);
    await visit(b, 'create form with problems (422)', '/', `${u}/`, 422, {
      ...postInit({
        kind: 'text',
        payload: '',
        expire_after_days: '2',
        expire_after_views: '0',
        idempotency_key: keyOf(page.body),
      }),
      headers: { ...FORM_TYPE },
    });
  });
  let receipt = '';
  await step('created page', async () => {
    const page = await b.follow(`${u}/`);
    const made = await b.fetch(
      `${u}/`,
      postInit({
        kind: 'text',
        payload: DATA.payload,
        name: DATA.name,
        expire_after_days: '2',
        expire_after_views: '3',
        idempotency_key: keyOf(page.body),
      }),
    );
    if (made.status !== 303) throw new Error(`create: ${made.status}`);
    const created = await visit(b, 'created link with the receipt (anonymous)', '/created', `${u}/created`);
    receipt = /id="receipt"[^>]*?value="[^"]*\/receipt\/([\w-]+)"/.exec(created.body)?.[1] ?? '';
  });
  await step('created page without its cookie', () =>
    visit(new PseudoBrowser(), 'created page, not shown any more (404)', '/created', `${u}/created`, 404),
  );
  await step('about', () => visit(b, 'about', '/about', `${u}/about`));
  await step('receipt', async () => {
    if (!receipt) throw new Error('no receipt on the created page');
    await visit(b, 'receipt (active)', '/receipt/:receipt', `${u}/receipt/${receipt}`);
    const ask = await visit(
      b,
      'receipt expire confirmation',
      '/receipt/:receipt/expire',
      `${u}/receipt/${receipt}/expire`,
    );
    const done = await b.fetch(`${u}/receipt/${receipt}/expire`, postInit({ csrf: csrfOf(ask.body) }));
    if (done.status >= 300 && done.status < 400) {
      await visit(
        b,
        'receipt (expired)',
        '/receipt/:receipt',
        new URL(done.headers.get('location')!, u).href,
      );
    } else {
      record(
        'receipt after expire',
        '/receipt/:receipt/expire',
        '/receipt/…/expire',
        { status: done.status, body: await done.text() },
        200,
      );
    }
    await visit(b, 'receipt unknown (404)', '/receipt/:receipt', `${u}/receipt/${'x'.repeat(22)}`, 404);
  });
  await step('signed out', () => visit(b, 'signed out', '/signed-out', `${u}/signed-out`));
  await step('sign-in callback refused', () =>
    visit(b, 'sign-in not completed (400)', '/sign-in/callback', `${u}/sign-in/callback?state=x&code=y`, 400),
  );
  await step('404', () => visit(b, 'page not found (404)', '(none)', `${u}/no-such-page`, 404));
}

async function recipientStates(): Promise<void> {
  const b = new PseudoBrowser();
  const u = push.url;
  await step('recipient text', async () => {
    const t = await apiPush({
      payload: DATA.payload,
      retrieval_step: true,
      deletable_by_viewer: true,
      expire_after_views: 3,
    });
    await visit(b, 'recipient open (text, retrieval step)', '/p/:token', `${u}/p/${t}`);
    await visit(b, 'recipient open (/r)', '/p/:token/r', `${u}/p/${t}/r`);
    const revealed = await visit(
      b,
      'recipient revealed (text)',
      '/p/:token',
      `${u}/p/${t}`,
      200,
      postInit({}),
    );
    await visit(
      b,
      'recipient deleted by the viewer',
      '/p/:token',
      `${u}/p/${t}/delete`,
      200,
      postInit({ csrf: csrfOf(revealed.body) }),
    );
    await visit(b, 'recipient gone (404)', '/p/:token', `${u}/p/${t}`, 404);
    await visit(b, 'old /f/ link (301 to the page)', '/f/:token', `${u}/f/${t}`, 404);
    await visit(b, 'old /r/ link (301 to the page)', '/r/:token', `${u}/r/${t}`, 404);
    await visit(b, 'old /f/…/r link', '/f/:token/r', `${u}/f/${t}/r`, 404);
    await visit(b, 'old /r/…/r link', '/r/:token/r', `${u}/r/${t}/r`, 404);
  });
  await step('recipient auto-reveal', async () => {
    const t = await apiPush({ payload: DATA.payload, expire_after_views: 1 });
    await visit(b, 'recipient open (no retrieval step, auto-submit form)', '/p/:token', `${u}/p/${t}`);
  });
  await step('recipient passphrase', async () => {
    const t = await apiPush({ payload: DATA.payload, passphrase: DATA.passphrase, retrieval_step: true });
    await visit(b, 'recipient open with a passphrase', '/p/:token', `${u}/p/${t}`);
    await visit(
      b,
      'recipient wrong passphrase (401)',
      '/p/:token',
      `${u}/p/${t}`,
      401,
      postInit({ passphrase: 'wrong' }),
    );
    await visit(
      b,
      'recipient revealed with the passphrase',
      '/p/:token',
      `${u}/p/${t}`,
      200,
      postInit({ passphrase: DATA.passphrase }),
    );
  });
  await step('recipient url', async () => {
    const t = await apiPush({ kind: 'url', payload: DATA.url, retrieval_step: true });
    await visit(b, 'recipient open (url)', '/p/:token', `${u}/p/${t}`);
  });
  await step('recipient qr', async () => {
    const t = await apiPush({ kind: 'qr', payload: DATA.qr, retrieval_step: true });
    await visit(b, 'recipient open (qr)', '/p/:token', `${u}/p/${t}`);
    await visit(b, 'recipient revealed (qr)', '/p/:token', `${u}/p/${t}`, 200, postInit({}));
  });
  await step('recipient files', async () => {
    const client = await stack.auth.createClient('pushes:read pushes:write');
    const res = await fetch(`${u}/api/v2/pushes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await stack.auth.token(client)}` },
      body: (() => {
        const f = new FormData();
        f.set('push[payload]', DATA.payload);
        f.set('push[retrieval_step]', 'true');
        f.set('push[expire_after_views]', '1');
        f.append('push[files][]', new Blob(['one']), DATA.file);
        f.append('push[files][]', new Blob(['two']), `2-${DATA.file}`);
        return f;
      })(),
    });
    if (res.status !== 201) throw new Error(`file push: ${res.status} ${await res.text()}`);
    const t = ((await res.json()) as { url_token: string }).url_token;
    await visit(b, 'recipient open (files)', '/p/:token', `${u}/p/${t}`);
    const revealed = await visit(
      b,
      'recipient revealed (files)',
      '/p/:token',
      `${u}/p/${t}`,
      200,
      postInit({}),
    );
    const download = /href="([^"]*\/api\/v2\/files\/[^"]+)"/
      .exec(revealed.body)?.[1]
      ?.replaceAll('&amp;', '&');
    if (!download) throw new Error('no download link on the revealed files page');
    await b.fetch(new URL(download, u).href);
    const spent = await b.fetch(new URL(download, u).href, { headers: { accept: 'text/html' } });
    record(
      'file download used up (404, the download page)',
      '(api download link)',
      '/api/v2/files/…',
      { status: spent.status, body: await spent.text() },
      404,
    );
  });
  await step('429', async () => {
    const t = await apiPush({ payload: DATA.payload, retrieval_step: true });
    await b.fetch(`${limited.url}/p/${t}`);
    const res = await b.fetch(`${limited.url}/p/${t}`);
    record(
      'too many requests (429)',
      '/p/:token',
      '/p/…',
      { status: res.status, body: await res.text() },
      429,
    );
  });
  await step('500', async () => {
    const t = await apiPush({ payload: DATA.payload, retrieval_step: true });
    await sql`alter table push rename to push_hidden_sweep`.execute(push.db);
    try {
      await visit(b, 'something went wrong (500)', '/p/:token', `${u}/p/${t}`, 500);
    } finally {
      await sql`alter table push_hidden_sweep rename to push`.execute(push.db);
    }
  });
}

async function signedInStates(): Promise<void> {
  const b = new PseudoBrowser();
  const u = push.url;
  // `/sign-in` leads to the provider's login page (the auth service's sweep covers its states).
  const login = await visit(b, 'sign-in: the provider’s login page', '/sign-in', `${u}/sign-in`);
  const landed = await b.submit(login, stack.user);
  let csrf = csrfOf(landed.body);
  if (!csrf) throw new Error(`not signed in: ended at ${landed.url} (${landed.res.status})`);
  const post = (path: string, fields: Record<string, string | string[]>) =>
    b.fetch(`${u}${path}`, postInit({ csrf, ...fields }));

  await step('403', async () => {
    const res = await b.fetch(`${u}/users/token`, postInit({ name: DATA.token }));
    record(
      'a form without its token (403)',
      '(none)',
      '/users/token',
      { status: res.status, body: await res.text() },
      403,
    );
  });
  await step('empty lists', async () => {
    await visit(b, 'your pushes (empty)', '/pushes', `${u}/pushes`);
    await visit(b, 'API tokens (empty)', '/users/token', `${u}/users/token`);
    await visit(b, 'webhooks (empty)', '/users/webhooks', `${u}/users/webhooks`);
    await visit(b, 'your requests (empty)', '/requests', `${u}/requests`);
  });
  await step('create form signed in', () => visit(b, 'create form (signed in)', '/', `${u}/`));
  let token = '';
  await step('created signed in', async () => {
    const page = await b.follow(`${u}/`);
    const made = await post('/', {
      kind: 'text',
      payload: DATA.payload,
      name: DATA.name,
      expire_after_days: '2',
      expire_after_views: '3',
      idempotency_key: keyOf(page.body),
    });
    if (made.status !== 303) throw new Error(`create: ${made.status}`);
    const created = await visit(b, 'created link (signed in)', '/created', `${u}/created`);
    token = /\/p\/([\w-]+)/.exec(linkOf(created.body))?.[1] ?? '';
  });
  await step('owner pages', async () => {
    await apiPush({ payload: DATA.payload }); // someone else's: never listed
    await visit(b, 'your pushes (full)', '/pushes', `${u}/pushes`);
    await visit(b, 'a push’s audit log', '/pushes/:token/audit', `${u}/pushes/${token}/audit`);
    const ask = await visit(b, 'expire confirmation', '/pushes/:token/expire', `${u}/pushes/${token}/expire`);
    await visit(
      b,
      'expired (after the confirmation)',
      '/pushes/:token/audit',
      `${u}/pushes/${token}/expire`,
      200,
      postInit({ csrf: csrfOf(ask.body) || csrf }),
    );
    await visit(b, 'your pushes (expired tab)', '/pushes', `${u}/pushes?tab=expired`);
    await visit(
      b,
      'an unknown push’s audit (404)',
      '/pushes/:token/audit',
      `${u}/pushes/${'x'.repeat(22)}/audit`,
      404,
    );
  });
  await step('tokens', async () => {
    const made = await post('/users/token', { name: DATA.token, scopes: ['pushes:read', 'pushes:write'] });
    record(
      'API token shown once (201)',
      '/users/token',
      '/users/token',
      { status: made.status, body: await made.text() },
      201,
    );
    const bad = await post('/users/token', { name: DATA.token, expires_days: 'soon' });
    record(
      'API token form with problems (422)',
      '/users/token',
      '/users/token',
      { status: bad.status, body: await bad.text() },
      422,
    );
    const list = await visit(b, 'API tokens (full)', '/users/token', `${u}/users/token`);
    const id = /\/users\/token\/([\w-]+)\/revoke/.exec(list.body)?.[1];
    if (!id) throw new Error('no token on the list');
    await visit(b, 'revoke confirmation', '/users/token/:id/revoke', `${u}/users/token/${id}/revoke`);
    await visit(
      b,
      'regenerate confirmation',
      '/users/token/:id/regenerate',
      `${u}/users/token/${id}/regenerate`,
    );
    const again = await post(`/users/token/${id}/regenerate`, {});
    record(
      'API token regenerated, shown once',
      '/users/token',
      `/users/token/…/regenerate`,
      { status: again.status, body: await again.text() },
      200,
    );
    await visit(
      b,
      'API token revoked (flash)',
      '/users/token',
      `${u}/users/token/${id}/revoke`,
      200,
      postInit({ csrf }),
    );
  });
  await step('webhooks', async () => {
    const made = await post('/users/webhooks', { url: DATA.hook, all_types: 'true' });
    record(
      'webhook secret shown once (201)',
      '/users/webhooks',
      '/users/webhooks',
      { status: made.status, body: await made.text() },
      201,
    );
    const bad = await post('/users/webhooks', { url: '' });
    record(
      'webhook form with problems (422)',
      '/users/webhooks',
      '/users/webhooks',
      { status: bad.status, body: await bad.text() },
      422,
    );
    const list = await visit(b, 'webhooks (full)', '/users/webhooks', `${u}/users/webhooks`);
    const id =
      /\/users\/webhooks\/([\w-]+)\/delete/.exec(list.body)?.[1] ??
      /href="\/users\/webhooks\/([\w-]+)"/.exec(list.body)?.[1];
    if (!id) throw new Error('no endpoint on the list');
    await visit(b, 'a webhook endpoint', '/users/webhooks/:id', `${u}/users/webhooks/${id}`);
    await visit(
      b,
      'webhook delete confirmation',
      '/users/webhooks/:id/delete',
      `${u}/users/webhooks/${id}/delete`,
    );
    await visit(
      b,
      'webhook disabled (flash)',
      '/users/webhooks',
      `${u}/users/webhooks/${id}/disable`,
      200,
      postInit({ csrf }),
    );
  });
  await step('requests', async () => {
    const page = await visit(b, 'request form', '/requests/new', `${u}/requests/new`);
    const bad = await post('/requests/new', { request: '', idempotency_key: keyOf(page.body) });
    record(
      'request form with problems (422)',
      '/requests/new',
      '/requests/new',
      { status: bad.status, body: await bad.text() },
      422,
    );
    const fresh = await b.follow(`${u}/requests/new`);
    const made = await post('/requests/new', { request: DATA.request, idempotency_key: keyOf(fresh.body) });
    if (made.status !== 303) throw new Error(`request: ${made.status}`);
    const created = await visit(b, 'request link', '/requests/created', `${u}/requests/created`);
    const link = linkOf(created.body);
    const rt = /\/respond\/([\w-]+)$/.exec(link)?.[1];
    if (!rt) throw new Error('no request link');
    await visit(b, 'your requests (full)', '/requests', `${u}/requests`);
    await visit(b, 'a request', '/requests/:token', `${u}/requests/${rt}`);
    await visit(b, 'request close confirmation', '/requests/:token/close', `${u}/requests/${rt}/close`);

    const responder = new PseudoBrowser();
    await visit(responder, 'responder page', '/respond/:url_token', `${u}/respond/${rt}`);
    await visit(
      responder,
      'responder page with problems (422)',
      '/respond/:url_token',
      `${u}/respond/${rt}`,
      422,
      postInit({ payload: '' }),
    );
    await visit(
      responder,
      'answer sent',
      '/respond/:url_token/done',
      `${u}/respond/${rt}`,
      200,
      postInit({ payload: DATA.answer }),
    );
    await visit(responder, 'responder page, answered', '/respond/:url_token', `${u}/respond/${rt}`, 409);
    await visit(b, 'a request, answered', '/requests/:token', `${u}/requests/${rt}`);
    await visit(
      responder,
      'responder page, unknown (404)',
      '/respond/:url_token',
      `${u}/respond/${'x'.repeat(22)}`,
      404,
    );
  });
  await step('503', async () => {
    const res = await b.fetch(`${degraded.url}/`);
    record(
      'create form, session unreadable (503)',
      '/',
      '/',
      { status: res.status, body: await res.text() },
      503,
    );
    const created = await b.fetch(`${degraded.url}/created`);
    record(
      'created page, session unreadable (503)',
      '/created',
      '/created',
      { status: created.status, body: await created.text() },
      503,
    );
  });
  await step('account', async () => {
    await visit(b, 'account', '/account', `${u}/account`);
    // Deleting the account asks for a sign-in again first: the login page, then the confirmation.
    const again = await b.follow(`${u}/account/delete`);
    const ask = again.url.startsWith(stack.auth.issuer) ? await b.submit(again, stack.user) : again;
    record(
      'account delete confirmation',
      '/account/delete',
      new URL(ask.url).pathname,
      { status: ask.res.status, body: ask.body },
      200,
    );
    csrf = csrfOf(ask.body) || csrf; // a sign-in again is a new session
  });
  await step('sign out', async () => {
    const out = await b.follow(`${u}/sign-out`, postInit({ csrf }));
    record(
      'signed out (after sign-out)',
      '/signed-out',
      new URL(out.url).pathname,
      { status: out.res.status, body: out.body },
      200,
    );
  });
}

beforeAll(async () => {
  await anonymousStates();
  await recipientStates();
  await step('signed in', signedInStates);
}, 180_000);

test('every page state was reached with its status', () => {
  expect(broken).toEqual([]);
});

test('en-XA: no page shows text that bypasses the catalogues', () => {
  const found = seen
    .map((p) => ({
      state: p.state,
      at: `${p.status} ${p.path}`,
      words: untranslatedText(withoutValues(p.body), ALLOW).join(' '),
    }))
    .filter((p) => p.words.length > 0);
  expect(found).toEqual([]);
});

test('en-XA: every page says lang="en-XA"', () => {
  const wrong = seen
    .filter((p) => !/<html\b[^>]*\blang="en-XA"/.test(p.body))
    .map((p) => `${p.state}: ${p.path}`);
  expect(wrong).toEqual([]);
});

interface Layer {
  slash?: boolean;
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
}

/** The GET routes of the app's root-mounted routers (the API under /api/v2 is mounted at its path). */
function getRoutes(stackOf: Layer[], out = new Set<string>()): Set<string> {
  for (const layer of stackOf) {
    if (layer.route) {
      if (!layer.route.methods.get) continue;
      for (const p of [layer.route.path].flat()) out.add(p);
    } else if (layer.slash && layer.handle.stack) {
      getRoutes(layer.handle.stack, out);
    }
  }
  return out;
}

/** GET routes that never answer a page: files, scripts, health. */
const NOT_PAGES = [
  /^\/static\//,
  /\.(js|css|svg|ico|png)$/,
  /^\/(healthz|readyz|livez|health)/,
  /^\/api\//,
  /\/files\/:file_id$/,
];

test('the sweep visits every GET page route of the app', () => {
  const app = push.server.server.listeners('request')[0] as unknown as { router: { stack: Layer[] } };
  const routes = [...getRoutes(app.router.stack)].filter((r) => !NOT_PAGES.some((n) => n.test(r)));
  expect(routes.length).toBeGreaterThan(20);
  const visited = new Set(seen.map((p) => p.route));
  expect(routes.filter((r) => !visited.has(r)).sort()).toEqual([]);
});
