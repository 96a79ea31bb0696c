import { type Server, createServer } from 'node:http';
import { sql } from 'kysely';
import Provider, { type Configuration } from 'oidc-provider';
import { createLogger } from '@secret-push/logger';
import { type PrivateRedis, captureLogs, freePort, startPrivateRedis } from '@secret-push/testing';
import { type TestPush, startPush } from '../testing';
import { Browser } from './support/browser';
import { type Harness, harness } from './support/helpers';

/*
 * Sign-in to the web app against an OpenID provider started here (oidc-provider with its built-in
 * development login and consent pages): any standards-compliant issuer works by configuration
 * alone. The "browser" is fetch with manual redirects and a cookie jar shared by every port of
 * 127.0.0.1, as a browser's is.
 */

const logs = captureLogs();
let h: Harness;
let redis: PrivateRedis;
let push: TestPush;
let issuer: string;
let idp: Server;
const emails: Record<string, string> = { alice: 'alice@example.org', bob: 'bob@example.org' };
const disabledAtIdp = new Set<string>();

function providerConfig(pushUrl: string): Configuration {
  return {
    clients: [
      {
        client_id: 'push-web',
        client_secret: 'push-web-secret',
        redirect_uris: [`${pushUrl}/sign-in/callback`],
        post_logout_redirect_uris: [`${pushUrl}/signed-out`],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    ],
    pkce: { required: () => true },
    scopes: ['openid', 'email'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    findAccount: (_ctx, sub) =>
      disabledAtIdp.has(sub)
        ? undefined
        : {
            accountId: sub,
            claims: () => ({ sub, email: emails[sub] ?? `${sub}@example.org`, email_verified: true }),
          },
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
  };
}

beforeAll(async () => {
  h = await harness();
  redis = await startPrivateRedis();
  const port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  push = await startPush(h.auth, {
    logger: createLogger({ name: 'push', level: 'trace' }, logs.stream),
    env: {
      PUSH_REDIS_URL: redis.url,
      PUSH_OIDC_ISSUER: issuer,
      PUSH_OIDC_CLIENT_ID: 'push-web',
      PUSH_OIDC_CLIENT_SECRET: 'push-web-secret',
      PUSH_SESSION_RECHECK_SECONDS: '1',
      PUSH_PERSONAL_TOKEN_CACHE_SECONDS: '0',
    },
  });
  const provider = new Provider(issuer, providerConfig(push.url));
  const handle = provider.callback();
  idp = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => idp.listen(port, '127.0.0.1', resolve));
}, 60_000);
afterAll(async () => {
  idp?.closeAllConnections();
  await new Promise((r) => idp?.close(r));
  await push?.stop();
  await redis?.stop();
  await h?.stop();
});

const form = (b: Browser) => b.follow(`${push.url}/`);

describe('sign-in through an external OpenID provider', () => {
  it('signs in (PKCE, state, nonce), shows the email, creates pushes as the user, signs out at both ends', async () => {
    const b = new Browser();
    expect((await form(b)).body).toContain('<a href="/sign-in">Sign in</a>');
    const landed = await b.signIn(push.url, issuer, { login: 'alice', password: 'any' });
    expect(landed.url).toBe(`${push.url}/`);
    expect(landed.body).toContain('Signed in as <strong>alice@example.org</strong>');

    // The session cookie: its own name, HttpOnly, SameSite=Lax, not Secure on http:// (test).
    const cookie = b.setCookies.find((c) => c.startsWith('sp_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    // A browser-session cookie: no Max-Age or Expires (Redis ends the session).
    expect(cookie).not.toMatch(/Max-Age|Expires/i);

    // The form of a signed-in person carries the session's CSRF token (its first field).
    const formCsrf = /name="csrf" value="([^"]+)"/.exec(landed.body)![1]!;
    const withoutToken = await b.fetch(`${push.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'kind=text&payload=mine&expire_after_days=1&expire_after_views=1',
    });
    expect(withoutToken.status).toBe(403);
    const created = await b.fetch(`${push.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrf=${formCsrf}&kind=text&payload=mine&expire_after_days=1&expire_after_views=1`,
    });
    expect(created.status).toBe(303); // Post/Redirect/Get: the link is on /created
    const { rows } = await sql<{ owner: string; issuer: string; subject: string }>`
      select p.owner, u.issuer, u.subject from push p join app_user u on p.owner = 'user:' || u.id
      order by p.created_at desc limit 1`.execute(push.db);
    expect(rows[0]).toEqual({ owner: expect.stringMatching(/^user:/), issuer, subject: 'alice' });

    const csrf = /name="csrf" value="([^"]+)"/.exec((await form(b)).body)![1]!;
    const out = await b.fetch(`${push.url}/sign-out`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrf=${csrf}`,
    });
    // A page that sends the browser on to the provider's end-session endpoint (a meta refresh and
    // a link: a 303 there would be stopped by the page's form-action 'self'), coming back to /signed-out.
    expect(out.status).toBe(200);
    expect(out.headers.get('content-security-policy')).toContain("form-action 'self';");
    const page = await out.text();
    const endSession = /<meta http-equiv="refresh" content="0; url=([^"]+)"/
      .exec(page)![1]!
      .replaceAll('&amp;', '&');
    expect(page).toContain(`<a href="${endSession.replaceAll('&', '&amp;')}">`);
    expect(endSession).toMatch(new RegExp(`^${issuer}/session/end\\?`));
    expect(new URL(endSession).searchParams.get('post_logout_redirect_uri')).toBe(`${push.url}/signed-out`);
    expect(b.cookies.has('sp_session')).toBe(false);
    const signedOut = await b.follow(`${push.url}/signed-out`);
    expect(signedOut.res.status).toBe(200);
    expect(signedOut.body).toContain('You are signed out');
    expect(signedOut.res.headers.get('cache-control')).toBe('no-store');
    expect((await form(b)).body).toContain('<a href="/sign-in">Sign in</a>');

    // No session id, code, state or token in any log line.
    const callback = b.visited.find((u) => u.startsWith(`${push.url}/sign-in/callback?`))!;
    const params = new URL(callback).searchParams;
    const secrets = [b.setCookies.find((c) => c.startsWith('sp_session='))!.split(/[=;]/)[1]!];
    secrets.push(params.get('code')!, params.get('state')!);
    const text = logs.text();
    expect(text).toContain('/sign-in/callback');
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/refresh_token|id_token|"cookie"/i);
  }, 30_000);

  it('each sign-in is a new session id; a callback not begun by this browser, or replayed, is refused', async () => {
    const b = new Browser();
    await b.signIn(push.url, issuer, { login: 'alice', password: 'any' });
    const first = b.cookies.get('sp_session');
    await b.signIn(push.url, issuer, { login: 'alice', password: 'any' });
    expect(b.cookies.get('sp_session')).not.toBe(first);

    // Another browser begins; this one cannot finish it (no pending cookie of its own).
    const other = new Browser();
    const begun = await other.fetch(`${push.url}/sign-in`);
    const state = new URL(begun.headers.get('location')!).searchParams.get('state')!;
    const forged = await new Browser().fetch(`${push.url}/sign-in/callback?code=x&state=${state}`);
    expect(forged.status).toBe(400);

    // A callback replayed by the browser that made it: its sign-in was taken once.
    const c = new Browser();
    await c.signIn(push.url, issuer, { login: 'alice', password: 'any' });
    const callback = c.visited.find((u) => u.startsWith(`${push.url}/sign-in/callback?`))!;
    expect((await c.fetch(callback)).status).toBe(400);
  }, 30_000);

  it('the same email from two issuers are two users; a user disabled here or at the provider is signed out', async () => {
    const b = new Browser();
    await b.signIn(push.url, issuer, { login: 'bob', password: 'any' });
    const users = await sql<{ id: string; issuer: string }>`
      select id, issuer from app_user where email = 'bob@example.org'`.execute(push.db);
    expect(users.rows.map((u) => u.issuer)).toEqual([issuer]);
    // A user of another issuer with the same email (as the auth service would vouch for it).
    await sql`insert into app_user (issuer, subject, email, email_verified) values ('https://other.example', 'bob', 'bob@example.org', true)`.execute(
      push.db,
    );
    const both = await sql<{
      n: string;
    }>`select count(*) as n from app_user where email = 'bob@example.org'`.execute(push.db);
    expect(both.rows[0]!.n).toBe('2');

    // Disabled by the push operator: the next page after the re-check (1 s here) is signed out.
    const id = users.rows[0]!.id;
    expect((await push.cli('users', 'disable', id)).code).toBe(0);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await form(b)).body).toContain('<a href="/sign-in">Sign in</a>');
    expect((await push.cli('users', 'enable', id)).code).toBe(0);

    // Disabled at the provider: its refresh is refused, and that ends the session.
    await b.signIn(push.url, issuer, { login: 'bob', password: 'any' });
    expect((await form(b)).body).toContain('Signed in as');
    disabledAtIdp.add('bob');
    await new Promise((r) => setTimeout(r, 1100));
    expect((await form(b)).body).toContain('<a href="/sign-in">Sign in</a>');
    disabledAtIdp.delete('bob');
  }, 30_000);

  it('with Redis down, a signed-in page answers 503 while the anonymous form and retrieve keep working', async () => {
    const b = new Browser();
    await b.signIn(push.url, issuer, { login: 'alice', password: 'any' });
    await redis.stop();
    try {
      const signedIn = await b.fetch(`${push.url}/`);
      expect(signedIn.status).toBe(503);
      expect(await signedIn.text()).toContain('Your session cannot be read right now');
      const anonymous = await new Browser().fetch(`${push.url}/`);
      expect(anonymous.status).toBe(200);
    } finally {
      await redis.start();
    }
    // Back once the app's Redis client has reconnected (its backoff can take seconds on a busy
    // machine): the same session is readable again, and the next tests start from a working store.
    let status = 0;
    for (const started = Date.now(); Date.now() - started < 20_000;) {
      status = (await b.fetch(`${push.url}/`)).status;
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  }, 30_000);
});

describe('/users/token: personal API tokens of a signed-in person', () => {
  const csrfOf = (page: string) => /name="csrf" value="([^"]+)"/.exec(page)![1]!;
  const post = (b: Browser, path: string, body: Record<string, string | string[]>) =>
    b.fetch(`${push.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(
        Object.entries(body).flatMap(([k, v]) =>
          (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x]),
        ),
      ).toString(),
    });
  const valueOf = (page: string) => /id="new-token"[^>]*value="(spu_[^"]+)"/s.exec(page)?.[1];
  const api = (path: string, headers: Record<string, string>) =>
    fetch(`${push.url}/api/v2${path}`, { headers });

  it('sends nobody signed in to sign in', async () => {
    const res = await new Browser().fetch(`${push.url}/users/token`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/sign-in');
  });

  it('creates a token shown once, used over the API and the legacy headers; regenerate and revoke', async () => {
    const b = new Browser();
    await b.signIn(push.url, issuer, { login: 'carol', password: 'any' });
    const empty = await b.follow(`${push.url}/users/token`);
    expect(empty.body).toContain('You have no API tokens yet.');
    expect(empty.body).toContain('>Create token</button>');
    const csrf = csrfOf(empty.body);

    const created = await post(b, '/users/token', {
      csrf,
      name: '',
      scopes: ['pushes:read', 'pushes:write'],
    });
    expect(created.status).toBe(201);
    const page = await created.text();
    expect(page).toContain('<label for="new-token">Your new API token</label>');
    const value = valueOf(page)!;
    expect(value).toMatch(/^spu_[A-Za-z0-9_-]{43}$/);

    const bearer = { authorization: `Bearer ${value}` };
    expect((await api('/pushes/active', bearer)).status).toBe(200);
    const legacy = { 'x-user-email': 'carol@example.org', 'x-user-token': value };
    expect((await api('/pushes/active', legacy)).status).toBe(200);
    // The list shows the token, never its value.
    const listed = await b.follow(`${push.url}/users/token`);
    expect(listed.body).toContain('API token ');
    expect(listed.body).not.toContain(value);

    const id = /href="\/users\/token\/([0-9a-f-]{36})\/regenerate"/.exec(listed.body)![1]!;
    // Regenerate asks first, naming the token; the value still works until the form is sent.
    const ask = await b.follow(`${push.url}/users/token/${id}/regenerate`);
    expect(ask.body).toMatch(/<h1 class="question">Regenerate the token “API token [^”]+”\?<\/h1>/);
    expect((await api('/pushes/active', bearer)).status).toBe(200);
    const regenerated = await post(b, `/users/token/${id}/regenerate`, { csrf });
    const fresh = valueOf(await regenerated.text())!;
    expect(fresh).not.toBe(value);
    expect((await api('/pushes/active', bearer)).status).toBe(401);
    expect((await api('/pushes/active', { authorization: `Bearer ${fresh}` })).status).toBe(200);

    // Revoke asks first, naming the token (a GET that changes nothing); its form POSTs.
    expect(listed.body).toContain(`href="/users/token/${id}/revoke"`);
    const confirm = await b.follow(`${push.url}/users/token/${id}/revoke`);
    expect(confirm.body).toMatch(/<h1 class="question">Revoke the token “API token [^”]+”\?<\/h1>/);
    expect((await api('/pushes/active', { authorization: `Bearer ${fresh}` })).status).toBe(200);
    expect(
      (await b.fetch(`${push.url}/users/token/00000000-0000-4000-8000-000000000000/revoke`)).status,
    ).toBe(404);
    const revoked = await post(b, `/users/token/${id}/revoke`, { csrf });
    expect(revoked.status).toBe(303);
    expect((await api('/pushes/active', { authorization: `Bearer ${fresh}` })).status).toBe(401);
    const after = (await b.follow(`${push.url}/users/token`)).body;
    expect(after).toContain('You have no API tokens yet.');
    expect(after).toMatch(
      /<p role="status" class="notice flash">Token “API token [^”]+” revoked: it no longer works.<\/p>/,
    );
  }, 30_000);

  it('a read-only token cannot create; forms without the session token or from another site are refused', async () => {
    const b = new Browser();
    await b.signIn(push.url, issuer, { login: 'dave', password: 'any' });
    const csrf = csrfOf((await b.follow(`${push.url}/users/token`)).body);
    const ro = valueOf(
      await (await post(b, '/users/token', { csrf, name: 'ro', scopes: 'pushes:read' })).text(),
    )!;
    const create = await fetch(`${push.url}/api/v2/pushes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ro}`, 'content-type': 'application/json' },
      body: JSON.stringify({ push: { payload: 'x' } }),
    });
    expect(create.status).toBe(403);

    expect((await post(b, '/users/token', { name: 'no csrf', scopes: 'pushes:read' })).status).toBe(403);
    expect(
      (await post(b, '/users/token', { csrf: 'x'.repeat(43), name: 'bad', scopes: 'pushes:read' })).status,
    ).toBe(403);
    const crossSite = await fetch(`${push.url}/users/token`, {
      method: 'POST',
      headers: {
        cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'sec-fetch-site': 'cross-site',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: `csrf=${csrf}&name=forged&scopes=pushes:read`,
      redirect: 'manual',
    });
    expect(crossSite.status).toBe(403);
    const names = [
      ...(await b.follow(`${push.url}/users/token`)).body.matchAll(
        /<td data-label="Name"[^>]*>\s*([^<]+?)\s*<\/td>\s*<td data-label="Scopes">\s*pushes/g,
      ),
    ].map((m) => m[1]);
    expect(names).toEqual(['ro']);
    // Sign-out needs the session's token too.
    expect((await post(b, '/sign-out', {})).status).toBe(403);
    expect((await post(b, '/sign-out', { csrf })).status).toBe(200);
  }, 30_000);
});

describe('personal tokens of a user whose refresh the provider refuses (no accounts endpoint)', () => {
  it('stop within the re-check interval once a session re-check is refused, and work again after a sign-in', async () => {
    const b = new Browser();
    const landed = await b.signIn(push.url, issuer, { login: 'gina', password: 'any' });
    const csrf = /name="csrf" value="([^"]+)"/.exec(landed.body)![1]!;
    const made = await b.fetch(`${push.url}/users/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrf=${csrf}&name=ci&scopes=pushes:read`,
    });
    const token = /id="new-token"[^>]*value="(spu_[^"]+)"/s.exec(await made.text())![1]!;
    const api = () =>
      fetch(`${push.url}/api/v2/pushes/active`, { headers: { authorization: `Bearer ${token}` } });
    expect((await api()).status).toBe(200);

    // Gone at the provider: the session's next re-check is refused, and the token stops with it.
    disabledAtIdp.add('gina');
    try {
      await new Promise((r) => setTimeout(r, 1100));
      expect((await b.follow(`${push.url}/`)).body).toContain('<a href="/sign-in">Sign in</a>');
      await new Promise((r) => setTimeout(r, 1100)); // the token's user answer is reused 1 s here
      expect((await api()).status).toBe(401);
    } finally {
      disabledAtIdp.delete('gina');
    }
    // Vouched for again by a new sign-in: the token works again.
    await b.signIn(push.url, issuer, { login: 'gina', password: 'any' });
    await new Promise((r) => setTimeout(r, 1100));
    expect((await api()).status).toBe(200);
  }, 30_000);
});

describe('/pushes: a signed-in person sees, audits and expires only their own pushes', () => {
  const csrfOf = (page: string) => /name="csrf" value="([^"]+)"/.exec(page)![1]!;
  const createInForm = async (b: Browser, payload: string) => {
    const csrf = csrfOf((await b.follow(`${push.url}/`)).body);
    return b.follow(`${push.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrf=${csrf}&kind=text&payload=${payload}&expire_after_days=1&expire_after_views=3&retrieval_step=false`,
    });
  };
  const tokenOf = (page: string) => /id="link"[^>]*?value="[^"]*\/p\/([\w-]{22})"/.exec(page)![1]!;

  it('lists, audits and expires; Expire now after creating; another person gets not found', async () => {
    const erin = new Browser();
    await erin.signIn(push.url, issuer, { login: 'erin', password: 'any' });
    const created = await createInForm(erin, 'first');
    const createdPage = created.body;
    // Expire now leads to the confirmation (no state change), as the list's Expire does.
    expect(createdPage).toMatch(/href="\/pushes\/[\w-]{22}\/expire"\s*>Expire now<\/a>/);
    expect(createdPage).not.toContain('id="receipt"'); // the signed-in have /pushes, no receipt
    const first = tokenOf(createdPage);
    const second = tokenOf((await createInForm(erin, 'second')).body);
    await fetch(`${push.url}/api/v2/pushes/${first}`); // a view, for the audit log

    const list = await erin.follow(`${push.url}/pushes`);
    expect(list.res.status).toBe(200);
    expect(list.body).toContain(`/pushes/${first}/audit`);
    expect(list.body).toContain(`/pushes/${second}/audit`);
    const audit = await erin.follow(`${push.url}/pushes/${first}/audit`);
    expect(audit.body).toContain('Created');
    expect(audit.body).toContain('Viewed');

    // Another person: the same URLs are not found, and their list is empty.
    const frank = new Browser();
    await frank.signIn(push.url, issuer, { login: 'frank', password: 'any' });
    expect((await frank.fetch(`${push.url}/pushes/${first}/audit`)).status).toBe(404);
    const frankCsrf = csrfOf((await frank.follow(`${push.url}/pushes`)).body);
    const stolen = await frank.fetch(`${push.url}/pushes/${first}/expire`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrf=${frankCsrf}`,
    });
    expect(stolen.status).toBe(404);
    expect((await frank.fetch(`${push.url}/pushes/${first}/expire`)).status).toBe(404);
    expect((await frank.follow(`${push.url}/pushes`)).body).toContain('No active pushes');

    // Erin's Expire asks first (a GET that changes nothing), naming the push, then its form POSTs.
    expect(list.body).toContain(`href="/pushes/${first}/expire"`);
    const confirm = await erin.follow(`${push.url}/pushes/${first}/expire`);
    expect(confirm.res.status).toBe(200);
    expect(confirm.body).toContain('Expire this push?');
    expect(confirm.body).toContain(`action="/pushes/${first}/expire"`);
    expect((await erin.follow(`${push.url}/pushes`)).body).toContain(`/pushes/${first}/audit`);
    // Erin expires the first: it moves to the expired list, and the API no longer serves it.
    const csrf = csrfOf(list.body);
    const expired = await erin.fetch(`${push.url}/pushes/${first}/expire`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrf=${csrf}`,
    });
    expect(expired.status).toBe(303);
    expect(expired.headers.get('location')).toBe('/pushes');
    const told = await erin.follow(`${push.url}/pushes`);
    expect(told.body).not.toContain(`/pushes/${first}/audit`);
    // …and says so, once (announced: role="status"); a reload does not repeat it.
    expect(told.body).toContain(
      '<p role="status" class="notice flash">The push expired: nobody can open it any more.</p>',
    );
    expect((await erin.follow(`${push.url}/pushes`)).body).not.toContain('The push expired');
    expect((await erin.follow(`${push.url}/pushes?state=expired`)).body).toContain(`/pushes/${first}/audit`);
    expect(
      ((await (await fetch(`${push.url}/api/v2/pushes/${first}`)).json()) as { expired: boolean }).expired,
    ).toBe(true);
    // Without the session's token the button does nothing.
    const forged = await erin.fetch(`${push.url}/pushes/${second}/expire`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'csrf=nope',
    });
    expect(forged.status).toBe(403);

    // Signed out, /pushes sends to sign-in.
    await erin.fetch(`${push.url}/sign-out`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrf=${csrf}`,
    });
    const after = await erin.fetch(`${push.url}/pushes`);
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe('/sign-in');
  }, 30_000);
});
