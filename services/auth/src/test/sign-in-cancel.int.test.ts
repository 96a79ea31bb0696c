import * as oidc from 'openid-client';
import { type TestAuth, type WebClientCredentials, startAuth } from '../testing';
import { totpCodeAt } from '../users/totp';
import { Browser, type Page, formAction, hiddenInput } from './support/browser';
import { type TotpUser, userWithTotp } from './support/totp-user';

/*
 * "Cancel" on the sign-in pages, the application's display name, and the way back to the web app
 * (AUTH_APP_URL): the auth service for real (database, Redis, provider), openid-client as the
 * application, a cookie-keeping fetch as the browser.
 */

const RP = 'http://127.0.0.1:3998';
const REDIRECT_URI = `${RP}/sign-in/callback`;
const APP_URL = 'http://127.0.0.1:3998/';

let auth: TestAuth;
let web: WebClientCredentials;
let rp: oidc.Configuration;
let tina: TotpUser;

beforeAll(async () => {
  auth = await startAuth({ env: { AUTH_APP_URL: APP_URL, AUTH_APP_NAME: 'secret-push' } });
  web = await auth.createWebClient({ name: 'secret-push', redirectUris: [REDIRECT_URI] });
  rp = await oidc.discovery(
    new URL(auth.issuer),
    web.client_id,
    undefined,
    oidc.ClientSecretBasic(web.client_secret),
    { execute: [oidc.allowInsecureRequests] },
  );
  tina = await userWithTotp(auth, 'tina.cancel@example.org');
}, 60_000);
afterAll(() => auth?.stop());

const origin = () => new URL(auth.issuer).origin;

/** The application's authorization request, followed up to the login page. */
async function authorize(b: Browser): Promise<{ state: string; page: Page }> {
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(rp, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid email',
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
    state,
  });
  return { state, page: await b.follow(url, origin()) };
}

/** The Cancel form of a page: its action and its own token. */
function cancelForm(body: string): { action: string; csrf: string } {
  const form = /<form method="post" action="([^"]+\/cancel)" class="cancel">([\s\S]*?)<\/form>/.exec(body);
  expect(form).not.toBeNull();
  return { action: form![1]!, csrf: hiddenInput(form![2]!, 'csrf')! };
}

const post = (b: Browser, action: string, form: Record<string, string>) =>
  b.follow('', origin(), b.post(new URL(action, auth.issuer), form));

describe('Cancel', () => {
  it('on the login page: back to the application with access_denied and its state, nobody signed in', async () => {
    const b = new Browser();
    const { state, page } = await authorize(b);
    expect(page.status).toBe(200);
    // The application by its display name, never its client id.
    expect(page.body).toContain('to continue to <strong>secret-push</strong>');
    expect(page.body).not.toContain(web.client_id);
    const cancel = cancelForm(page.body);
    expect(cancel.csrf).not.toBe(hiddenInput(page.body, 'csrf'));

    const back = await post(b, cancel.action, { csrf: cancel.csrf });
    expect(back.status).toBe(303);
    const to = new URL(back.location!);
    expect(`${to.origin}${to.pathname}`).toBe(REDIRECT_URI);
    expect(to.searchParams.get('error')).toBe('access_denied');
    expect(to.searchParams.get('state')).toBe(state);
    expect(to.searchParams.get('code')).toBeNull();
    expect(b.has('auth_session')).toBe(false);

    // The sign-in is over: its page and its login form are gone.
    const again = await b.get(page.url);
    expect(again.status).toBe(400);
    expect(again.body).toContain('Sign-in expired');
  });

  it('refuses a Cancel without its own token (the login form’s is not it): 403, the sign-in goes on', async () => {
    const b = new Browser();
    const { page } = await authorize(b);
    const cancel = cancelForm(page.body);
    const loginToken = hiddenInput(page.body, 'csrf')!;
    for (const csrf of ['', loginToken]) {
      const refused = await post(b, cancel.action, { csrf });
      expect(refused.status).toBe(403);
    }
    const signedIn = await post(b, formAction(page.body)!, {
      csrf: loginToken,
      email: tina.email,
      password: tina.password,
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toContain('<h1>Two-factor authentication</h1>');
  });

  it('on the second-factor page too: the password that passed is forgotten', async () => {
    const b = new Browser();
    const { state, page } = await authorize(b);
    const second = await post(b, formAction(page.body)!, {
      csrf: hiddenInput(page.body, 'csrf')!,
      email: tina.email,
      password: tina.password,
    });
    expect(second.body).toContain('<h1>Two-factor authentication</h1>');
    expect(second.body).toMatch(/id="code"[^>]*inputmode="text"[^>]*pattern="/);
    const cancel = cancelForm(second.body);
    const back = await post(b, cancel.action, { csrf: cancel.csrf });
    const to = new URL(back.location!);
    expect(to.searchParams.get('error')).toBe('access_denied');
    expect(to.searchParams.get('state')).toBe(state);
    // A right code afterwards signs nobody in.
    const late = await post(b, formAction(second.body)!, {
      csrf: hiddenInput(second.body, 'csrf')!,
      code: totpCodeAt(tina.secret, Date.now()),
    });
    expect(late.status).toBe(400);
    expect(b.has('auth_session')).toBe(false);
  });

  it('of the account page’s own sign-in: a calm page with the way back to the web app', async () => {
    const b = new Browser();
    const login = await b.follow(`${auth.issuer}/account`, origin());
    expect(login.body).toContain('<h1>Sign in</h1>');
    const cancel = cancelForm(login.body);
    const end = await post(b, cancel.action, { csrf: cancel.csrf });
    expect(end.status).toBe(200);
    expect(end.url).toMatch(new RegExp(`^${auth.issuer}/account/callback\\?`));
    expect(end.body).toContain('<h1>Sign-in cancelled</h1>');
    expect(end.body).toContain(`<a href="${APP_URL}">Back to secret-push</a>`);
    expect(b.has('auth_session')).toBe(false);
  });
});

describe('the way back and the served files', () => {
  it('the account page links back to the web app (AUTH_APP_URL)', async () => {
    const b = new Browser();
    const login = await b.follow(`${auth.issuer}/account`, origin());
    const second = await post(b, formAction(login.body)!, {
      csrf: hiddenInput(login.body, 'csrf')!,
      email: tina.email,
      password: tina.password,
    });
    const account = await post(b, formAction(second.body)!, {
      csrf: hiddenInput(second.body, 'csrf')!,
      code: totpCodeAt(tina.secret, Date.now() + 30_000),
    });
    expect(account.status).toBe(200);
    expect(account.body).toContain('<h1>Your account</h1>');
    expect(account.body).toContain(`<a href="${APP_URL}">Back to secret-push</a>`);
  });

  it('serves the recovery codes script and the print stylesheet, nosniff', async () => {
    const b = new Browser();
    const script = await b.get(`${auth.issuer}/static/recovery-codes.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    expect(script.body).toContain('navigator.clipboard');
    const css = await b.get(`${auth.issuer}/static/auth.css`);
    expect(css.body).toContain('@media print');
  });
});
