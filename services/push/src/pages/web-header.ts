import type { Response } from 'express';
import { type Html, html } from '@secret-push/html';
import { webCallerOf } from '../session/web-session';

/** Who is looking, for the web app's header: `user` null when nobody is signed in. */
export interface WebHeader {
  signInEnabled: boolean;
  user: { email: string | null } | null;
  /** The session's CSRF token, for the sign-out form. */
  csrf?: string;
  /** Requests are on: "Request a secret" and "Your requests" for the signed-in. */
  requests?: boolean;
}

/**
 * The header for this request's caller (with the sign-out form's CSRF token); `undefined` when a
 * session cookie came but the session could not be read (the page answers 503).
 */
export function headerOf(res: Response, signInEnabled: boolean): WebHeader | undefined {
  const caller = webCallerOf(res);
  if (caller.kind === 'unavailable') return undefined;
  if (caller.kind === 'anonymous') return { signInEnabled, user: null };
  const requests = res.locals.requestPages === true;
  return { signInEnabled, user: { email: caller.session.email }, csrf: caller.session.csrf, requests };
}

/**
 * The web app's navigation: its pages, and sign-in or the signed-in person with sign-out. Views put
 * it first in their body; `layout` moves it into the page's `<header>`.
 */
export function webHeader(h: WebHeader | undefined): Html {
  if (!h) return html``;
  const account = h.user
    ? html`<a href="/pushes">Your pushes</a>
        ${h.requests ? html`<a href="/requests">Your requests</a>` : ''}
        <a href="/users/token">API tokens</a>
        <a href="/users/webhooks">Webhooks</a>
        <a href="/account">Account</a>
        <span class="who">Signed in as <strong>${h.user.email ?? 'you'}</strong></span>
        <form method="post" action="/sign-out" class="inline">
          ${h.csrf ? html`<input type="hidden" name="csrf" value="${h.csrf}" />` : ''}
          <button type="submit" class="link">Sign out</button>
        </form>`
    : h.signInEnabled
      ? html`<a href="/sign-in">Sign in</a>`
      : '';
  return html`<nav class="site-nav" aria-label="Site">
    <a href="/">Share a secret</a>
    ${h.user && h.requests ? html`<a href="/requests/new">Request a secret</a>` : ''} ${account}
  </nav>`;
}
