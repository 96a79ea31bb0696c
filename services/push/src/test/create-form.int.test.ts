import request from 'supertest';
import { sql } from 'kysely';
import { hashUrlToken } from '../security/url-token';
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

/** The create's 303 (Post/Redirect/Get) followed as a browser does, with its cookie. */
const cookieOf = (res: request.Response) =>
  (res.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
async function follow(res: request.Response, url = h.push.url) {
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/created');
  return request(url).get('/created').set('Cookie', cookieOf(res));
}

const linkOf = (page: string) => /id="link"[^>]*?value="([^"]+)"/.exec(page)?.[1];
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
        'duration-1h',
        'duration-custom',
        'expire_after_days',
        'views-1',
        'expire_after_views',
        'passphrase',
        'gen-password',
      ]),
    );
    for (const id of ids) expect(page).toContain(`<label for="${id}">`);
    // The form's presets and defaults (3 days, 2 views), not the API's (7 days, 5 views).
    for (const label of ['1 hour', '1 day', '3 days', '1 week', 'Custom', '1 view', '2 views', '5 views']) {
      expect(page).toContain(`">${label}</label>`);
    }
    expect(page).toMatch(/id="duration-3d"[^>]*value="3d"\s+checked/);
    expect(page).toMatch(/id="views-2"[^>]*value="2"\s+checked/);
    expect(page).toMatch(
      /<label for="expire_after_days">Number of days<\/label>\s*<p class="muted" id="expire_after_days-hint">\s*With Custom: 1 to 90\.\s*<\/p>/,
    );
    expect(page).toMatch(/id="expire_after_views-hint">\s*With Custom: 1 to 100\./);
    expect(page).toContain('<form method="post" action="/"');
  });

  it('says why there is no form where anonymous creation is off', async () => {
    const res = await request(closed.url).get('/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('needs an account');
    expect(res.text.replace(/<form method="post" action="\/language"[\s\S]*?<\/form>/g, '')).not.toContain(
      '<form',
    );
  });
});

describe('POST /', () => {
  it('creates a text push and shows its link once, with a QR code; the API serves it', async () => {
    const res = await follow(await submit(FORM));
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    const link = linkOf(res.text)!;
    expect(link).toMatch(new RegExp(`^${h.push.url}/p/[\\w-]{22}/r$`)); // click to reveal: checked
    expect(res.text).toContain('<svg');
    expect(res.text).toMatch(/opened 3 times, until <span class="when"\s*>in 2 days/);
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
    const plain = await follow(
      await submit({ ...FORM, retrieval_step: ['false'], passphrase: 'open sesame' }),
    );
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
      const res = await follow(await submit({ ...FORM, kind: kind!, payload: payload! }));
      expect(res.status).toBe(200);
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
    expect(res.text).toMatch(/<a href="#expire_after_views">Number of views<\/a>/);
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

const auditKinds = async (token: string) =>
  (
    await sql<{ kind: string }>`select a.kind from audit_entry a join push p on p.id = a.push_id
      where p.token_hash = ${hashUrlToken(token)} order by a.id`.execute(h.push.db)
  ).rows.map((r) => r.kind);

/** The form's own Idempotency-Key, as GET / (or a form that came back) carries it. */
const keyOf = (page: string) => /name="idempotency_key" value="([^"]+)"/.exec(page)?.[1];

describe('the passphrase after a form error', () => {
  it('is never echoed, is flagged, and the create does not go ahead without it', async () => {
    const before = await countPushes();
    const typed = { ...FORM, payload: 'needs a passphrase', passphrase: 'kept secret' };
    const refused = await submit({ ...typed, expire_after_days: '0' });
    expect(refused.status).toBe(422);
    expect(refused.text).not.toContain('kept secret');
    expect(refused.text).toContain('<input type="hidden" name="passphrase_required" value="true" />');
    expect(refused.text).toMatch(/<a href="#passphrase">Passphrase<\/a>:\s*Enter the passphrase again/);
    expect(refused.text).toMatch(/id="passphrase-error">Enter the passphrase again/);
    expect(refused.text).toMatch(/id="passphrase"[^>]*required/s);

    // Days fixed, the passphrase field left empty (as the page came back): refused, nothing made.
    const key = keyOf(refused.text)!;
    const { passphrase: _dropped, ...withoutPassphrase } = typed;
    const empty = await submit({ ...withoutPassphrase, passphrase_required: 'true', idempotency_key: key });
    expect(empty.status).toBe(422);
    expect(empty.text).toContain('Enter the passphrase again');
    expect(await countPushes()).toBe(before);

    // Typed again: created, and protected by it.
    const made = await follow(await submit({ ...typed, passphrase_required: 'true', idempotency_key: key }));
    const token = tokenOf(linkOf(made.text)!);
    expect((await request(h.push.url).get(`/api/v2/pushes/${token}`)).status).toBe(401);
    const opened = await request(h.push.url)
      .post(`/api/v2/pushes/${token}/reveal`)
      .send({ passphrase: 'kept secret' });
    expect(opened.body.payload).toBe('needs a passphrase');
    expect(await countPushes()).toBe(before + 1);
  });
});

describe('Post/Redirect/Get: nothing created twice', () => {
  it('GET / gives each form a random key of its own', async () => {
    const [a, b] = await Promise.all([request(h.push.url).get('/'), request(h.push.url).get('/')]);
    expect(keyOf(a.text)).toMatch(/^[\w-]{43}$/);
    expect(keyOf(a.text)).not.toBe(keyOf(b.text));
  });

  it('a resubmitted form and a reloaded created page show the same link and create nothing', async () => {
    const form = await request(h.push.url).get('/');
    const fields = { ...FORM, payload: 'only once', idempotency_key: keyOf(form.text)! };
    const before = await countPushes();
    const first = await submit(fields);
    const page = await follow(first);
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    const link = linkOf(page.text)!;
    expect(first.headers['set-cookie']![0]).toMatch(
      /^sp_created=[\w-]{43}; Max-Age=600; Path=\/created; .*HttpOnly; SameSite=Strict/,
    );

    // The browser's reload of the created page, twice, and a resubmission of the same form.
    for (let i = 0; i < 2; i++) {
      const again = await request(h.push.url).get('/created').set('Cookie', cookieOf(first));
      expect(linkOf(again.text)).toBe(link);
    }
    const resubmitted = await follow(await submit(fields));
    expect(linkOf(resubmitted.text)).toBe(link);
    expect(await countPushes()).toBe(before + 1);
    // Only the create is audited (and no view was used).
    expect(await auditKinds(tokenOf(link))).toEqual(['creation']);
    const got = await request(h.push.url).get(`/api/v2/pushes/${tokenOf(link)}`);
    expect(got.body).toMatchObject({ payload: 'only once', views_remaining: 2 });
  });

  it('the created page says the link is no longer shown without its cookie, from elsewhere, or later', async () => {
    const fields = {
      ...FORM,
      payload: 'shown a while',
      idempotency_key: keyOf((await request(h.push.url).get('/')).text)!,
    };
    const first = await submit(fields);
    expect((await follow(first)).status).toBe(200);
    const before = await countPushes();
    const noCookie = await request(h.push.url).get('/created');
    expect(noCookie.status).toBe(404);
    expect(noCookie.text).toContain('Link no longer shown');
    expect(noCookie.text).toContain('did not create another secret');
    expect(noCookie.text).not.toMatch(/\/p\/[\w-]{22}/);
    // The key's scope is the address that created (anonymous): from another one, nothing shows.
    await sql`update idempotency_key set scope = 'ip:198.51.100.7'
      where created_at > now() - interval '1 minute' and scope like 'ip:%'`.execute(h.push.db);
    const elsewhere = await request(h.push.url).get('/created').set('Cookie', cookieOf(first));
    expect(elsewhere.status).toBe(404);
    await sql`update idempotency_key set created_at = now() - interval '601 seconds'
      where created_at > now() - interval '1 minute'`.execute(h.push.db);
    const later = await request(h.push.url).get('/created').set('Cookie', cookieOf(first));
    expect(later.status).toBe(404);
    expect(linkOf(later.text)).toBeUndefined();
    expect(await countPushes()).toBe(before);
  });

  it('the same form changed and sent again comes back with a new key, then creates a second secret', async () => {
    const key = keyOf((await request(h.push.url).get('/')).text)!;
    expect((await submit({ ...FORM, payload: 'first', idempotency_key: key })).status).toBe(303);
    const before = await countPushes();
    const changed = await submit({ ...FORM, payload: 'changed', idempotency_key: key });
    expect(changed.status).toBe(422);
    expect(changed.text).toContain('This form already created a secret');
    expect(changed.text).toContain('changed');
    const fresh = keyOf(changed.text)!;
    expect(fresh).not.toBe(key);
    expect(await countPushes()).toBe(before);
    const second = await follow(await submit({ ...FORM, payload: 'changed', idempotency_key: fresh }));
    const got = await request(h.push.url).get(`/api/v2/pushes/${tokenOf(linkOf(second.text)!)}`);
    expect(got.body.payload).toBe('changed');
    expect(await countPushes()).toBe(before + 1);
  });

  it('refuses a form whose key is too short to be unguessable, creating nothing', async () => {
    const before = await countPushes();
    const res = await submit({ ...FORM, idempotency_key: 'short' });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(await countPushes()).toBe(before);
  });
});

describe('expiry presets and the password suggestion (no JavaScript needed)', () => {
  const PRESET = { ...FORM, expire_after_days: '', expire_after_views: '' };
  const expiryOf = async (res: request.Response) => {
    const got = await request(h.push.url).get(`/api/v2/pushes/${tokenOf(linkOf((await follow(res)).text)!)}`);
    return {
      seconds: (Date.parse(got.body.expires_at as string) - Date.now()) / 1000,
      views: got.body.expire_after_views as number,
      days: got.body.expire_after_days as number,
    };
  };

  it('a preset under a day (1 hour, 1 view) is the exact window; Custom takes the number fields', async () => {
    const hour = await expiryOf(await submit({ ...PRESET, duration: '1h', views: '1' }));
    expect(hour.seconds).toBeGreaterThan(3600 - 60);
    expect(hour.seconds).toBeLessThanOrEqual(3600);
    expect(hour).toMatchObject({ views: 1, days: 1 });

    const week = await expiryOf(
      await submit({ ...PRESET, duration: '1w', views: '5', expire_after_days: '30' }),
    );
    expect(Math.round(week.seconds / 86_400)).toBe(7); // the preset wins over a number typed for Custom
    expect(week).toMatchObject({ views: 5, days: 7 });

    const custom = await expiryOf(
      await submit({
        ...FORM,
        duration: 'custom',
        views: 'custom',
        expire_after_days: '4',
        expire_after_views: '7',
      }),
    );
    expect(custom).toMatchObject({ views: 7, days: 4 });
  });

  it('out of bounds or not offered: the form again with the problem and the choice kept, nothing created', async () => {
    const before = await countPushes();
    const far = await submit({
      ...FORM,
      payload: 'kept',
      duration: 'custom',
      views: '2',
      expire_after_days: '91',
    });
    expect(far.status).toBe(422);
    expect(far.text).toMatch(
      /<a href="#expire_after_days">Number of days<\/a>:\s*Enter a whole number from 1 to 90\./,
    );
    expect(far.text).toMatch(/id="duration-custom"[^>]*value="custom"\s+checked/);
    expect(far.text).toMatch(/id="expire_after_days"[^>]*value="91"/s);
    expect(far.text).toContain('kept');

    const blank = await submit({ ...PRESET, duration: '1d', views: 'custom' });
    expect(blank.status).toBe(422);
    expect(blank.text).toMatch(/<a href="#expire_after_views">Number of views<\/a>/);

    const odd = await submit({ ...PRESET, duration: '90d', views: '3' });
    expect(odd.status).toBe(422);
    expect(odd.text).toMatch(/<a href="#duration">Expires after<\/a>:\s*Choose how long the link works\./);
    expect(odd.text).toMatch(/<a href="#views">Views<\/a>:\s*Choose how many views it allows\./);
    expect(await countPushes()).toBe(before);
  });

  it('suggests a fresh password and passphrase in the page, to copy without JavaScript; none is sent with the form', async () => {
    const [a, b] = await Promise.all([request(h.push.url).get('/'), request(h.push.url).get('/')]);
    // The value as the browser reads it (the html tag escapes `&`).
    const password = (page: string) =>
      /id="gen-password" type="text" readonly value="([^"]*)"/.exec(page)?.[1]?.replaceAll('&amp;', '&');
    const phrase = (page: string) =>
      /id="gen-passphrase" type="text" readonly value="([^"]*)"/.exec(page)?.[1];
    expect(password(a.text)).toMatch(/^[A-Za-z2-9!#$%&*+\-=?@^_~]{20}$/);
    expect(password(a.text)).toMatch(/[A-Z]/);
    expect(password(a.text)).toMatch(/[!#$%&*+\-=?@^_~]/);
    expect(phrase(a.text)).toMatch(/^[a-z]+(-[a-z]+){5}$/);
    expect(password(a.text)).not.toBe(password(b.text));
    expect(phrase(a.text)).not.toBe(phrase(b.text));
    expect(a.text).toMatch(
      /<details class="generator" id="generator">\s*<summary>Generate a password<\/summary>/,
    );
    // The generator's fields have no name: the form sends none of them.
    expect(a.text).not.toMatch(/<input[^>]*id="gen-[^>]*name=/);
  });

  it('the operator sets the presets and the defaults (e.g. 1 day and 1 view)', async () => {
    const strict = await startPush(h.auth, {
      env: {
        PUSH_WEB_DURATION_PRESETS: '15m,1h,1d',
        PUSH_WEB_DEFAULT_DURATION: '1d',
        PUSH_WEB_VIEW_PRESETS: '1,3',
        PUSH_WEB_DEFAULT_VIEWS: '1',
      },
    });
    try {
      const page = (await request(strict.url).get('/')).text;
      expect(page).toMatch(/id="duration-1d"[^>]*value="1d"\s+checked/);
      expect(page).toMatch(/id="views-1"[^>]*value="1"\s+checked/);
      expect(page).toContain('">15 minutes</label>');
      expect(page).not.toContain('id="duration-3d"');
      const res = await submit({ ...PRESET, duration: '15m', views: '3' }, strict.url);
      const got = await request(strict.url).get(
        `/api/v2/pushes/${tokenOf(linkOf((await follow(res, strict.url)).text)!)}`,
      );
      expect((Date.parse(got.body.expires_at as string) - Date.now()) / 1000).toBeLessThanOrEqual(900);
      expect(got.body.expire_after_views).toBe(3);
      // The API's defaults are unchanged.
      const api = await request(strict.url)
        .post('/api/v2/pushes')
        .send({ push: { payload: 'api' } });
      expect(api.body).toMatchObject({ expire_after_days: 7, expire_after_views: 5 });
    } finally {
      await strict.stop();
    }
  });
});
