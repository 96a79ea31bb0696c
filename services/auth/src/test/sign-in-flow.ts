import * as oidc from 'openid-client';
import type { TestAuth } from '../testing';
import { Browser, type Page, formAction, hiddenInput } from './browser';

/*
 * A relying party (openid-client) and the steps of a sign-in through the fetch browser, for the
 * second-factor and account-console tests.
 */

export const REDIRECT_URI = 'http://127.0.0.1:3999/auth/callback';

export async function relyingParty(auth: TestAuth): Promise<oidc.Configuration> {
  const web = await auth.createWebClient({ name: 'Push web app', redirectUris: [REDIRECT_URI] });
  return oidc.discovery(
    new URL(auth.issuer),
    web.client_id,
    undefined,
    oidc.ClientSecretBasic(web.client_secret),
    { execute: [oidc.allowInsecureRequests] },
  );
}

export interface Started {
  verifier: string;
  state: string;
  page: Page;
}

/** The RP's authorization request, followed up to the login page (or wherever it leads). */
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

/** Posts the (first) form of `page` with its csrf token and `fields`, to `base`, following redirects on the issuer. */
export function submit(
  auth: TestAuth,
  b: Browser,
  page: Page,
  fields: Record<string, string>,
  base = auth.issuer,
  headers?: Record<string, string>,
): Promise<Page> {
  const action = new URL(formAction(page.body)!, base);
  const form = { csrf: hiddenInput(page.body, 'csrf')!, ...fields };
  return b.follow('', new URL(auth.issuer).origin, b.post(action, form, headers));
}

/** The code exchanged for tokens, after a sign-in came back to the application. */
export function exchange(rp: oidc.Configuration, back: Page, started: Started) {
  return oidc.authorizationCodeGrant(rp, new URL(back.location!), {
    pkceCodeVerifier: started.verifier,
    expectedState: started.state,
  });
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
