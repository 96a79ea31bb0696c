import type { Response } from 'express';
import { type Html, html, rich } from '@secret-push/html';
import { t } from '@secret-push/i18n';
import { webCallerOf } from '../session/web-session';

/** Who is looking, for the web app's header: `user` null when nobody is signed in. */
export interface WebHeader {
  signInEnabled: boolean;
  user: { email: string | null } | null;
  /** The session's CSRF token, for the sign-out form. */
  csrf?: string;
  /** Requests are on: "Request a secret" and "Your requests" for the signed-in. */
  requests?: boolean;
  /** The page's path: its link in the navigation is marked `aria-current="page"`. */
  path?: string;
}

/**
 * The header for this request's caller (with the sign-out form's CSRF token); `undefined` when a
 * session cookie came but the session could not be read (the page answers 503).
 */
export function headerOf(res: Response, signInEnabled: boolean): WebHeader | undefined {
  const caller = webCallerOf(res);
  if (caller.kind === 'unavailable') return undefined;
  const path = res.req.path;
  if (caller.kind === 'anonymous') return { signInEnabled, user: null, path };
  const requests = res.locals.requestPages === true;
  const { email, csrf } = caller.session;
  return { signInEnabled, user: { email }, csrf, requests, path };
}

/** `html` under another name, so that prettier leaves the exact markup of a link alone. */
const exact = html;

/**
 * The web app's navigation: its pages, and sign-in or the signed-in person with sign-out. Views put
 * it first in their body; `layout` moves it into the page's `<header>`.
 */
export function webHeader(h: WebHeader | undefined): Html {
  if (!h) return html``;
  const link = (href: string, text: string) =>
    exact`<a href="${href}"${h.path === href ? exact` aria-current="page"` : ''}>${text}</a>`;
  const account = h.user
    ? html`${link('/pushes', t('nav.pushes'))} ${h.requests ? link('/requests', t('nav.requests')) : ''}
        ${link('/users/token', t('nav.tokens'))} ${link('/users/webhooks', t('nav.webhooks'))}
        ${link('/account', t('nav.account'))}
        <span class="who"
          >${h.user.email ? rich('nav.signedInAs', { email: h.user.email }) : rich('nav.signedInAsYou')}</span
        >
        <form method="post" action="/sign-out" class="inline">
          ${h.csrf ? html`<input type="hidden" name="csrf" value="${h.csrf}" />` : ''}
          <button type="submit" class="link">${t('nav.signOut')}</button>
        </form>`
    : h.signInEnabled
      ? html`<a href="/sign-in">${t('nav.signIn')}</a>`
      : '';
  return html`<nav class="site-nav" aria-label="${t('nav.label')}">
    ${link('/', t('nav.share'))} ${h.user && h.requests ? link('/requests/new', t('nav.request')) : ''}
    ${account}
  </nav>`;
}
