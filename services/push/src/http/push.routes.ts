import { type Request, type RequestHandler, type Response, Router } from 'express';
import { HttpError } from '@secret-push/http-kit';
import { NotDeletable } from '../domain/errors';
import type { PushService } from '../domain/push-service';
import type { FileService } from '../files/file-service';
import { auditContext } from './audit-context';
import { uploadsOf } from './file-upload';
import { principalOf, requireScope } from './bearer-auth';
import { presentAuditEntry, presentOwnedPush, presentPush } from './push.presenter';
import { type CreateRules, parseCreateBody, parsePage } from './push.schemas';
import { PAGE_SIZE } from '../storage/push.repository';

export interface PushRoutesDeps {
  pushes: PushService;
  publicUrl: string;
  rules: CreateRules;
  anonymousCreate: boolean;
  fileRequiresAuth: boolean;
  rateLimits: { create: RequestHandler; retrieve: RequestHandler };
  /** File pushes: the file service and the multipart upload parser; absent without an object store. */
  files?: { service: FileService; upload: RequestHandler };
}

/** RFC 8288 `Link` with next/prev pages; `next` only when this page is full. */
function setPageLinks(req: Request, res: Response, base: string, page: number, count: number): void {
  const url = (p: number) => `<${base}/api/v2${req.path}?page=${p}>`;
  const links: string[] = [];
  if (count === PAGE_SIZE && page < 200) links.push(`${url(page + 1)}; rel="next"`);
  if (page > 1) links.push(`${url(page - 1)}; rel="prev"`);
  if (links.length > 0) res.set('Link', links.join(', '));
}

const passphraseOf = (req: Request): string | undefined => {
  const q = req.query.passphrase;
  if (typeof q === 'string') return q;
  return req.get('x-passphrase');
};

export function pushRoutes(deps: PushRoutesDeps): Router {
  const { pushes, publicUrl } = deps;
  const router = Router();
  const token = (req: Request) => String(req.params.url_token);

  const noUploads: RequestHandler = (_req, _res, next) => next();
  const acceptBody = deps.files ? formJsonOrMultipart : formOrJson;

  router.post(
    '/pushes',
    acceptBody,
    deps.rateLimits.create,
    writeScopeIfAuthenticated,
    deps.files?.upload ?? noUploads,
    async (req, res) => {
      const uploaded = uploadsOf(req);
      try {
        const principal = principalOf(req);
        const input = parseCreateBody(withUploads(req.body, uploaded?.uploads.length), deps.rules);
        if (!principal && (!deps.anonymousCreate || (input.kind === 'file' && deps.fileRequiresAuth))) {
          throw new HttpError(401, 'unauthorized', 'You need to authenticate to create this push.', {
            headers: { 'WWW-Authenticate': 'Bearer realm="secret-push"' },
          });
        }
        if (input.kind !== 'file' && uploaded && uploaded.uploads.length > 0) {
          throw HttpError.validation({ files: [`A ${input.kind} push cannot carry files.`] });
        }
        const created = await pushes.create(input, principal?.id ?? null, auditContext(req), uploaded);
        res.status(201).json(presentOwnedPush(created.snapshot, created.urlToken, created.note, publicUrl));
      } catch (err) {
        await deps.files?.service.discard(uploaded?.uploads.map((u) => u.objectKey) ?? []);
        throw err;
      }
    },
  );

  router.get('/pushes/active', requireScope('pushes:read'), async (req, res) =>
    listHandler(req, res, 'active'),
  );
  router.get('/pushes/expired', requireScope('pushes:read'), async (req, res) =>
    listHandler(req, res, 'expired'),
  );

  async function listHandler(req: Request, res: Response, state: 'active' | 'expired') {
    const page = parsePage(req.query.page);
    const items = await pushes.list(principalOf(req)!.id, state, page);
    setPageLinks(req, res, publicUrl, page, items.length);
    res.json(items.map((i) => presentOwnedPush(i.snapshot, i.urlToken, i.note, publicUrl)));
  }

  async function retrieve(req: Request, res: Response, passphrase: string | undefined) {
    const result = await pushes.retrieve(token(req), passphrase, auditContext(req));
    const body = presentPush(result.snapshot, token(req), publicUrl);
    res.json(
      result.outcome === 'viewed'
        ? { ...body, payload: result.payload, files: result.files }
        : { ...body, payload: null, files: [] },
    );
  }

  router.get('/pushes/:url_token', deps.rateLimits.retrieve, (req, res) =>
    retrieve(req, res, passphraseOf(req)),
  );
  router.post('/pushes/:url_token/reveal', formOrJson, deps.rateLimits.retrieve, async (req, res) => {
    const given = (req.body as { passphrase?: unknown } | undefined)?.passphrase;
    if (given !== undefined && typeof given !== 'string') {
      throw HttpError.validation({ passphrase: ['must be a string'] });
    }
    await retrieve(req, res, given ?? passphraseOf(req));
  });

  router.get('/pushes/:url_token/preview', async (req, res) => {
    const snapshot = await pushes.preview(token(req));
    res.json({ url: presentPush(snapshot, token(req), publicUrl).html_url });
  });

  router.get('/pushes/:url_token/audit', requireScope('pushes:read'), async (req, res) => {
    const page = parsePage(req.query.page);
    const entries = await pushes.auditLog(token(req), principalOf(req)!.id, page);
    setPageLinks(req, res, publicUrl, page, entries.length);
    res.json({ logs: entries.map(presentAuditEntry) });
  });

  router.delete('/pushes/:url_token', async (req, res, next) => {
    const principal = principalOf(req);
    const owner = principal?.scopes.has('pushes:write') ? principal.id : undefined;
    try {
      const snapshot = await pushes.expire(token(req), owner, auditContext(req), principal !== undefined);
      res.json(presentPush(snapshot, token(req), publicUrl));
    } catch (err) {
      // The owner, refused only for want of pushes:write, is told which scope is missing.
      if (err instanceof NotDeletable && principal && !owner) {
        const { push } = await pushes.preview(token(req));
        if (push.owner === principal.id) {
          requireScope('pushes:write')(req, res, next);
          return;
        }
      }
      throw err;
    }
  });

  return router;
}

/** Create and reveal take JSON or form bodies (multipart arrives with file pushes); anything else is 415. */
const formOrJson: RequestHandler = (req, _res, next) => {
  const hasBody =
    req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (!hasBody || req.is(['application/json', 'application/x-www-form-urlencoded'])) return next();
  const multipart = req.is('multipart/form-data');
  next(
    new HttpError(
      415,
      'unsupported_media_type',
      multipart
        ? 'multipart/form-data is for file pushes, which are disabled on this instance.'
        : 'Send the body as application/json or application/x-www-form-urlencoded.',
    ),
  );
};

/** With an object store, multipart forms carry file pushes (parsed by the upload handler). */
const formJsonOrMultipart: RequestHandler = (req, res, next) =>
  req.is('multipart/form-data') ? next() : formOrJson(req, res, next);

/**
 * The create body as the schema reads it. Files arrive only as multipart parts; a `files` value in
 * JSON or a urlencoded form cannot carry any, so it is refused unless empty (it still marks a file push).
 */
function withUploads(body: unknown, uploadCount: number | undefined): unknown {
  const given = (body as { push?: unknown } | undefined)?.push;
  // A form whose only `push[…]` parts are files still carries a push.
  const push = given === undefined && uploadCount ? {} : given;
  if (push === null || typeof push !== 'object' || Array.isArray(push)) return body;
  const { files, ...rest } = push as Record<string, unknown>;
  if (uploadCount !== undefined) return { push: { ...rest, ...(uploadCount > 0 ? { files: [] } : {}) } };
  if (files !== undefined && !(Array.isArray(files) && files.length === 0) && files !== '') {
    throw HttpError.validation({
      files: ['Files must be uploaded as multipart/form-data parts named push[files][].'],
    });
  }
  return body;
}

/** Anonymous creation is decided after parsing; a token, though, must carry pushes:write. */
const writeScopeIfAuthenticated: RequestHandler = (req, res, next) =>
  principalOf(req) ? requireScope('pushes:write')(req, res, next) : next();
