import * as oidc from 'openid-client';
import type { TestAuth } from '../../testing';
import { Browser, type Page, formAction, hiddenInput } from './browser';

/**
 * The relying party's side of a sign-in, for the tests of the accounts API, self sign-up, the second
 * factor and the account console: a web client registered with `clients create-web`,
 * openid-client 6 as the application, and the fetch-based browser of browser.ts.
 */

export const REDIRECT_URI = 'http://127.0.0.1:3999/auth/callback';

export interface RelyingParty {
  web: { client_id: string; client_secret: string };
  rp: oidc.Configuration;
}

export async function relyingParty(auth: TestAuth): Promise<RelyingParty> {
  const web = await auth.createWebClient({ name: 'Push web app', redirectUris: [REDIRECT_URI] });
  const rp = await oidc.discovery(
    new URL(auth.issuer),
    web.client_id,
    undefined,
    oidc.ClientSecretBasic(web.client_secret),
    { execute: [oidc.allowInsecureRequests] },
  );
  return { web, rp };
}

export interface Started {
  verifier: string;
  state: string;
  /** Where the authorization request led: the login page, or a redirect back to the application. */
  page: Page;
}

/** The application's authorization request (code + PKCE S256), followed up to the login page. */
export async function authorize(auth: TestAuth, rp: oidc.Configuration, b: Browser): Promise<Started> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(rp, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  return { verifier, state, page: await b.follow(url, new URL(auth.issuer).origin) };
}

/**
 * Posts the (first) form of `page` with `fields` and its CSRF token, to `base` (another replica's
 * URL, say), following redirects on the issuer.
 */
export function submit(
  auth: TestAuth,
  b: Browser,
  page: Page,
  fields: Record<string, string>,
  base = auth.issuer,
  headers?: Record<string, string>,
): Promise<Page> {
  const action = new URL(formAction(page.body)!, base);
  const csrf = hiddenInput(page.body, 'csrf')!;
  return b.follow('', new URL(auth.issuer).origin, b.post(action, { csrf, ...fields }, headers));
}

/** {@link submit} to the issuer, with extra request headers. */
export const submitForm = (
  auth: TestAuth,
  b: Browser,
  page: Page,
  fields: Record<string, string>,
  headers?: Record<string, string>,
): Promise<Page> => submit(auth, b, page, fields, auth.issuer, headers);

/** The code exchange of a sign-in that came back to the application (`back`: its 303). */
export function exchange(rp: oidc.Configuration, started: Started, back: Page) {
  return oidc.authorizationCodeGrant(rp, new URL(back.location!), {
    pkceCodeVerifier: started.verifier,
    expectedState: started.state,
  });
}

/** A whole sign-in with email and password: the tokens the application gets. */
export async function signIn(
  auth: TestAuth,
  { rp }: RelyingParty,
  b: Browser,
  user: { email: string; password: string },
) {
  const started = await authorize(auth, rp, b);
  const back = await submitForm(auth, b, started.page, { email: user.email, password: user.password });
  if (back.status !== 303) throw new Error(`sign-in failed: ${back.status}`);
  return exchange(rp, started, back);
}

/** The text of the element with `id` (the enrolment page's secret), without spaces. */
export function textOf(body: string, id: string): string | undefined {
  return new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(body)?.[1]?.replace(/\s+/g, '');
}

/** The recovery codes a page shows. */
export function recoveryCodesIn(body: string): string[] {
  return [...body.matchAll(/<li><code>([a-z2-7]{5}-[a-z2-7]{5})<\/code><\/li>/g)].map((m) => m[1]!);
}

export { Browser };
