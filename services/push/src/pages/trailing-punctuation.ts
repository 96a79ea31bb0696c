import type { RequestHandler } from 'express';

/** The links people paste into sentences: a push's, a request's responder page, the legacy ones. */
const LINK = /^\/(?:p|respond|r|f)\/[^/]/;
/** What a sentence leaves after a link; never `-` or `_`, which are part of a token. */
const TRAILING = /[.,;:!?)\]'"\s\u00a0]+$/u;

const decoded = (path: string): string | undefined => {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
};

/**
 * `…/p/TOKEN.` (or `,` `;` `:` `!` `?` `)` `]` `'` `"`, or whitespace, percent-encoded or not)
 * answers 301 to the link without them, so a link pasted with the sentence's full stop still opens
 * (GET and HEAD only; the forms post to clean URLs). The API's paths are not touched.
 */
export const tolerateTrailingPunctuation: RequestHandler = (req, res, next) => {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !LINK.test(req.path)) return next();
  const path = decoded(req.path);
  if (path === undefined || !TRAILING.test(path)) return next();
  const clean = path.replace(TRAILING, '');
  if (!LINK.test(clean)) return next();
  const query = req.url.indexOf('?');
  const search = query >= 0 ? req.url.slice(query) : '';
  res.redirect(301, `${clean.split('/').map(encodeURIComponent).join('/')}${search}`);
};
