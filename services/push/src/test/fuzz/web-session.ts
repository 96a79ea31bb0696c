import type { TestAuth } from '@secret-push/auth/testing';
import { Browser } from '../support/browser';

/*
 * A person signed in to the web app, for the pages' inputs (the responder's pages check a
 * signed-in person's CSRF token; requests "answerable by users" take their answers): the push
 * service signs people in with the suite's auth service, as `make up` wires it (testing.ts
 * `startWebStack`), and one person signs in once at set-up through the provider's login form.
 */

/** The session cookie (as a `Cookie` header) and its CSRF token (the forms' `csrf` field). */
export interface SignedIn {
  cookie: string;
  csrf: string;
}

/** The web client at the auth service and a user: the push service's sign-in variables. */
export async function webSignIn(
  auth: TestAuth,
  pushUrl: string,
): Promise<{ env: Record<string, string>; user: { email: string; password: string } }> {
  const web = await auth.cli(
    'clients',
    'create-web',
    '--name',
    'secret-push fuzz',
    '--redirect-uri',
    `${pushUrl}/sign-in/callback`,
    '--post-logout-redirect-uri',
    `${pushUrl}/signed-out`,
    '--json',
  );
  if (web.code !== 0) throw new Error(`set-up: clients create-web failed: ${web.err}`);
  const client = JSON.parse(web.out) as { client_id: string; client_secret: string };
  const made = await auth.cli('users', 'create', '--email', 'fuzz-web@example.org', '--json');
  if (made.code !== 0) throw new Error(`set-up: users create failed: ${made.err}`);
  return {
    env: {
      PUSH_OIDC_ISSUER: auth.issuer,
      PUSH_OIDC_CLIENT_ID: client.client_id,
      PUSH_OIDC_CLIENT_SECRET: client.client_secret,
    },
    user: JSON.parse(made.out) as { email: string; password: string },
  };
}

/** Signs `user` in at the push service; its session cookie and CSRF token. */
export async function signInAs(
  pushUrl: string,
  auth: TestAuth,
  user: { email: string; password: string },
): Promise<SignedIn> {
  const b = new Browser();
  const landed = await b.signIn(pushUrl, auth.issuer, user);
  const csrf = /name="csrf" value="([^"]+)"/.exec(landed.body)?.[1];
  if (!csrf) throw new Error(`set-up: sign-in did not end on a page with a CSRF token (${landed.url})`);
  return { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '), csrf };
}
