import { imageSources } from '@secret-push/html';

/**
 * A CSP source for a place a form on our pages may lead to: a form's answer that redirects (the
 * login's 303 back to the application's redirect_uri, the logout's to its
 * post_logout_redirect_uri) is checked against `form-action` by Chromium, redirect by redirect, so
 * those origins are listed next to 'self'. Only http(s) URLs; CSP cannot name an IPv6 literal, so
 * for one the scheme alone is allowed.
 */
export function formTarget(uri: string | undefined): string | undefined {
  if (uri === undefined) return undefined;
  const url = URL.parse(uri);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return undefined;
  return url.hostname.startsWith('[') ? url.protocol : url.origin;
}

/**
 * The CSP of every sign-in page: our own stylesheet and served scripts only, images only from us,
 * `data:` or the operator's logo URL, forms only to us (and where their answers redirect to: `formTarget`), never framed.
 */
export function pageCsp(formTargets: readonly (string | undefined)[] = []): string {
  const targets = [...new Set(formTargets.filter((t): t is string => t !== undefined))];
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${imageSources()}`,
    ["form-action 'self'", ...targets].join(' '),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** The headers of every sign-in page: never cached, never indexed, never a referrer. */
export function pageHeaders(formTargets: readonly (string | undefined)[] = []): Record<string, string> {
  return {
    'Content-Security-Policy': pageCsp(formTargets),
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Robots-Tag': 'noindex, nofollow',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
  };
}
