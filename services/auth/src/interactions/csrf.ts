import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';

/*
 * Two checks guard every form POST of the sign-in pages (login, second factor, enrolment, logout
 * confirmation) and of the account console:
 *
 * 1. A token in the form. A sign-in form's is an HMAC of the form's name (`purpose`) and the
 *    interaction's uid under the cookie keys: only this service can make it, it is good for that
 *    one form of that one interaction only, and the interaction itself is bound to the browser by
 *    its cookie. The account console's is the same HMAC of the provider session's id. (The logout
 *    form carries oidc-provider's own token, a random value kept in the session.)
 * 2. The request must come from our own pages: the browser's `Sec-Fetch-Site`, or `Origin` where
 *    there is no `Sec-Fetch-Site` (the same rule as the push service's page forms).
 */

const mac = (key: string, purpose: string, uid: string): Buffer =>
  createHmac('sha256', key).update(`${purpose}\u0000${uid}`).digest();

/** The CSRF token of form `purpose` for `uid` (an interaction or session), under the first (current) key. */
export function formToken(keys: readonly string[], purpose: string, uid: string): string {
  return mac(keys[0]!, purpose, uid).toString('base64url');
}

/** Whether `token` is the token of form `purpose` for `uid` under any of the keys (rotation). */
export function formTokenValid(
  keys: readonly string[],
  purpose: string,
  uid: string,
  token: unknown,
): boolean {
  if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(token)) return false;
  const given = Buffer.from(token, 'base64url');
  return keys.some((key) => timingSafeEqual(mac(key, purpose, uid), given));
}

/**
 * Whether a form POST was sent from one of our pages, in this order:
 * - `Sec-Fetch-Site` present (every current browser): it must be `same-origin`;
 * - otherwise an `Origin` other than `null` must be the issuer's or the request's own origin;
 * - otherwise it passes: a client sending neither is not a browser acting for someone, and
 *   `Origin: null` is what our own pages send (their `Referrer-Policy: no-referrer`).
 */
export function fromOwnPage(ctx: Context, issuerOrigin: string): boolean {
  const site = ctx.get('sec-fetch-site');
  if (site !== '') return site === 'same-origin';
  const origin = ctx.get('origin');
  // The request's own origin, spelled out: `ctx.origin` is not it in every koa version.
  const own = `${ctx.protocol}://${ctx.host}`;
  return origin === '' || origin === 'null' || origin === issuerOrigin || origin === own;
}
