import { isUtf8 } from 'node:buffer';
import express, {
  type ErrorRequestHandler,
  type Request,
  type RequestHandler,
  type Response,
  Router,
} from 'express';
import { HttpError } from '@secret-push/http-kit';
import { type CreateFeatures, mayCreate } from '../domain/create-policy';
import type { FileService } from '../domain/file-service';
import { type NewPush, PAGE_SIZE } from '../domain/push';
import { idempotencyScope, isValidIdempotencyKey } from '../domain/idempotency';
import type { CreatedPush, PushService, RetrieveResult } from '../domain/push-service';
import { auditContext } from './audit-context';
import { principalOf, requireScope, tokensOnlyInHeader } from './bearer-auth';
import { createRefusal } from './error-map';
import { discardStored, uploadsOf } from './file-upload';
import { presentAuditEntry, presentOwnedPush, presentPush } from './push.presenter';
import { type CreateRules, MAX_BODY_BYTES, parseCreateBody, parsePage } from './push.schemas';

export interface PushRoutesDeps {
  pushes: PushService;
  publicUrl: string;
  rules: CreateRules;
  features: CreateFeatures;
  rateLimits: { create: RequestHandler; retrieve: RequestHandler };
  /** File pushes: the file service and the multipart upload parser; absent without an object store. */
  files?: { service: FileService; upload: RequestHandler };
}

/*
 * Each endpoint is a list of small named steps, cheap checks first (media type, rate limit,
 * the caller's rights) and expensive work after (body parsing, uploads, the database). Steps pass
 * what they produce on `res.locals`; errors go to the error handler, which maps domain errors.
 */

/**
 * JSON is UTF-8 (RFC 8259 §8.1): another declared charset is a 415 before the body is read, and
 * bytes that are not UTF-8 are a 400 (body-parser would otherwise decode them as U+FFFD).
 * The check is native and runs once over the raw body, which the limit already bounds.
 */
const parseJson = express.json({
  limit: MAX_BODY_BYTES,
  verify: (_req, _res, body: Buffer) => {
    if (!isUtf8(body)) {
      throw Object.assign(new Error('The request body is not valid UTF-8.'), {
        status: 400,
        type: 'encoding.invalid',
      });
    }
  },
});
const parseForm = express.urlencoded({ extended: true, limit: MAX_BODY_BYTES });

/** The `charset` parameter of the Content-Type, lower-cased; undefined when none is given. */
function declaredCharset(req: Request): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(req.headers['content-type'] ?? '');
  return match ? (match[1] ?? match[2] ?? '').toLowerCase() : undefined;
}

const jsonCharsetIsUtf8: RequestHandler = (req, _res, next) => {
  const charset = req.is('application/json') ? declaredCharset(req) : undefined;
  if (charset === undefined || charset === 'utf-8') return next();
  next(new HttpError(415, 'unsupported_media_type', 'Send JSON bodies as UTF-8 (charset=utf-8).'));
};

const urlToken = (req: Request) => String(req.params.url_token);
const passphraseOf = (req: Request): string | undefined => {
  const q = req.query.passphrase;
  return typeof q === 'string' ? q : req.get('x-passphrase');
};

/** Create and reveal take JSON or form bodies (multipart arrives with file pushes); anything else is 415. */
const acceptFormOrJson: RequestHandler = (req, _res, next) => {
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

/** With an object store, multipart forms carry file pushes (parsed by the upload step). */
const acceptFormJsonOrMultipart: RequestHandler = (req, res, next) =>
  req.is('multipart/form-data') ? next() : acceptFormOrJson(req, res, next);

/** JSON and urlencoded bodies; multipart ones are left to the upload step. */
const readBody: RequestHandler[] = [jsonCharsetIsUtf8, parseJson, parseForm, tokensOnlyInHeader];

/** RFC 8288 `Link` with next/prev pages; `next` only when this page is full. */
function setPageLinks(req: Request, res: Response, base: string, page: number, count: number): void {
  const url = (p: number) => `<${base}/api/v2${req.path}?page=${p}>`;
  const links: string[] = [];
  if (count === PAGE_SIZE && page < 200) links.push(`${url(page + 1)}; rel="next"`);
  if (page > 1) links.push(`${url(page - 1)}; rel="prev"`);
  if (links.length > 0) res.set('Link', links.join(', '));
}

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

export function pushRoutes(deps: PushRoutesDeps): Router {
  const { pushes, publicUrl, features } = deps;
  const router = Router();

  // ---- POST /pushes
  /** An Idempotency-Key header, when sent, is 1–255 visible ASCII characters (checked before the body is read). */
  const idempotencyKeyOf: RequestHandler = (req, res, next) => {
    const key = req.headers['idempotency-key'];
    if (key === undefined) return next();
    if (typeof key !== 'string' || !isValidIdempotencyKey(key)) {
      return next(
        new HttpError(
          400,
          'bad_request',
          'The Idempotency-Key header must be 1 to 255 visible ASCII characters (no spaces).',
        ),
      );
    }
    res.locals.idempotencyKey = key;
    next();
  };
  /** A token must carry pushes:write; anonymous callers are judged once the kind is known. */
  const mayCreateAsCaller: RequestHandler = (req, _res, next) => {
    const decision = mayCreate(principalOf(req), undefined, features);
    next(decision.ok ? undefined : createRefusal(decision));
  };
  const readCreateBody: RequestHandler[] = deps.files ? [deps.files.upload, ...readBody] : readBody;
  const parseInput: RequestHandler = (req, res, next) => {
    res.locals.input = parseCreateBody(withUploads(req.body, uploadsOf(req)?.uploads.length), deps.rules);
    next();
  };
  const mayCreateThis: RequestHandler = (req, res, next) => {
    const input = res.locals.input as NewPush;
    const decision = mayCreate(principalOf(req), input.kind, features);
    if (!decision.ok) return next(createRefusal(decision));
    if (input.kind !== 'file' && (uploadsOf(req)?.uploads.length ?? 0) > 0) {
      return next(HttpError.validation({ files: [`A ${input.kind} push cannot carry files.`] }));
    }
    next();
  };
  const createPush: RequestHandler = async (req, res, next) => {
    const owner = principalOf(req)?.id ?? null;
    const key = res.locals.idempotencyKey as string | undefined;
    res.locals.created = await pushes.create(
      res.locals.input as NewPush,
      owner,
      auditContext(req),
      uploadsOf(req),
      // Scoped as the rate limiter counts callers: the principal, or the client IP when anonymous.
      key === undefined ? undefined : { scope: idempotencyScope(owner, req.ip ?? null), key },
    );
    next();
  };
  /** A replay made no push: the files this request stored are deleted before it is answered. */
  const discardReplayedUploads: RequestHandler = async (req, res, next) => {
    const { replayed } = res.locals.created as CreatedPush;
    const keys = uploadsOf(req)?.uploads.map((u) => u.objectKey) ?? [];
    if (replayed && deps.files && keys.length > 0) await discardStored(deps.files.service, keys, undefined);
    next();
  };
  const presentCreated: RequestHandler = (_req, res) => {
    const { snapshot, urlToken: token, note, replayed } = res.locals.created as CreatedPush;
    if (replayed) res.set('Idempotent-Replayed', 'true');
    res.status(201).json(presentOwnedPush(snapshot, token, note, publicUrl));
  };
  /** Whatever failed after files were stored, they are deleted (the push was not created). */
  const discardUploads: ErrorRequestHandler = async (err, req, _res, next) => {
    if (deps.files) {
      await discardStored(deps.files.service, uploadsOf(req)?.uploads.map((u) => u.objectKey) ?? [], err);
    }
    next(err);
  };
  router.post(
    '/pushes',
    deps.files ? acceptFormJsonOrMultipart : acceptFormOrJson,
    deps.rateLimits.create,
    mayCreateAsCaller,
    idempotencyKeyOf,
    ...readCreateBody,
    parseInput,
    mayCreateThis,
    createPush,
    discardReplayedUploads,
    presentCreated,
    discardUploads,
  );

  // ---- GET /pushes/active, /pushes/expired
  const list =
    (state: 'active' | 'expired'): RequestHandler =>
    async (req, res) => {
      const page = parsePage(req.query.page);
      const items = await pushes.list(principalOf(req)!.id, state, page);
      setPageLinks(req, res, publicUrl, page, items.length);
      res.json(items.map((i) => presentOwnedPush(i.snapshot, i.urlToken, i.note, publicUrl)));
    };
  router.get('/pushes/active', requireScope('pushes:read'), list('active'));
  router.get('/pushes/expired', requireScope('pushes:read'), list('expired'));

  // ---- GET /pushes/:url_token, POST /pushes/:url_token/reveal (each uses a view)
  const passphraseFromBody: RequestHandler = (req, res, next) => {
    const given = (req.body as { passphrase?: unknown } | undefined)?.passphrase;
    if (given !== undefined && typeof given !== 'string') {
      return next(HttpError.validation({ passphrase: ['must be a string'] }));
    }
    res.locals.passphrase = given ?? passphraseOf(req);
    next();
  };
  const passphraseFromRequest: RequestHandler = (req, res, next) => {
    res.locals.passphrase = passphraseOf(req);
    next();
  };
  const retrievePush: RequestHandler = async (req, res, next) => {
    const passphrase = res.locals.passphrase as string | undefined;
    res.locals.result = await pushes.retrieve(urlToken(req), passphrase, auditContext(req));
    next();
  };
  const presentRetrieval: RequestHandler = (req, res) => {
    const result = res.locals.result as RetrieveResult;
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
    retrievePush,
    presentRetrieval,
  );
  router.post(
    '/pushes/:url_token/reveal',
    acceptFormOrJson,
    deps.rateLimits.retrieve,
    ...readBody,
    passphraseFromBody,
    retrievePush,
    presentRetrieval,
  );

  // ---- GET /pushes/:url_token/preview (no view), /audit (owner)
  router.get('/pushes/:url_token/preview', async (req, res) => {
    const snapshot = await pushes.preview(urlToken(req));
    res.json({ url: presentPush(snapshot, urlToken(req), publicUrl).html_url });
  });
  router.get('/pushes/:url_token/audit', requireScope('pushes:read'), async (req, res) => {
    const page = parsePage(req.query.page);
    const { entries, dropped } = await pushes.auditLog(urlToken(req), principalOf(req)!.id, page);
    setPageLinks(req, res, publicUrl, page, entries.length);
    res.json({ logs: entries.map(presentAuditEntry), dropped });
  });

  // ---- DELETE /pushes/:url_token
  router.delete('/pushes/:url_token', async (req, res) => {
    const snapshot = await pushes.expire(urlToken(req), principalOf(req), auditContext(req));
    res.json(presentPush(snapshot, urlToken(req), publicUrl));
  });

  return router;
}
