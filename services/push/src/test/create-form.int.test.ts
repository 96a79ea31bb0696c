import request from 'supertest';
import { sql } from 'kysely';
import { startPush, type TestPush } from '../testing';
import { type Harness, harness } from './support/helpers';

// The web app's create form (`GET /`, `POST /`) against a real push service and auth service: the
// push it makes is read back through the API.
let h: Harness;
let closed: TestPush;
beforeAll(async () => {
  h = await harness();
  closed = await startPush(h.auth, { env: { PUSH_ANONYMOUS_ACCESS: 'false' } });
});
afterAll(async () => {
  await closed?.stop();
  await h?.stop();
});

const countPushes = async (push: TestPush = h.push) =>
  Number((await sql<{ n: string }>`select count(*) as n from push`.execute(push.db)).rows[0]!.n);

/** A POST of the form as a browser sends it from the page itself. */
const submit = (fields: Record<string, string | string[]>, url = h.push.url) =>
  request(url)
    .post('/')
    .set('Sec-Fetch-Site', 'same-origin')
    .type('form')
    .send(
      new URLSearchParams(
        Object.entries(fields).flatMap(([k, v]) =>
          (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x]),
        ),
      ).toString(),
    );

const FORM = {
  kind: 'text',
  payload: 'correct horse battery staple',
  expire_after_days: '2',
  expire_after_views: '3',
  retrieval_step: ['false', 'true'],
  deletable_by_viewer: ['false'],
};

const linkOf = (page: string) => /<pre class="secret" id="link"[^>]*>([^<]+)<\/pre>/.exec(page)?.[1];
const tokenOf = (link: string) => /\/p\/([\w-]+)/.exec(link)![1]!;

function expectPageHeaders(res: request.Response) {
  expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
  expect(res.headers['cache-control']).toBe('no-store');
  const csp = res.headers['content-security-policy'] as string;
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
}

describe('GET /', () => {
  it('shows the form: every field labelled, the instance bounds and defaults, page headers', async () => {
    const res = await request(h.push.url).get('/');
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    const page = res.text;
    const ids = [...page.matchAll(/<(?:input|textarea)\b[^>]*\bid="([^"]+)"/g)].map((m) => m[1]!);
    expect(ids).toEqual(
      expect.arrayContaining([
        'kind-text',
        'kind-url',
        'kind-qr',
        'payload',
        'expire_after_days',
        'passphrase',
      ]),
    );
    for (const id of ids) expect(page).toContain(`<label for="${id}">`);
    expect(page).toMatch(/Expires after this many days \(1 to 90\)/);
    expect(page).toMatch(/name="expire_after_days"[^>]*value="7"|value="7"[^>]*name="expire_after_days"/s);
    expect(page).toContain('<form method="post" action="/"');
  });

  it('says why there is no form where anonymous creation is off', async () => {
    const res = await request(closed.url).get('/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('needs an account');
    expect(res.text).not.toContain('<form');
  });
});

describe('POST /', () => {
  it('creates a text push and shows its link once, with a QR code; the API serves it', async () => {
    const res = await submit(FORM);
    expect(res.status).toBe(201);
    expectPageHeaders(res);
    const link = linkOf(res.text)!;
    expect(link).toMatch(new RegExp(`^${h.push.url}/p/[\\w-]{22}/r$`)); // click to reveal: checked
    expect(res.text).toContain('<svg');
    expect(res.text).toMatch(/opened 3 times within 2\s+days/);
    const got = await request(h.push.url).get(`/api/v2/pushes/${tokenOf(link)}`);
    expect(got.body).toMatchObject({
      payload: 'correct horse battery staple',
      views_remaining: 2,
      expire_after_days: 2,
      retrieval_step: true,
      deletable_by_viewer: false,
    });
  });

  it('unchecked boxes are false; a passphrase protects it; URL and QR kinds', async () => {
    const plain = await submit({ ...FORM, retrieval_step: ['false'], passphrase: 'open sesame' });
    const link = linkOf(plain.text)!;
    expect(link).toMatch(/\/p\/[\w-]{22}$/);
    expect(plain.text).toContain('also needs the passphrase');
    expect(plain.text).not.toContain('open sesame');
    const locked = await request(h.push.url).get(`/api/v2/pushes/${tokenOf(link)}`);
    expect(locked.status).toBe(401);
    const opened = await request(h.push.url)
      .post(`/api/v2/pushes/${tokenOf(link)}/reveal`)
      .send({ passphrase: 'open sesame' });
    expect(opened.body).toMatchObject({ payload: 'correct horse battery staple', retrieval_step: false });

    for (const [kind, payload] of [
      ['url', 'https://example.com/invite'],
      ['qr', 'WIFI:S:net;T:WPA;P:pw;;'],
    ]) {
      const res = await submit({ ...FORM, kind: kind!, payload: payload! });
      expect(res.status).toBe(201);
      const pushed = await request(h.push.url).get(`/api/v2/pushes/${tokenOf(linkOf(res.text)!)}`);
      expect(pushed.body).toMatchObject({ kind, payload });
    }
  });

  it('refused input comes back as the form with the problems and what was typed; nothing is created', async () => {
    const before = await countPushes();
    const res = await submit({
      ...FORM,
      payload: 'keep me',
      expire_after_views: '0',
      passphrase: 'not echoed',
    });
    expect(res.status).toBe(422);
    expectPageHeaders(res);
    expect(res.text).toContain('role="alert"');
    expect(res.text).toMatch(/<a href="#expire_after_views">Views<\/a>/);
    expect(res.text).toMatch(
      /id="expire_after_views"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="expire_after_views"/s,
    );
    expect(res.text).toContain('keep me');
    expect(res.text).not.toContain('not echoed');
    const empty = await submit({ ...FORM, payload: '' });
    expect(empty.status).toBe(422);
    const file = await submit({ ...FORM, kind: 'file' });
    expect(file.status).toBe(422);
    expect(file.text).toContain('Choose what you want to share.');
    expect(await countPushes()).toBe(before);
  });

  it('a POST from another site is refused (CSRF) and creates nothing; so is one where anonymous creation is off', async () => {
    const before = await countPushes();
    const forged = await request(h.push.url)
      .post('/')
      .set('Sec-Fetch-Site', 'cross-site')
      .type('form')
      .send('kind=text&payload=forged&expire_after_days=1&expire_after_views=1');
    expect(forged.status).toBe(403);
    expect(forged.headers['content-type']).toMatch(/^text\/html/);
    expect(await countPushes()).toBe(before);

    const closedBefore = await countPushes(closed);
    const refused = await submit(FORM, closed.url);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('needs an account');
    expect(await countPushes(closed)).toBe(closedBefore);
  });
});
