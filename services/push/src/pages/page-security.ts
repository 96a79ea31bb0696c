import type { RequestHandler, Response } from 'express';
import { type Html, imageSources } from '@secret-push/html';
import { HttpError } from '@secret-push/http-kit';

/** What a page's CSP allows on top of the common rules. */
export interface PageCspOptions {
  /** A URL push's page: forms may lead to http(s) (see {@link pageCsp}). */
  formLeavesSite?: boolean;
  /** The create form: its script sends the form to us with XMLHttpRequest (`connect-src 'self'`). */
  connectsToSelf?: boolean;
}

/**
 * The CSP of every page: our own stylesheet and script only, no inline code, images only from
 * us or `data:`, forms only to us, no connections from scripts (but the create form's, to us). A
 * URL push's page also allows forms to lead to http(s): its reveal answers with a 303 to the
 * target, and Chromium applies `form-action` to that redirect.
 */
export function pageCsp(options: PageCspOptions = {}): string {
  const { formLeavesSite = false, connectsToSelf = false } = options;
  return [
    "default-src 'none'",
    "script-src 'self'",
    ...(connectsToSelf ? ["connect-src 'self'"] : []),
    "style-src 'self'",
    `img-src ${imageSources()}`,
    `form-action 'self'${formLeavesSite ? ' http: https:' : ''}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** A 403 of a page route whose message is already in the page's language (shown as it is). */
export const pageRefusal = (message: string): HttpError =>
  new HttpError(403, 'forbidden', message, { extra: { pageText: true } });

/** Answers with a rendered page. */
export function sendPage(res: Response, status: number, page: Html): void {
  res.status(status).type('html').send(page.value);
}

/**
 * A field of a parsed urlencoded form as one string. A field sent more than once (a checkbox
 * after its hidden `false`) counts by its last value; anything else is absent.
 */
export function formField(body: unknown, name: string): string | undefined {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  const last = Array.isArray(value) ? (value as unknown[]).at(-1) : value;
  return typeof last === 'string' ? last : undefined;
}

/** Recipient pages are never cached or indexed and never leak their URL as a referrer. */
export function setPageHeaders(res: Response, options: PageCspOptions = {}): void {
  res.set({
    'Content-Security-Policy': pageCsp(options),
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Robots-Tag': 'noindex, nofollow',
  });
}

/**
 * CSRF guard of the page forms. They are anonymous actions (reveal, delete) with no session to
 * ride on, and forging one needs the url_token, which already allows both; still, another site
 * must not make a visitor's browser spend a view or delete a push. Rules, in order:
 * - `Sec-Fetch-Site` present (every current browser): it must be `same-origin`;
 * - otherwise an `Origin` other than `null` must be the public URL's or the request's own;
 * - otherwise the POST passes: clients without either header (curl, scripts) are not browsers
 *   acting for someone, and `Origin: null` is what our own pages send, because their
 *   `Referrer-Policy: no-referrer` makes browsers serialize the origin of a form POST as `null`.
 */
export function sameOriginPosts(publicUrl: string): RequestHandler {
  const publicOrigin = new URL(publicUrl).origin;
  return (req, _res, next) => {
    const site = req.get('sec-fetch-site');
    const origin = req.get('origin');
    const ownOrigin = `${req.protocol}://${req.get('host') ?? ''}`;
    const allowed =
      site !== undefined
        ? site === 'same-origin'
        : origin === undefined || origin === 'null' || origin === publicOrigin || origin === ownOrigin;
    if (!allowed) {
      return next(new HttpError(403, 'forbidden', 'This form can only be sent from its own page.'));
    }
    next();
  };
}
