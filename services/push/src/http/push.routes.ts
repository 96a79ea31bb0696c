import { type Request, type RequestHandler, type Response, Router } from 'express';
import { HttpError } from '@secret-push/http-kit';
import { PAGE_SIZE } from '../domain/push';
import { isValidRevealId } from '../domain/reveal-retry';
import { auditContext } from './audit-context';
import { need } from './context-guard';
import { requireScope, scopedPrincipal } from './bearer-auth';
import { type CreateRouteDeps, mountCreate } from './push-create.routes';
import { actorOf } from './principal';
import { presentAuditEntry, presentOwnedPush, presentPush } from './push.presenter';
import { parsePage } from './push.schemas';
import { acceptFormOrJson, readBody } from './request-body';

export interface PushRoutesDeps extends CreateRouteDeps {
  /** `lookup`: preview, audit and DELETE (PUSH_RATE_LIMIT_LOOKUP_PER_MINUTE). */
  rateLimits: { create: RequestHandler; retrieve: RequestHandler; lookup: RequestHandler };
}

/*
 * Each endpoint is a list of small named steps, cheap checks first (media type, rate limit,
 * the caller's rights) and expensive work after (body parsing, uploads, the database). Steps pass
 * what they produce on `res.locals` (declared in src/request-context.ts, read with `need`); errors go
 * to the error handler, which maps domain errors.
 */

const urlToken = (req: Request) => String(req.params.url_token);
const passphraseOf = (req: Request): string | undefined => {
  const q = req.query.passphrase;
  return typeof q === 'string' ? q : req.get('x-passphrase');
};

/** RFC 8288 `Link` with next/prev pages; `next` only when this page is full. */
export function setPageLinks(req: Request, res: Response, base: string, page: number, count: number): void {
  const url = (p: number) => `<${base}/api/v2${req.path}?page=${p}>`;
  const links: string[] = [];
  if (count === PAGE_SIZE && page < 200) links.push(`${url(page + 1)}; rel="next"`);
  if (page > 1) links.push(`${url(page - 1)}; rel="prev"`);
  if (links.length > 0) res.set('Link', links.join(', '));
}

export function pushRoutes(deps: PushRoutesDeps): Router {
  const { pushes, publicUrl } = deps;
  const router = Router();

  mountCreate(router, deps);

  // ---- GET /pushes/active, /pushes/expired
  const list =
    (state: 'active' | 'expired'): RequestHandler =>
    async (req, res) => {
      const page = parsePage(req.query.page);
      const items = await pushes.list(scopedPrincipal(res).id, state, page);
      setPageLinks(req, res, publicUrl, page, items.length);
      res.json(items.map((i) => presentOwnedPush(i.snapshot, i.urlToken, i.note, publicUrl)));
    };
  router.get('/pushes/active', requireScope('pushes:read'), list('active'));
  router.get('/pushes/expired', requireScope('pushes:read'), list('expired'));

  // ---- GET /pushes/:url_token, POST /pushes/:url_token/reveal (each uses a view; a repeat of a
  // reveal with the same Idempotency-Key within the window does not: domain/reveal-retry.ts)
  const passphraseFromBody: RequestHandler = (req, res, next) => {
    const given = (req.body as { passphrase?: unknown } | undefined)?.passphrase;
    if (given !== undefined && typeof given !== 'string') {
      return next(HttpError.validation({ passphrase: ['must be a string'] }));
    }
    res.locals.passphrase = given ?? passphraseOf(req) ?? null;
    next();
  };
  const passphraseFromRequest: RequestHandler = (req, res, next) => {
    res.locals.passphrase = passphraseOf(req) ?? null;
    next();
  };
  /** GET counts every call (no reveal id); a reveal's Idempotency-Key is its reveal id (32–255 visible ASCII). */
  const noRevealId: RequestHandler = (_req, res, next) => {
    res.locals.revealId = null;
    next();
  };
  const revealIdOf: RequestHandler = (req, res, next) => {
    const id = req.headers['idempotency-key'];
    if (id !== undefined && (typeof id !== 'string' || !isValidRevealId(id))) {
      return next(
        new HttpError(
          400,
          'bad_request',
          "A reveal's Idempotency-Key must be 32 to 255 visible ASCII characters (no spaces): use a random UUID.",
        ),
      );
    }
    res.locals.revealId = id ?? null;
    next();
  };
  const retrievePush: RequestHandler = async (req, res, next) => {
    const passphrase = need(res, 'passphrase') ?? undefined;
    const revealId = need(res, 'revealId') ?? undefined;
    res.locals.result = await pushes.retrieve(urlToken(req), passphrase, auditContext(req), revealId);
    next();
  };
  const presentRetrieval: RequestHandler = (req, res) => {
    const result = need(res, 'result');
    const body = presentPush(result.snapshot, urlToken(req), publicUrl);
    res.json(
      result.outcome === 'viewed'
        ? { ...body, payload: result.payload, files: result.files }
        : { ...body, payload: null, files: [] },
    );
  };
  router.get(
    '/pushes/:url_token',
    deps.rateLimits.retrieve,
    passphraseFromRequest,
    noRevealId,
    retrievePush,
    presentRetrieval,
  );
  router.post(
    '/pushes/:url_token/reveal',
    acceptFormOrJson,
    deps.rateLimits.retrieve,
    revealIdOf,
    ...readBody,
    passphraseFromBody,
    retrievePush,
    presentRetrieval,
  );

  // ---- GET /pushes/:url_token/preview (no view), /audit (owner)
  router.get('/pushes/:url_token/preview', deps.rateLimits.lookup, async (req, res) => {
    const snapshot = await pushes.preview(urlToken(req));
    res.json({ url: presentPush(snapshot, urlToken(req), publicUrl).html_url });
  });
  router.get(
    '/pushes/:url_token/audit',
    requireScope('pushes:read'),
    deps.rateLimits.lookup,
    async (req, res) => {
      const page = parsePage(req.query.page);
      const { entries, dropped } = await pushes.auditLog(urlToken(req), scopedPrincipal(res).id, page);
      setPageLinks(req, res, publicUrl, page, entries.length);
      res.json({ logs: entries.map(presentAuditEntry), dropped });
    },
  );

  // ---- DELETE /pushes/:url_token
  router.delete('/pushes/:url_token', deps.rateLimits.lookup, async (req, res) => {
    const actor = actorOf(need(res, 'principal'));
    const snapshot = await pushes.expire(urlToken(req), actor, auditContext(req));
    res.json(presentPush(snapshot, urlToken(req), publicUrl));
  });

  return router;
}
