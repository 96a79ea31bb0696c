import type { Request, Response } from 'express';
import { parseCookie } from 'cookie';
import { type Html, html } from '@secret-push/html';
import { t } from '@secret-push/i18n';

/*
 * "Confirm and tell": after an action, the page it returns to (Post/Redirect/Get) says what was
 * done, in a `role="status"` message. The message is carried by a short-lived cookie holding a
 * fixed key and the thing's name (never a secret, never a token); the page that shows it clears it
 * and writes the message in its own language. Only the texts below can be shown: the cookie
 * chooses one and names its subject.
 */

const COOKIE = 'sp_flash';
const SECONDS = 60;

/** The messages, by key, in the page's language; `name`: the thing's name as its owner gave it, if any. */
const TEXTS = {
  'push-expired': (name: string | null) => t('pages.flash.pushExpired', named(name)),
  'push-already-expired': (name: string | null) => t('pages.flash.pushAlreadyExpired', named(name)),
  'secret-expired': (name: string | null) => t('pages.flash.secretExpired', named(name)),
  'token-revoked': (name: string | null) => t('pages.flash.tokenRevoked', named(name)),
  'request-closed': (name: string | null) => t('pages.flash.requestClosed', named(name)),
} as const satisfies Record<string, (name: string | null) => string>;
export type FlashKey = keyof typeof TEXTS;

/** A message's values: `named` selects the sentence with the name ("Push “Vendor key” expired…") or without. */
function named(name: string | null): { named: 'yes' | 'no'; name: string } {
  return name ? { named: 'yes', name } : { named: 'no', name: '' };
}

/**
 * Sets the message the next page shows: `key` says what happened to what (`push-expired`:
 * "Push “Vendor key” expired…"), `name` is the thing's name (absent: "The push expired…").
 */
export function setFlash(
  res: Response,
  key: FlashKey,
  name: string | null | undefined,
  secure: boolean,
): void {
  res.cookie(COOKIE, JSON.stringify([key, name ? name.slice(0, 120) : null]), {
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
    const [key, name] = JSON.parse(raw) as unknown[];
    if (typeof key !== 'string' || !Object.hasOwn(TEXTS, key)) return undefined;
    if (name !== null && typeof name !== 'string') return undefined;
    return TEXTS[key as FlashKey](name);
  } catch {
    return undefined;
  }
}

/** The message on the page (announced: `role="status"`), or nothing. */
export const flashMessage = (text: string | undefined): Html =>
  text ? html`<p role="status" class="notice flash">${text}</p>` : html``;
