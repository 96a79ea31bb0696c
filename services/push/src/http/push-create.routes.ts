import type { ErrorRequestHandler, Request, RequestHandler, Response, Router } from 'express';
import { HttpError } from '@secret-push/http-kit';
import { type CreateFeatures, mayCreate, ownerOf } from '../domain/create-policy';
import type { FileService } from '../domain/file-service';
import {
  MIN_ANONYMOUS_KEY_LENGTH,
  idempotencyScope,
  isAcceptableKey,
  isValidIdempotencyKey,
} from '../domain/idempotency';
import type { PreparedFiles, PushService } from '../domain/push-service';
import { discardStored } from '../uploads/cleanup';
import { storedKeys, uploadsOf } from '../uploads/upload-state';
import { auditContext } from './audit-context';
import { tokensOnlyInHeader } from './bearer-auth';
import { createRefusal } from './error-map';
import type { EmailLocale } from '../domain/email-rules';
import { actorOf, emailSenderOf } from './principal';
import { presentEmailEcho, presentOwnedPush } from './push.presenter';
import { type CreateRules, parseCreateBody } from './push.schemas';
import { need } from './context-guard';
import { acceptFormJsonOrMultipart, acceptFormOrJson, onlyMultipart, readBody } from './request-body';

export interface CreateRouteDeps {
  pushes: PushService;
  publicUrl: string;
  rules: CreateRules;
  features: CreateFeatures;
  rateLimits: { create: RequestHandler };
  /** File pushes: the file service and the multipart upload parser; absent without an object store. */
  files?: { service: FileService; upload: RequestHandler };
  /**
   * The sender's language for the push's emails when `notify_emails_to_locale` is not given: the
   * request's negotiated language (cookie, `Accept-Language`; app.ts), else null (the default).
   */
  senderLanguage?: (req: Request) => EmailLocale | null;
}

/** The body's `push` object, when it is one. */
function pushObjectOf(body: unknown): Record<string, unknown> | undefined {
  const push = (body as { push?: unknown } | undefined)?.push;
  return push !== null && typeof push === 'object' && !Array.isArray(push)
    ? (push as Record<string, unknown>)
    : undefined;
}

/**
 * A JSON or urlencoded create body as the schema reads it: files arrive only as multipart parts,
 * so a `files` value here cannot carry any and is refused unless empty (it still marks a file push).
 */
function withoutFiles(body: unknown): unknown {
  const files = pushObjectOf(body)?.files;
  if (files !== undefined && !(Array.isArray(files) && files.length === 0) && files !== '') {
    throw HttpError.validation({
      files: ['Files must be uploaded as multipart/form-data parts named push[files][].'],
    });
  }
  return body;
}

/** A multipart create body as the schema reads it: its file parts (stored already) mark a file push. */
function withUploads(body: unknown, uploadCount: number): unknown {
  // A form whose only `push[…]` parts are files still carries a push.
  const given = (body as { push?: unknown } | undefined)?.push;
  const push = given === undefined && uploadCount > 0 ? {} : pushObjectOf(body);
  if (!push) return body;
  const { files: _files, ...rest } = push;
  return { push: { ...rest, ...(uploadCount > 0 ? { files: [] } : {}) } };
}

/**
 * `POST /pushes`: small named steps, cheap checks first (media type, rate limit, the caller's
 * rights, the Idempotency-Key) and expensive work after (the body, the database). A multipart body
 * (a file push) takes the file chain: the upload step, and the stored files deleted on any failure
 * and on a replay; any other body takes the text chain, which runs no file step.
 */
export function mountCreate(router: Router, deps: CreateRouteDeps): void {
  const { pushes, publicUrl, features } = deps;

  /**
   * An Idempotency-Key header, when sent, is 1–255 visible ASCII characters, and at least
   * MIN_ANONYMOUS_KEY_LENGTH for an anonymous caller (checked before the body is read).
   */
  const idempotencyKeyOf: RequestHandler = (req, res, next) => {
    const key = req.headers['idempotency-key'];
    if (key !== undefined && (typeof key !== 'string' || !isValidIdempotencyKey(key))) {
      return next(
        new HttpError(
          400,
          'bad_request',
          'The Idempotency-Key header must be 1 to 255 visible ASCII characters (no spaces).',
        ),
      );
    }
    if (key !== undefined && !isAcceptableKey(key, need(res, 'principal') === null)) {
      return next(
        new HttpError(
          400,
          'bad_request',
          `An anonymous create's Idempotency-Key must be at least ${MIN_ANONYMOUS_KEY_LENGTH} characters: use a random UUID.`,
        ),
      );
    }
    res.locals.idempotencyKey = key ?? null;
    next();
  };
  /** A token must carry pushes:write; anonymous callers are judged once the kind is known. */
  const mayCreateAsCaller: RequestHandler = (_req, res, next) => {
    const decision = mayCreate(actorOf(need(res, 'principal')), undefined, features);
    next(decision.ok ? undefined : createRefusal(decision));
  };
  const parseInput: RequestHandler = (req, res, next) => {
    res.locals.input = parseCreateBody(withoutFiles(req.body), deps.rules);
    next();
  };
  const parseInputWithUploads: RequestHandler = (req, res, next) => {
    const count = need(res, 'uploads').stored.length;
    res.locals.input = parseCreateBody(withUploads(req.body, count), deps.rules);
    next();
  };
  const mayCreateThis: RequestHandler = (_req, res, next) => {
    const decision = mayCreate(actorOf(need(res, 'principal')), need(res, 'input').kind, features);
    next(decision.ok ? undefined : createRefusal(decision));
  };
  const onlyFilePushesCarryFiles: RequestHandler = (_req, res, next) => {
    const { kind } = need(res, 'input');
    if (kind !== 'file' && need(res, 'uploads').stored.length > 0) {
      return next(HttpError.validation({ files: [`A ${kind} push cannot carry files.`] }));
    }
    next();
  };
  const create = async (req: Request, res: Response, files?: PreparedFiles) => {
    const principal = need(res, 'principal');
    const owner = ownerOf(actorOf(principal));
    const key = need(res, 'idempotencyKey');
    res.locals.created = await pushes.create(need(res, 'input'), {
      owner,
      audit: auditContext(req),
      sender: emailSenderOf(principal),
      senderLocale: deps.senderLanguage?.(req) ?? null,
      ...(files ? { files } : {}),
      // Scoped as the rate limiter counts callers: the principal, or the client IP when anonymous.
      ...(key === null ? {} : { idempotency: { scope: idempotencyScope(owner, req.ip ?? null), key } }),
    });
  };
  const createPush: RequestHandler = async (req, res, next) => {
    await create(req, res);
    next();
  };
  const createPushWithFiles: RequestHandler = async (req, res, next) => {
    await create(req, res, uploadsOf(res));
    next();
  };
  const presentCreated: RequestHandler = (_req, res) => {
    const { snapshot, urlToken: token, note, replayed } = need(res, 'created');
    if (replayed) res.set('Idempotent-Replayed', 'true');
    res.status(201).json({
      ...presentOwnedPush(snapshot, token, note, publicUrl),
      ...presentEmailEcho(need(res, 'input')),
    });
  };

  const checks = [deps.rateLimits.create, mayCreateAsCaller, idempotencyKeyOf];
  const textChain = [...readBody, parseInput, mayCreateThis, createPush, presentCreated];
  if (!deps.files) {
    router.post('/pushes', acceptFormOrJson, ...checks, ...textChain);
    return;
  }
  const { service: fileService, upload } = deps.files;
  /** A replay made no push: the files this request stored are deleted before it is answered. */
  const discardReplayedUploads: RequestHandler = async (_req, res, next) => {
    if (need(res, 'created').replayed) await discardStored(fileService, storedKeys(res), undefined);
    next();
  };
  /** Whatever failed after files were stored, they are deleted (the push was not created). */
  const discardUploads: ErrorRequestHandler = async (err, _req, res, next) => {
    await discardStored(fileService, storedKeys(res), err);
    next(err);
  };
  const fileChain = [
    upload,
    tokensOnlyInHeader,
    parseInputWithUploads,
    mayCreateThis,
    onlyFilePushesCarryFiles,
    createPushWithFiles,
    discardReplayedUploads,
    presentCreated,
    discardUploads,
  ];
  router.post('/pushes', acceptFormJsonOrMultipart, ...checks, onlyMultipart, ...fileChain);
  router.post('/pushes', ...textChain);
}
