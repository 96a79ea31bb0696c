import type { Request } from 'express';
import { HEALTH_PATHS } from '@secret-push/runtime';

/**
 * Who reads an error: a person (an HTML page) or a program (the API's JSON). Decided here, by the
 * path, for the whole app (docs/web-app.md, "Errors people see"):
 * - the API (`/api` and everything under it), the health endpoints and `/metrics`: JSON, always;
 * - but the download links under the API (`/api/v2/files/…`, a request's `/api/v2/requests/…/files/…`)
 *   are opened by people too: a page when the client asks for HTML first (a browser's navigation);
 * - everything else (the pages, and any unknown path outside the API): a page.
 */
const JSON_PATHS = new Set([...HEALTH_PATHS, '/metrics']);

/** The path of the request as it arrived (inside a router, `req.path` is relative to its mount). */
const fullPath = (req: Request): string => req.originalUrl.split('?', 1)[0] ?? '/';

export const isApiPath = (path: string): boolean =>
  path === '/api' || path.startsWith('/api/') || JSON_PATHS.has(path);

/** A download link people open: a file of a push (or all of them), or a request's attachment. */
export const isDownloadLinkPath = (path: string): boolean =>
  /^\/api\/v2\/files\/[^/]+$/.test(path) || /^\/api\/v2\/requests\/[^/]+\/files\/[^/]+$/.test(path);

/** True when this request's errors are answered with a page, false when with the API's JSON. */
export function answersWithPage(req: Request): boolean {
  const path = fullPath(req);
  if (!isApiPath(path)) return true;
  return isDownloadLinkPath(path) && req.accepts(['json', 'html']) === 'html';
}
