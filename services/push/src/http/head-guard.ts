import type { RequestHandler } from 'express';
import { HttpError } from '@secret-push/http-kit';

/**
 * Express answers HEAD with the GET handler, minus the body. On a route whose GET consumes
 * something — a retrieval (a view), a download link or a requester's file (one of its downloads),
 * a recipient page or a responder's view (an audited opening) — that would spend it for a link
 * checker, a scanner or `curl -I` that sees nothing. Those routes answer HEAD with 405 and `Allow` instead, before any handler runs.
 */
const CONSUMING_GETS: { path: RegExp; allow: string }[] = [
  {
    path: /^\/api\/v2\/pushes\/(?!active(?:\.json)?\/?$|expired(?:\.json)?\/?$)[^/]+\/?$/i,
    allow: 'GET, DELETE',
  },
  { path: /^\/api\/v2\/files\/[^/]+\/?$/i, allow: 'GET' },
  { path: /^\/p\/[^/]+(?:\/r)?\/?$/i, allow: 'GET, POST' },
  // Requests (issue 28): the responder's view (an audited opening) and a requester's file (one of
  // its downloads), in the API and on the responder's page.
  { path: /^\/api\/v2\/requests\/[^/]+\/respond(?:\.json)?\/?$/i, allow: 'GET, POST, PATCH' },
  { path: /^\/api\/v2\/requests\/[^/]+\/files\/[^/]+\/?$/i, allow: 'GET' },
  { path: /^\/respond\/[^/]+\/?$/i, allow: 'GET, POST' },
  { path: /^\/respond\/[^/]+\/files\/[^/]+\/?$/i, allow: 'GET' },
];

export const refuseConsumingHead: RequestHandler = (req, res, next) => {
  if (req.method !== 'HEAD') return next();
  const match = CONSUMING_GETS.find((r) => r.path.test(req.path));
  if (!match) return next();
  res.set('Allow', match.allow);
  next(new HttpError(405, 'method_not_allowed', 'HEAD would use this link up: send GET.'));
};
