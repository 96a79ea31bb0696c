import request from 'supertest';
import { sql } from 'kysely';
import { type Harness, createdToken, harness } from './support/helpers';

// People never see JSON (issue 29): which answers are pages and which the API's JSON is decided by
// the path (http/page-or-api.ts); and a link pasted with the sentence's punctuation still opens.
let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h.stop();
});

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

function expectPage(res: request.Response, status: number, text: string) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  const csp = res.headers['content-security-policy'] as string;
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  expect(res.text).toContain(text);
  expect(res.text).not.toMatch(/"error":|"code":/);
}

function expectJson(res: request.Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).toMatchObject({ code });
}

describe('404', () => {
  it.each([
    '/nope',
    '/p/',
    '/p',
    '/p/abc/extra/more',
    '/r.',
    '/pushes/abc/nope',
    '/users/nope',
    '/account/nope',
    '/requests/x/y/z',
    '/static/nope.js',
    '/respond/a/b/c',
    '/favicon.ico',
  ])('a path outside the API (%s) answers the HTML 404 page, whatever the client accepts', async (path) => {
    expectPage(await request(h.push.url).get(path), 404, 'Page not found');
    expectPage(await request(h.push.url).get(path).set('Accept', 'application/json'), 404, 'Page not found');
    expectPage(await request(h.push.url).post(path).type('form').send('a=1'), 404, 'Page not found');
  });

  it.each(['/api/v2/nope', '/api/nope', '/api', '/api/v2/pushes/abc/nope', '/metrics'])(
    'an API path (%s) keeps its JSON 404, even for a browser',
    async (path) => {
      expectJson(await request(h.push.url).get(path), 404, 'not_found');
      expectJson(await request(h.push.url).get(path).set('Accept', BROWSER_ACCEPT), 404, 'not_found');
    },
  );

  it('the API answers an unknown push in JSON; its page with the one "expired or does not exist" page', async () => {
    expectJson(await request(h.push.url).get('/api/v2/pushes/unknownToken'), 404, 'not_found');
    expectPage(await request(h.push.url).get('/p/unknownToken'), 404, 'has expired or does not exist');
  });

  it('a download link people open answers a page when the browser asks for HTML, JSON otherwise', async () => {
    const link = '/api/v2/files/00000000-0000-4000-8000-000000000000?push=x&view=1&expires=1&sig=x';
    // Without an object store the route is not mounted: the router's 404, the same split.
    const page = await request(h.push.url).get(link).set('Accept', BROWSER_ACCEPT);
    expectPage(page, 404, 'Page not found');
    expectJson(await request(h.push.url).get(link), 404, 'not_found');
  });
});

describe('500', () => {
  it('an unexpected error is a page on the pages and JSON on the API, neither with internals', async () => {
    const t = await createdToken(h.push.url, { payload: 'five hundred' });
    await sql`alter table push rename to push_hidden`.execute(h.push.db);
    try {
      const page = await request(h.push.url).get(`/p/${t}`);
      expectPage(page, 500, 'Something went wrong');
      expect(page.text).not.toMatch(/relation|push_hidden|stack/);
      const api = await request(h.push.url).get(`/api/v2/pushes/${t}`).set('Accept', BROWSER_ACCEPT);
      expectJson(api, 500, 'internal_error');
      expect(api.text).not.toMatch(/relation|push_hidden/);
    } finally {
      await sql`alter table push_hidden rename to push`.execute(h.push.db);
    }
    expect((await request(h.push.url).get(`/api/v2/pushes/${t}`)).body.payload).toBe('five hundred');
  });
});

describe('links with trailing punctuation', () => {
  it.each([
    '.',
    ',',
    ';',
    ':',
    '!',
    '%3F',
    ')',
    ']',
    "'",
    '"',
    '%22',
    '%27',
    '%20',
    '%0A',
    '%C2%A0',
    '.)',
    '%2E',
  ])('/p/TOKEN%s redirects (301) to the clean link, which opens the push', async (tail) => {
    const t = await createdToken(h.push.url, { payload: 'punctuated' });
    const res = await request(h.push.url).get(`/p/${t}${tail}`);
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe(`/p/${t}`);
    const open = await request(h.push.url).get(res.headers.location!);
    expect(open.status).toBe(200);
    expect(open.text).toContain('Someone shared a secret with you');
  });

  it('a trailing ? is an empty query string: the push opens as it is', async () => {
    const t = await createdToken(h.push.url, { payload: 'asked' });
    const res = await request(h.push.url).get(`/p/${t}?`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Someone shared a secret with you');
  });

  it('keeps the retrieval step, the query string and the other link kinds', async () => {
    const t = await createdToken(h.push.url, { payload: 'x' });
    const cases: [string, string][] = [
      [`/p/${t}/r.`, `/p/${t}/r`],
      [`/p/${t}.?utm=1`, `/p/${t}?utm=1`],
      [`/respond/${t}.`, `/respond/${t}`],
      [`/r/${t}!`, `/r/${t}`],
      [`/f/${t},`, `/f/${t}`],
    ];
    for (const [from, to] of cases) {
      const res = await request(h.push.url).get(from);
      expect([from, res.status, res.headers.location]).toEqual([from, 301, to]);
    }
  });

  it('never strips - or _ (part of a token), and leaves the API and posts alone', async () => {
    const t = await createdToken(h.push.url, { payload: 'x' });
    for (const tail of ['-', '_']) {
      expectPage(await request(h.push.url).get(`/p/${t}${tail}`), 404, 'has expired or does not exist');
    }
    expectJson(await request(h.push.url).get(`/api/v2/pushes/${t}.`), 404, 'not_found');
    const post = await request(h.push.url).post(`/p/${t}.`).type('form').send('reveal_id=x');
    expectPage(post, 404, 'has expired or does not exist');
  });
});
