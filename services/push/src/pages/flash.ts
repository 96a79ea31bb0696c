import type { Request, Response } from 'express';
import { parseCookie } from 'cookie';
import { type Html, html } from '@secret-push/html';

/*
 * "Confirm and tell": after an action, the page it returns to (Post/Redirect/Get) says what was
 * done, in a `role="status"` message. The message is carried by a short-lived cookie holding a
 * fixed key and the thing's name (never a secret, never a token); the page that shows it clears it.
 * Only the texts below can be shown: the cookie chooses one and names its subject.
 */

const COOKIE = 'sp_flash';
const SECONDS = 60;

/** The messages, by key; `name` is the thing's name as its owner gave it (or a generic one). */
const TEXTS = {
  'push-expired': (name: string) => `${name} expired: nobody can open it any more.`,
  'push-already-expired': (name: string) => `${name} had already expired.`,
  'token-revoked': (name: string) => `${name} revoked: it no longer works.`,
  'request-closed': (name: string) => `${name} closed: nobody can answer it any more.`,
} as const satisfies Record<string, (name: string) => string>;
export type FlashKey = keyof typeof TEXTS;

/** Sets the message the next page shows ("Push “Vendor key” expired…"). */
export function setFlash(res: Response, key: FlashKey, subject: string, secure: boolean): void {
  res.cookie(COOKIE, JSON.stringify([key, subject.slice(0, 120)]), {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: '/',
    maxAge: SECONDS * 1000,
  });
}

/** The message set by the action that led here, if any (cleared: a reload does not repeat it). */
export function takeFlash(req: Request, res: Response): string | undefined {
  const raw = parseCookie(req.headers.cookie ?? '')[COOKIE];
  if (raw === undefined) return undefined;
  res.clearCookie(COOKIE, { path: '/' });
  try {
    const [key, subject] = JSON.parse(raw) as unknown[];
    if (typeof key !== 'string' || typeof subject !== 'string' || !Object.hasOwn(TEXTS, key)) {
      return undefined;
    }
    return TEXTS[key as FlashKey](subject);
  } catch {
    return undefined;
  }
}

/** A push's, token's or request's name as the messages quote it. */
export const quoted = (what: string, name: string | null | undefined, fallback: string): string =>
  name ? `${what} “${name}”` : fallback;

/** The message on the page (announced: `role="status"`), or nothing. */
export const flashMessage = (text: string | undefined): Html =>
  text ? html`<p role="status" class="notice flash">${text}</p>` : html``;
