import * as oidc from 'openid-client';
import { sql } from 'kysely';
import request from 'supertest';
import { captureLogs } from '@secret-push/testing';
import { createLogger } from '@secret-push/logger';
import { type TestAuth, type TestUser, type WebClientCredentials, startAuth } from '../testing';
import { Browser, type Page, formAction, hiddenInput } from './support/browser';

// The auth service as an OpenID provider, with openid-client 6 as the relying party (the push web
// app's role) and a cookie-keeping fetch as the browser. Everything is real: database, Redis,
// provider, login page. Every secret that crosses the wire is remembered, and the last test
// checks that none of them was ever logged.

const RP = 'http://127.0.0.1:3999';
const REDIRECT_URI = `${RP}/auth/callback`;
const POST_LOGOUT_URI = `${RP}/signed-out`;
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self' http://127.0.0.1:3999; " +
  "frame-ancestors 'none'; base-uri 'none'";

let auth: TestAuth;
let web: WebClientCredentials;
let rp: oidc.Configuration;
let alice: TestUser;
const logs = captureLogs();
const secrets: string[] = [];
const browsers: Browser[] = [];

beforeAll(async () => {
  auth = await startAuth({ logger: createLogger({ name: 'auth', level: 'debug' }, logs.stream) });
  web = await auth.createWebClient({
    name: 'Push web app',
    redirectUris: [REDIRECT_URI],
    postLogoutRedirectUris: [POST_LOGOUT_URI],
  });
  rp = await relyingParty(web);
  alice = await auth.createUser('Alice@Example.org', 'correct horse battery staple');
  secrets.push(alice.password, web.client_secret);
});
afterAll(() => auth.stop());

function relyingParty(client: { client_id: string; client_secret: string }): Promise<oidc.Configuration> {
  return oidc.discovery(
    new URL(auth.issuer),
    client.client_id,
    undefined,
    oidc.ClientSecretBasic(client.client_secret),
    {
      execute: [oidc.allowInsecureRequests],
    },
  );
}

function browser(headers?: Record<string, string>): Browser {
  const b = new Browser(headers);
  browsers.push(b);
  return b;
}

interface Started {
  verifier: string;
  state: string;
  /** The login page the authorization request led to (or wherever it led). */
  page: Page;
}

/** The RP's authorization request (code + PKCE S256), followed by the browser up to the login page. */
async function authorize(b: Browser, config = rp, extra: Record<string, string> = {}): Promise<Started> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...extra,
  });
  return { verifier, state, page: await b.follow(url, new URL(auth.issuer).origin) };
}

/** Submits the login form of `page` and follows the answer back to the application (or a page). */
async function login(
  b: Browser,
  page: Page,
  email: string,
  password: string,
  base = auth.issuer,
): Promise<Page> {
  const action = formAction(page.body)!;
  const csrf = hiddenInput(page.body, 'csrf')!;
  return b.follow('', new URL(auth.issuer).origin, b.post(new URL(action, base), { csrf, email, password }));
}

/** A whole sign-in: authorization request, login, token exchange. */
async function signIn(b: Browser, user: TestUser) {
  const started = await authorize(b);
  const back = await login(b, started.page, user.email, user.password);
  expect(back.status).toBe(303);
  const tokens = await oidc.authorizationCodeGrant(rp, new URL(back.location!), {
    pkceCodeVerifier: started.verifier,
    expectedState: started.state,
  });
  secrets.push(new URL(back.location!).searchParams.get('code')!, tokens.access_token, tokens.id_token!);
  secrets.push(tokens.refresh_token!);
  return tokens;
}

describe('discovery', () => {
  it('lists exactly what is supported: code + PKCE S256, the grants, scopes, userinfo and logout', async () => {
    const res = await request(auth.issuer).get('/.well-known/openid-configuration');
    expect(res.status).toBe(200);
    const i = auth.issuer;
    expect(res.body).toEqual({
      issuer: i,
      authorization_endpoint: `${i}/connect/authorize`,
      token_endpoint: `${i}/connect/token`,
      userinfo_endpoint: `${i}/connect/userinfo`,
      end_session_endpoint: `${i}/connect/endsession`,
      jwks_uri: `${i}/.well-known/jwks`,
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      response_types_supported: ['code'],
      response_modes_supported: ['form_post', 'fragment', 'query'],
      code_challenge_methods_supported: ['S256'],
      scopes_supported: ['pushes:read', 'pushes:write', 'openid', 'email'],
      claims_supported: ['sub', 'amr', 'email', 'email_verified', 'sid', 'auth_time', 'iss'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      authorization_response_iss_parameter_supported: true,
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      introspection_endpoint: `${i}/connect/introspect`,
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      revocation_endpoint: `${i}/connect/revocation`,
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      secret_push_accounts_endpoint: `${i}/accounts`,
      secret_push_account_page: `${i}/account`,
    });
    expect(oidc.ClientSecretBasic).toBeDefined();
    expect(rp.serverMetadata().supportsPKCE()).toBe(true);
  });
});

describe('sign-in with authorization code + PKCE', () => {
  it('authorize → login page → password → code → tokens → id token claims → userinfo → refresh', async () => {
    const b = browser();
    const { page, verifier, state } = await authorize(b);

    // The login page: our own, strict CSP, every field labelled, English, no third-party asset.
    expect(page.status).toBe(200);
    expect(page.url).toMatch(new RegExp(`^${auth.issuer}/interaction/[A-Za-z0-9_-]+$`));
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toBe(CSP);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.body).toContain('<html lang="en" dir="ltr">');
    expect(page.body).toContain('<label for="email">Email</label>');
    expect(page.body).toMatch(/<input\s+id="email"\s+name="email"\s+type="email"/);
    expect(page.body).toContain('<label for="password">Password</label>');
    expect(page.body).toMatch(/<input\s+id="password"\s+name="password"\s+type="password"/);
    expect(page.body).toContain('<button type="submit">Sign in</button>');
    expect(page.body).toContain('<strong>Push web app</strong>');
    expect(page.body).toMatch(/<link rel="stylesheet" href="\/static\/auth.css" \/>/);
    // One script, the served theme script (it shows the footer's theme button); nothing inline.
    expect(page.body).toContain('<script src="/static/theme.js"></script>');
    expect(page.body).not.toMatch(
      /<script(?! src="\/static\/theme\.js"><\/script>)|https?:\/\/(?!127\.0\.0\.1)/,
    );
    const css = await request(auth.issuer).get('/static/auth.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    // Cookies: named apart from the push service's, HttpOnly, SameSite=Lax, not Secure in test.
    expect(b.has('auth_interaction')).toBe(true);
    expect(b.has('auth_interaction_resume')).toBe(true);

    // The right password (the email as typed in any case): back to the application with a code.
    const back = await login(b, page, ' ALICE@example.org ', alice.password);
    expect(back.status).toBe(303);
    const callback = new URL(back.location!);
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('iss')).toBe(auth.issuer);
    expect(callback.searchParams.get('code')).toEqual(expect.any(String));
    expect(b.has('auth_session')).toBe(true);

    const tokens = await oidc.authorizationCodeGrant(rp, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    secrets.push(
      callback.searchParams.get('code')!,
      tokens.access_token,
      tokens.id_token!,
      tokens.refresh_token!,
    );
    expect(tokens.scope).toBe('openid email');
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(tokens.expiresIn()).toBeLessThanOrEqual(60);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({
      iss: auth.issuer,
      aud: web.client_id,
      sub: alice.id,
      email: 'alice@example.org',
      email_verified: true,
      amr: ['pwd'],
    });

    const userinfo = await oidc.fetchUserInfo(rp, tokens.access_token, alice.id);
    expect(userinfo).toEqual({ sub: alice.id, email: 'alice@example.org', email_verified: true });

    // The access token is for userinfo only: the push service cannot introspect it.
    const introspected = await request(auth.issuer)
      .post('/connect/introspect')
      .auth(auth.resourceServer.client_id, auth.resourceServer.client_secret)
      .type('form')
      .send({ token: tokens.access_token });
    expect(introspected.body).toEqual({ active: false });

    // Refresh rotates the refresh token; reusing the old one is refused (and revokes the grant).
    const refreshed = await oidc.refreshTokenGrant(rp, tokens.refresh_token!);
    secrets.push(refreshed.access_token, refreshed.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.claims()).toMatchObject({ sub: alice.id, email: 'alice@example.org' });
    await expect(oidc.refreshTokenGrant(rp, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(oidc.refreshTokenGrant(rp, refreshed.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('names its cookies auth_*, signed, HttpOnly, SameSite=Lax (not Secure in test), the session one for the browser session only', async () => {
    const url = oidc.buildAuthorizationUrl(rp, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    const res = await fetch(url, { redirect: 'manual' });
    const cookies = res.headers.getSetCookie();
    expect(cookies.map((c) => c.slice(0, c.indexOf('=')))).toEqual([
      'auth_interaction',
      'auth_interaction.sig',
      'auth_interaction_resume',
      'auth_interaction_resume.sig',
    ]);
    for (const cookie of cookies) {
      expect(cookie).toMatch(/; samesite=lax/);
      expect(cookie).toMatch(/; httponly/);
      expect(cookie).not.toMatch(/; secure/);
    }
    expect(cookies[0]).toMatch(/; path=\/interaction\/[A-Za-z0-9_-]+;/);
    expect(cookies[2]).toMatch(/; path=\/connect\/authorize\/[A-Za-z0-9_-]+;/);

    // The session cookie, set when the login completes: no expiry (closing the browser ends it).
    const b = browser();
    const { page } = await authorize(b);
    const posted = await b.post(new URL(formAction(page.body)!, auth.issuer), {
      csrf: hiddenInput(page.body, 'csrf')!,
      email: alice.email,
      password: alice.password,
    });
    const resume = await fetch(posted.location!, {
      redirect: 'manual',
      headers: {
        cookie: [...b.cookiesFor(new URL(posted.location!).pathname)].map(([n, v]) => `${n}=${v}`).join('; '),
      },
    });
    const session = resume.headers.getSetCookie().find((c) => c.startsWith('auth_session='))!;
    expect(session).toMatch(/; path=\/; samesite=lax; httponly$/);
  });

  it('signs a person in again without the login page while the session lasts', async () => {
    const b = browser();
    await signIn(b, alice);
    const again = await authorize(b);
    expect(again.page.status).toBe(303);
    expect(again.page.location).toMatch(new RegExp(`^${REDIRECT_URI}\\?code=`));
  });

  it('answers a wrong password 422 with the message and the email kept, never the password', async () => {
    const b = browser();
    const { page } = await authorize(b);
    const wrong = await login(b, page, 'alice@example.org', 'not her password at all');
    expect(wrong.status).toBe(422);
    expect(wrong.location).toBeUndefined();
    expect(wrong.headers.get('content-security-policy')).toBe(CSP);
    expect(wrong.body).toContain(
      '<p class="error" role="alert" id="login-error">Incorrect email or password.</p>',
    );
    expect(wrong.body).toContain('value="alice@example.org"');
    expect(wrong.body).not.toContain('not her password at all');
    expect(b.has('auth_session')).toBe(false);

    // The same page can still be used.
    const right = await login(b, wrong, 'alice@example.org', alice.password);
    expect(right.status).toBe(303);
    expect(right.location).toMatch(new RegExp(`^${REDIRECT_URI}\\?code=`));
  });

  it('answers an unknown email exactly like a wrong password, and escapes what was typed', async () => {
    const b = browser();
    const { page } = await authorize(b);
    const unknown = await login(b, page, '<b>"nobody"</b>@example.org', 'whatever password');
    expect(unknown.status).toBe(422);
    expect(unknown.body).toContain('Incorrect email or password.');
    expect(unknown.body).toContain('value="&lt;b&gt;&quot;nobody&quot;&lt;/b&gt;@example.org"');
    expect(unknown.body).not.toContain('<b>');
  });

  it('refuses a disabled user, ends their refresh tokens and userinfo, and asks their session to sign in again', async () => {
    const bob = await auth.createUser('bob@example.org');
    secrets.push(bob.password);
    const b = browser();
    const tokens = await signIn(b, bob);

    const disabled = await auth.cli('users', 'disable', 'bob@example.org');
    expect(disabled.code).toBe(0);

    await expect(oidc.refreshTokenGrant(rp, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(oidc.fetchUserInfo(rp, tokens.access_token, bob.id)).rejects.toBeInstanceOf(
      oidc.WWWAuthenticateChallengeError,
    );
    // The browser still holds the provider session: it gets the login page, not a code.
    const again = await authorize(b);
    expect(again.page.status).toBe(200);
    expect(again.page.body).toContain('<h1>Sign in</h1>');
    // …and the right password no longer signs in, in the same words as a wrong one.
    const refused = await login(b, again.page, bob.email, bob.password);
    expect(refused.status).toBe(422);
    expect(refused.body).toContain('Incorrect email or password.');

    expect((await auth.cli('users', 'enable', 'bob@example.org')).code).toBe(0);
    const back = await login(b, refused, bob.email, bob.password);
    expect(back.status).toBe(303);
    expect(back.location).toMatch(new RegExp(`^${REDIRECT_URI}\\?code=`));
  });
});

describe('an account with a second factor', () => {
  it('is not signed in by its password alone: the second step asks for a code', async () => {
    const dana = await auth.createUser('dana@example.org');
    secrets.push(dana.password);
    const sealed = auth.totpSecrets.seal(dana.id, 'JBSWY3DPEHPK3PXP');
    await sql`update account set totp_secret = ${sealed} where id = ${dana.id}`.execute(auth.db);
    const b = browser();
    const { page } = await authorize(b);
    const res = await login(b, page, dana.email, dana.password);
    expect(res.status).toBe(200);
    expect(res.location).toBeUndefined();
    expect(res.body).toContain('<h1>Two-factor authentication</h1>');
    expect(b.has('auth_session')).toBe(false);
  });
});

describe('a password reset', () => {
  it('ends every sign-in from before it: refresh, userinfo and the browser session', async () => {
    const carl = await auth.createUser('carl@example.org');
    secrets.push(carl.password);
    const b = browser();
    const tokens = await signIn(b, carl);
    // Sign-in times are whole seconds: the reset must come in a later second than the sign-in.
    await new Promise((r) => setTimeout(r, 1100));

    const reset = await auth.cli('users', 'reset-password', 'carl@example.org', '--json');
    expect(reset.code).toBe(0);
    const { password } = JSON.parse(reset.out) as { password: string };
    secrets.push(password);

    await expect(oidc.refreshTokenGrant(rp, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(oidc.fetchUserInfo(rp, tokens.access_token, carl.id)).rejects.toBeInstanceOf(
      oidc.WWWAuthenticateChallengeError,
    );
    const again = await authorize(b);
    expect(again.page.status).toBe(200);
    expect((await login(b, again.page, carl.email, carl.password)).status).toBe(422);
    const back = await login(b, again.page, carl.email, password);
    expect(back.status).toBe(303);
    const fresh = await oidc.authorizationCodeGrant(rp, new URL(back.location!), {
      pkceCodeVerifier: again.verifier,
      expectedState: again.state,
    });
    secrets.push(fresh.access_token, fresh.refresh_token!);
    expect(await oidc.fetchUserInfo(rp, fresh.access_token, carl.id)).toMatchObject({ sub: carl.id });
  });
});

describe('the login form is CSRF-protected', () => {
  it('refuses a POST without, or with a wrong, token (403), and nothing happens', async () => {
    const b = browser();
    const { page } = await authorize(b);
    const action = new URL(formAction(page.body)!, auth.issuer);
    const csrf = hiddenInput(page.body, 'csrf')!;
    const otherCsrf = hiddenInput((await authorize(browser())).page.body, 'csrf')!;

    const forms: Record<string, string>[] = [
      { email: alice.email, password: alice.password },
      { csrf: '', email: alice.email, password: alice.password },
      { csrf: `${csrf.slice(0, -2)}AA`, email: alice.email, password: alice.password },
      { csrf: otherCsrf, email: alice.email, password: alice.password },
    ];
    for (const form of forms) {
      const res = await b.post(action, form);
      expect(res.status).toBe(403);
      expect(res.location).toBeUndefined();
      expect(res.body).toContain('This form has expired or was not sent from its page.');
    }
    // Sent from another site, even with the right token.
    const foreign: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
    ];
    for (const headers of foreign) {
      const res = await b.post(action, { csrf, email: alice.email, password: alice.password }, headers);
      expect([headers, res.status]).toEqual([headers, 403]);
    }
    expect(b.has('auth_session')).toBe(false);

    // The interaction is untouched: the genuine form still works, from the page's own origin.
    const back = await b.follow(
      '',
      new URL(auth.issuer).origin,
      b.post(
        action,
        { csrf, email: alice.email, password: alice.password },
        { 'sec-fetch-site': 'same-origin' },
      ),
    );
    expect(back.status).toBe(303);
    expect(back.location).toMatch(new RegExp(`^${REDIRECT_URI}\\?code=`));
  });

  it('says a login page is expired when its interaction cookie is missing', async () => {
    const b = browser();
    const { page } = await authorize(b);
    const fresh = browser();
    const res = await fresh.get(page.url);
    expect(res.status).toBe(400);
    expect(res.body).toContain('This sign-in has expired.');
  });
});

describe('refused authorization requests', () => {
  it('refuses a request without PKCE, or with the plain method, back to the application', async () => {
    const b = browser();
    const state = oidc.randomState();
    const noPkce = oidc.buildAuthorizationUrl(rp, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid email',
      state,
    });
    const res = await b.get(noPkce);
    expect(res.status).toBe(303);
    const error = new URL(res.location!);
    expect(`${error.origin}${error.pathname}`).toBe(REDIRECT_URI);
    expect(error.searchParams.get('error')).toBe('invalid_request');
    expect(error.searchParams.get('error_description')).toMatch(/PKCE/);

    const plain = await b.get(
      oidc.buildAuthorizationUrl(rp, {
        redirect_uri: REDIRECT_URI,
        scope: 'openid email',
        state,
        code_challenge: oidc.randomPKCECodeVerifier(),
        code_challenge_method: 'plain',
      }),
    );
    expect(plain.status).toBe(303);
    expect(new URL(plain.location!).searchParams.get('error')).toBe('invalid_request');
    expect(new URL(plain.location!).searchParams.get('error_description')).toBe(
      'not supported value of code_challenge_method',
    );

    // And the token endpoint wants the verifier.
    const { page, state: s2 } = await authorize(b);
    const back = await login(b, page, alice.email, alice.password);
    const callback = new URL(back.location!);
    secrets.push(callback.searchParams.get('code')!);
    await expect(
      oidc.authorizationCodeGrant(rp, callback, {
        pkceCodeVerifier: oidc.randomPKCECodeVerifier(),
        expectedState: s2,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('does not let a client-credentials client start a sign-in, nor ask for a push-api resource', async () => {
    const machine = await auth.createClient('pushes:read');
    const config = await relyingParty(machine);
    const b = browser();
    const res = await b.get(
      oidc.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT_URI,
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      }),
    );
    expect(res.status).toBe(400);
    expect(res.location).toBeUndefined();
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.body).toContain('Sign-in request refused');

    // The web client cannot ask the authorization endpoint for a push-api token either.
    const withResource = await authorize(browser(), rp, { resource: 'urn:secret-push:push-api' });
    expect(new URL(withResource.page.location!).searchParams.get('error')).toBe('invalid_target');
  });

  it('refuses the login page to a client that is not first-party', async () => {
    const other = await auth.createWebClient({ name: 'Third party', redirectUris: [REDIRECT_URI] });
    await sql`update oidc_payload set payload = payload - 'urn:secret-push:first_party'
              where model = 'Client' and id = ${other.client_id}`.execute(auth.db);
    const { page } = await authorize(browser(), await relyingParty(other));
    expect(page.status).toBe(403);
    expect(page.body).toContain('This application is not allowed to use this sign-in page.');
  });
});

describe('RP-initiated logout', () => {
  it('asks, then ends the provider session and its refresh tokens, and goes back to the application', async () => {
    const b = browser();
    const tokens = await signIn(b, alice);

    const endSession = oidc.buildEndSessionUrl(rp, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: POST_LOGOUT_URI,
      state: 'bye',
    });
    const confirm = await b.get(endSession);
    expect(confirm.status).toBe(200);
    expect(confirm.headers.get('content-security-policy')).toBe(CSP);
    expect(confirm.headers.get('cache-control')).toMatch(/no-store/);
    expect(confirm.body).toContain('<h1>Sign out</h1>');
    expect(confirm.body).toContain('<strong>Push web app</strong> asks you to sign out.');
    const action = new URL(formAction(confirm.body)!, auth.issuer);
    expect(action.href).toBe(`${auth.issuer}/connect/endsession/confirm`);
    const xsrf = hiddenInput(confirm.body, 'xsrf')!;
    secrets.push(xsrf);

    // Forged confirmations change nothing.
    expect((await b.post(action, { xsrf, logout: 'yes' }, { 'sec-fetch-site': 'cross-site' })).status).toBe(
      403,
    );
    const wrongToken = await b.post(action, { xsrf: 'x'.repeat(48), logout: 'yes' });
    expect(wrongToken.status).toBe(403);
    expect(wrongToken.body).toContain('This sign-out form has expired or was not sent from its page.');

    const done = await b.post(action, { xsrf, logout: 'yes' });
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${POST_LOGOUT_URI}?state=bye`);
    expect(b.has('auth_session')).toBe(false);

    // The session is gone: the next sign-in shows the login page, and the refresh token is dead.
    const again = await authorize(b);
    expect(again.page.status).toBe(200);
    expect(again.page.body).toContain('<h1>Sign in</h1>');
    await expect(oidc.refreshTokenGrant(rp, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('ends on its own signed-out page without a post_logout_redirect_uri', async () => {
    const b = browser();
    await signIn(b, alice);
    const confirm = await b.get(`${auth.issuer}/connect/endsession`);
    const done = await b.follow(
      '',
      new URL(auth.issuer).origin,
      b.post(new URL(formAction(confirm.body)!, auth.issuer), {
        xsrf: hiddenInput(confirm.body, 'xsrf')!,
        logout: 'yes',
      }),
    );
    expect(done.status).toBe(200);
    expect(done.body).toContain('You are signed out.');
    expect(done.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
  });
});

describe('logs', () => {
  it('never contain a password, code, token, client secret or cookie value', () => {
    const text = logs.text();
    expect(text).toContain('"signed in"');
    expect(text).toContain('"sign-in refused: wrong email or password"');
    const values = [...secrets, ...browsers.flatMap((b) => b.cookieValuesSeen)].filter((v) => v.length >= 8);
    expect(values.length).toBeGreaterThan(20);
    for (const value of values) expect(text).not.toContain(value);
    expect(text).not.toContain('not her password at all');
  });
});
