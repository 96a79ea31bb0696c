import request from 'supertest';
import { sql } from 'kysely';
import { type Harness, bearer, createPush, createdToken, harness } from './support/helpers';

/** The language selector's return path is the requested path: the only part that may differ. */
const withoutReturnPath = (page: string) => page.replace(/name="back" value="[^"]*"/g, 'name="back"');

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h.stop();
});

/** views_remaining as the owner sees it, without using a view. */
async function viewsRemaining(t: string): Promise<number> {
  const res = await request(h.push.url).get('/api/v2/pushes/active').set(bearer(h.token));
  const item = (res.body as { url_token: string; views_remaining: number }[]).find((p) => p.url_token === t);
  if (!item) throw new Error('push not in the active list');
  return item.views_remaining;
}
const audit = async (t: string) =>
  (
    (await request(h.push.url).get(`/api/v2/pushes/${t}/audit`).set(bearer(h.token))).body.logs as {
      kind: string;
    }[]
  ).map((l) => l.kind);
const push = (fields: Record<string, unknown>) => createdToken(h.push.url, fields, h.token);
const reveal = (path: string, form: Record<string, string> = {}) =>
  request(h.push.url).post(path).type('form').send(form);

function expectPageHeaders(res: request.Response) {
  expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  const csp = res.headers['content-security-policy'] as string;
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("style-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe-inline');
}

const BOTS = [
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'Slack-ImgProxy (+https://api.slack.com/robots)',
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'Twitterbot/1.0',
  'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  'WhatsApp/2.23.20.0 A',
  'TelegramBot (like TwitterBot)',
  'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17029; Pro)',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Safari/537.36 Edg/120 (SafeLinks)',
  'Microsoft-Teams/1.0 SkypeUriPreview Preview/0.5',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0',
  'Mozilla/5.0 (compatible; Mimecast-URL-Protect)',
  'Proofpoint URL Defense',
  'Iframely/1.3.1 (+https://iframely.com/docs/about)',
  'Mozilla/5.0 (compatible; redditbot/1.0; +http://www.reddit.com/feedback)',
  'Mattermost-Bot/1.1',
  'curl/8.5.0',
];

describe('GET /p/:token and /p/:token/r', () => {
  it('shows the reveal form without the payload, uses no view and audits link_opened', async () => {
    const t = await push({ payload: 'never on the landing page', expire_after_views: 2 });
    for (const path of [`/p/${t}`, `/p/${t}/r`]) {
      const res = await request(h.push.url).get(path);
      expect(res.status).toBe(200);
      expectPageHeaders(res);
      expect(res.text).not.toContain('never on the landing page');
      expect(res.text).toContain(`<form method="post" action="/p/${t}"`);
      expect(res.text).toContain('Reveal the secret');
      expect(res.text).toContain('<meta name="viewport"');
      expect(res.text).toContain('<html lang="en" dir="ltr">');
    }
    expect(await viewsRemaining(t)).toBe(2);
    expect(await audit(t)).toEqual(['creation', 'link_opened', 'link_opened']);
  });

  it("says when it expires as the owner pages do: relative, then the exact time the times script shows in the viewer's zone", async () => {
    const t = await push({ payload: 'x', expire_after_views: 2, expire_after_days: 6 });
    const res = await request(h.push.url).get(`/p/${t}`);
    expect(res.text).toMatch(/opened 2 more times, and it expires\s+<span class="when"\s*>in 6 days\s/);
    expect(res.text).toMatch(
      /<time datetime="[^"]+Z" data-at="[^"]+Z" title="[^"]+ UTC"\s*>[A-Z][a-z]{2} \d{1,2}, \d{4}, \d\d:\d\d UTC<\/time/,
    );
    expect(res.text).toContain('<script src="/static/times.js" defer></script>');
    const revealed = await reveal(`/p/${t}`);
    expect(revealed.text).toMatch(/opened 1 more\s+time, and it expires\s+<span class="when"\s*>in 6 days\s/);
    expect(revealed.text).toContain('<script src="/static/times.js" defer></script>');
    const script = await request(h.push.url).get('/static/times.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
  });

  it('leaves views_remaining unchanged after 20 link unfurlers and mail scanners open both URLs', async () => {
    const t = await push({ payload: 'unfurl me not', expire_after_views: 1 });
    const html = (await createPush(h.push.url, { payload: 'x' })).body.html_url as string;
    expect(html).toMatch(/\/p\/[\w-]+\/r$/);
    expect(BOTS).toHaveLength(20);
    for (const ua of BOTS) {
      for (const path of [`/p/${t}`, `/p/${t}/r`]) {
        const res = await request(h.push.url).get(path).set('User-Agent', ua);
        expect(res.status).toBe(200);
        expect(res.text).not.toContain('unfurl me not');
      }
      await request(h.push.url).head(`/p/${t}`).set('User-Agent', ua);
    }
    expect(await viewsRemaining(t)).toBe(1);
    const kinds = await audit(t);
    expect(kinds.filter((k) => k === 'view')).toEqual([]);
    expect(kinds.filter((k) => k === 'link_opened').length).toBeGreaterThanOrEqual(40);
    const revealed = await reveal(`/p/${t}`);
    expect(revealed.text).toContain('unfurl me not');
  });

  it('submits itself on load only without a retrieval step, on /p/:token, and without a passphrase', async () => {
    const auto = await push({ payload: 'x', retrieval_step: false });
    const step = await push({ payload: 'x', retrieval_step: true });
    const guarded = await push({ payload: 'x', retrieval_step: false, passphrase: 'pw' });
    const autoSubmits = async (path: string) =>
      (await request(h.push.url).get(path)).text.includes('data-autosubmit');
    expect(await autoSubmits(`/p/${auto}`)).toBe(true);
    expect(await autoSubmits(`/p/${auto}/r`)).toBe(false);
    expect(await autoSubmits(`/p/${step}`)).toBe(false);
    expect(await autoSubmits(`/p/${step}/r`)).toBe(false);
    expect(await autoSubmits(`/p/${guarded}`)).toBe(false);
    const page = await request(h.push.url).get(`/p/${auto}`);
    expect(page.text).toContain('<script src="/static/pages.js" defer></script>');
    // No inline code: the only script without `src` is the data block of the scripts' texts (not run).
    expect(page.text).not.toMatch(/<script>|<script (?!src=|type="application\/json" id="sp-messages")/);
  });

  it('serves its stylesheet and script from its own origin', async () => {
    const css = await request(h.push.url).get('/static/pages.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    const js = await request(h.push.url).get('/static/pages.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
  });
});

describe('expired or unknown', () => {
  it('answers the same status and body for unknown, malformed, used-up, deleted and timed-out pushes', async () => {
    const used = await push({ payload: 'once', expire_after_views: 1 });
    expect((await reveal(`/p/${used}`)).status).toBe(200);
    const deleted = await push({ payload: 'x' });
    await request(h.push.url).delete(`/api/v2/pushes/${deleted}`).set(bearer(h.token)).expect(200);
    const timedOut = await push({ payload: 'x', expire_after_duration: 0 });
    await sql`update push set expires_at = now() - interval '1 second'
              where token_hash = sha256(convert_to(${timedOut}, 'UTF8'))`.execute(h.push.db);
    const paths = [
      '/p/AAAAAAAAAAAAAAAAAAAAAA',
      '/p/AAAAAAAAAAAAAAAAAAAAAA/r',
      '/p/not.a.token',
      `/p/${used}`,
      `/p/${used}/r`,
      `/p/${deleted}`,
      `/p/${timedOut}/r`,
    ];
    const pages = await Promise.all(paths.map((p) => request(h.push.url).get(p)));
    const reveals = await Promise.all(paths.map((p) => reveal(p)));
    for (const res of [...pages, ...reveals]) {
      expect(res.status).toBe(404);
      expectPageHeaders(res);
      expect(withoutReturnPath(res.text)).toBe(withoutReturnPath(pages[0]!.text));
    }
    expect(pages[0]!.text).toContain('This secret link has expired or does not exist');
    expect(await audit(used)).toEqual([
      'creation',
      'view',
      'expire_by_views',
      'link_opened',
      'link_opened',
      'failed_view',
      'failed_view',
    ]);
  });
});

describe('POST /p/:token (reveal)', () => {
  it('reveals an escaped payload, counts one view, offers copy and delete, and is not cached', async () => {
    const t = await push({ payload: '<script>alert("x")</script> & more', expire_after_views: 3 });
    const res = await reveal(`/p/${t}/r`);
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    expect(res.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more');
    expect(res.text).not.toContain('<script>alert');
    expect(res.text).toContain('data-copy="secret"');
    expect(res.text).toContain(`action="/p/${t}/delete"`);
    expect(res.text).toContain('2 more times');
    expect(await viewsRemaining(t)).toBe(2);
    expect(await audit(t)).toEqual(['creation', 'view']);
  });

  it('says so on the last view and offers no delete button then', async () => {
    const t = await push({ payload: 'last one', expire_after_views: 1 });
    const res = await reveal(`/p/${t}`);
    expect(res.text).toContain('last one');
    expect(res.text).toContain('That was the last view');
    expect(res.text).not.toContain('/delete');
  });

  it('offers no delete button when the push is not deletable by viewers, and refuses the POST', async () => {
    const t = await push({ payload: 'keep', deletable_by_viewer: false });
    const res = await reveal(`/p/${t}`);
    expect(res.text).not.toContain('/delete');
    const del = await reveal(`/p/${t}/delete`);
    expect(del.status).toBe(403);
    expectPageHeaders(del);
    expect(await viewsRemaining(t)).toBe(4);
  });

  it('deletes a viewer-deletable push from its page', async () => {
    const t = await push({ payload: 'delete me' });
    await reveal(`/p/${t}`);
    const del = await reveal(`/p/${t}/delete`);
    expect(del.status).toBe(200);
    expect(del.text).toContain('The secret has been deleted');
    expect((await request(h.push.url).get(`/p/${t}`)).status).toBe(404);
    const api = await request(h.push.url).get(`/api/v2/pushes/${t}/preview`);
    expect(api.status).toBe(200);
    expect(await audit(t)).toEqual(['creation', 'view', 'expire', 'link_opened']);
  });

  it('redirects a URL push to its target with 303 after the reveal', async () => {
    const target = 'https://example.test/landing?a=1&b=2';
    const t = await push({ kind: 'url', payload: target, retrieval_step: false });
    const page = await request(h.push.url).get(`/p/${t}`);
    expect(page.text).toContain('Open the link');
    expect(page.text).not.toContain('example.test');
    expect(page.headers['content-security-policy']).toContain("form-action 'self' http: https:");
    const res = await reveal(`/p/${t}`);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(target);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('renders a QR push as an SVG generated on the server', async () => {
    const t = await push({ kind: 'qr', payload: 'WIFI:T:WPA;S:office;P:hunter2;;' });
    const res = await reveal(`/p/${t}`);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(
      /<div class="qr" role="img" aria-label="QR code"><svg aria-hidden="true"[^>]*viewBox=/,
    );
    expect(res.text).toContain('<path');
    expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
  });
});

describe('passphrases on the pages', () => {
  it('asks for the passphrase with a labelled field, and tells a wrong one without using a view', async () => {
    const t = await push({ payload: 'guarded', passphrase: 'open sesame', expire_after_views: 2 });
    const page = await request(h.push.url).get(`/p/${t}/r`);
    expect(page.text).toContain('<label for="passphrase">Passphrase</label>');
    expect(page.text).toMatch(/<input\s+id="passphrase"\s+name="passphrase"\s+type="password"/);
    for (const form of [{}, { passphrase: '' }, { passphrase: 'wrong' }] as Record<string, string>[]) {
      const res = await reveal(`/p/${t}`, form);
      expect(res.status).toBe(401);
      expectPageHeaders(res);
      expect(res.text).toContain('That passphrase is incorrect');
      expect(res.text).toContain('role="alert"');
      expect(res.text).toContain('aria-invalid="true"');
      expect(res.text).not.toContain('guarded');
      expect(res.headers['www-authenticate']).toBeUndefined();
    }
    const ok = await reveal(`/p/${t}`, { passphrase: 'open sesame' });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('guarded');
    expect(await viewsRemaining(t)).toBe(1);
    expect(await audit(t)).toEqual([
      'creation',
      'link_opened',
      'failed_passphrase',
      'failed_passphrase',
      'failed_passphrase',
      'view',
    ]);
  });

  it('answers 429 with the wait once the attempts of the minute are spent, even for the right one', async () => {
    const t = await push({ payload: 'guarded', passphrase: 'open sesame' });
    for (let i = 0; i < 5; i++) {
      expect((await reveal(`/p/${t}`, { passphrase: `guess ${i}` })).status).toBe(401);
    }
    const res = await reveal(`/p/${t}`, { passphrase: 'open sesame' });
    expect(res.status).toBe(429);
    expectPageHeaders(res);
    const wait = Number(res.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(res.text).toContain(`Too many passphrase attempts. Please wait ${wait} seconds`);
    expect(res.text).not.toContain('>guarded<');
    expect(await viewsRemaining(t)).toBe(5);
  });

  it('still shows the one expired-or-unknown page to guesses over the limit once the push is gone', async () => {
    const t = await push({ payload: 'guarded', passphrase: 'open sesame', expire_after_views: 1 });
    expect((await reveal(`/p/${t}`, { passphrase: 'open sesame' })).status).toBe(200);
    const gone = withoutReturnPath((await request(h.push.url).get('/p/AAAAAAAAAAAAAAAAAAAAAA')).text);
    for (let i = 0; i < 6; i++) {
      const res = await reveal(`/p/${t}`, { passphrase: `guess ${i}` });
      expect(res.status).toBe(404);
      expect(withoutReturnPath(res.text)).toBe(gone);
    }
  });
});

describe('cross-site forms', () => {
  it('refuses reveal and delete POSTs from another origin or site, and spends nothing', async () => {
    const t = await push({ payload: 'not for evil.example', expire_after_views: 2 });
    const attempts = [
      reveal(`/p/${t}`).set('Origin', 'https://evil.example'),
      reveal(`/p/${t}`).set('Origin', 'null').set('Sec-Fetch-Site', 'cross-site'),
      reveal(`/p/${t}`).set('Origin', h.push.url).set('Sec-Fetch-Site', 'cross-site'),
      reveal(`/p/${t}`).set('Sec-Fetch-Site', 'cross-site'),
      reveal(`/p/${t}`).set('Sec-Fetch-Site', 'same-site'),
      reveal(`/p/${t}/delete`).set('Origin', 'https://evil.example'),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expectPageHeaders(res);
      expect(res.text).not.toContain('not for evil.example');
    }
    expect(await viewsRemaining(t)).toBe(2);
    // What our own no-referrer pages send: Origin null, Sec-Fetch-Site same-origin.
    const own = await reveal(`/p/${t}`).set('Origin', 'null').set('Sec-Fetch-Site', 'same-origin');
    expect(own.status).toBe(200);
    expect(own.text).toContain('not for evil.example');
    const older = await reveal(`/p/${t}`).set('Origin', h.push.url);
    expect(older.status).toBe(200);
  });
});

describe('legacy links', () => {
  it.each([
    ['/f/abc_DEF-123', '/p/abc_DEF-123'],
    ['/r/abc_DEF-123', '/p/abc_DEF-123'],
    ['/f/abc_DEF-123/r', '/p/abc_DEF-123/r'],
    ['/r/abc_DEF-123/r', '/p/abc_DEF-123/r'],
  ])('%s redirects to %s', async (from, to) => {
    const res = await request(h.push.url).get(from);
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe(to);
  });
});

describe('the general retrieve limit', () => {
  let limited: Harness;
  beforeAll(async () => {
    limited = await harness({ env: { PUSH_RATE_LIMIT_RETRIEVE_PER_MINUTE: '2' } });
  });
  afterAll(async () => {
    await limited.stop();
  });

  it('answers pages over the limit with a 429 page and Retry-After', async () => {
    const t = await createdToken(limited.push.url, { payload: 'x' }, limited.token);
    await request(limited.push.url).get(`/p/${t}`).expect(200);
    await request(limited.push.url).get(`/p/${t}/r`).expect(200);
    const res = await request(limited.push.url).get(`/p/${t}`);
    expect(res.status).toBe(429);
    expectPageHeaders(res);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.text).toMatch(/Please wait \d+ seconds and try again/);
  });
});
