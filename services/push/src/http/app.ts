import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import { HttpError, errorHandler, notFoundHandler } from '@secret-push/http-kit';
import { type HttpLogger, type Logger } from '@secret-push/logger';
import type { PushService } from '../domain/push-service';
import type { FileService } from '../files/file-service';
import { authenticate, principalOf } from './bearer-auth';
import { toHttpError } from './error-map';
import { fileRoutes } from './file.routes';
import type { TokenVerifier } from './introspection-client';
import { type PushMetrics, observeRequests } from './metrics';
import { pagesRoutes } from '../pages/pages.routes';
import { pushRoutes } from './push.routes';
import type { CreateRules } from './push.schemas';
import { type versionBody, versionHandler } from './version.routes';

export interface AppDeps {
  pushes: PushService;
  verifier: TokenVerifier;
  logger: Logger;
  httpLogger: HttpLogger;
  metrics: PushMetrics;
  publicUrl: string;
  trustedProxies: readonly string[];
  version: ReturnType<typeof versionBody>;
  rules: CreateRules;
  features: { anonymousAccess: boolean; pushesEnabled: boolean; fileRequiresAuth: boolean };
  rateLimits: { create: RequestHandler; retrieve: RequestHandler };
  /** File pushes: absent when the instance has no object store. */
  files?: { service: FileService; upload: RequestHandler };
  readiness(): Promise<{ ready: boolean; checks: Record<string, string> }>;
  openapi: object;
  docsHtml: string;
}

/** Existing clients address every route also with a `.json` suffix (`/pushes/TOKEN.json`). */
const stripJsonSuffix: RequestHandler = (req, _res, next) => {
  req.url = req.url.replace(/\.json(?=$|\?)/, '');
  next();
};

const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};

/** With anonymous access off, every API endpoint but /version needs a valid token (SPEC §5.3). */
function gate(anonymousAccess: boolean): RequestHandler {
  return (req, _res, next) => {
    if (anonymousAccess || principalOf(req)) return next();
    next(
      new HttpError(401, 'unauthorized', 'Authentication required.', {
        headers: { 'WWW-Authenticate': 'Bearer realm="secret-push"' },
      }),
    );
  };
}

/**
 * helmet()'s default headers do not depend on the request: they are collected once by running it
 * against a recording response, then set on every response without its chain of twelve middleware.
 */
export function securityHeaders(): RequestHandler {
  const set: [string, string | number | readonly string[]][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => void set.push([name, value]),
    removeHeader: (name: string) => void removed.push(name),
  };
  let called = false;
  helmet()({} as Request, recorder as unknown as Response, () => {
    called = true;
  });
  if (!called) throw new Error('helmet did not complete synchronously');
  return (_req, res, next) => {
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}

const pushesDisabled: RequestHandler = (_req, _res, next) =>
  next(new HttpError(404, 'not_found', 'Pushes are disabled on this instance.'));

export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // Every API answer is `Cache-Control: no-store`, so an ETag is never used for revalidation; and a
  // 304 must never stand in for a retrieval that consumed a view. Hashing each body (SHA-1, the
  // whole 50-push page for /pushes/active) was ~5% of the GET /version profile.
  app.set('etag', false);
  app.set('trust proxy', deps.trustedProxies.length > 0 ? [...deps.trustedProxies] : false);
  app.use(deps.httpLogger);
  app.use(observeRequests(deps.metrics));
  app.use(securityHeaders());

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const { ready, checks } = await deps.readiness();
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable', checks });
  });
  app.get('/metrics', async (_req, res) => {
    res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });

  // Polled by clients for feature detection: answered here, without the API router's machinery
  // (a nested router and two middleware were ~6% of the endpoint's profile).
  const version = versionHandler(deps.version);
  app.get('/api/v2/version', version);

  const api = express.Router();
  api.use(stripJsonSuffix, noStore);
  api.get('/version', version); // `/version.json`, after the suffix is stripped
  api.get('/openapi', (_req, res) => {
    res.json(deps.openapi);
  });
  api.get('/docs', (_req, res) => {
    res
      .set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
      .type('html')
      .send(deps.docsHtml);
  });
  // Download links are capabilities of their own: no token, whatever anonymous_access says.
  if (deps.files) {
    api.use(
      fileRoutes({ files: deps.files.service, rateLimit: deps.rateLimits.retrieve, logger: deps.logger }),
    );
  }
  api.use(express.json({ limit: '16mb' }));
  api.use(express.urlencoded({ extended: true, limit: '16mb' }));
  api.use(authenticate(deps.verifier));
  api.use(gate(deps.features.anonymousAccess));
  if (!deps.features.pushesEnabled) api.use('/pushes', pushesDisabled);
  api.use(
    pushRoutes({
      pushes: deps.pushes,
      publicUrl: deps.publicUrl,
      rules: deps.rules,
      anonymousCreate: deps.features.anonymousAccess,
      fileRequiresAuth: deps.features.fileRequiresAuth,
      rateLimits: deps.rateLimits,
      files: deps.files,
    }),
  );
  app.use('/api/v2', api);
  if (deps.features.pushesEnabled) {
    app.use(
      pagesRoutes({
        pushes: deps.pushes,
        publicUrl: deps.publicUrl,
        logger: deps.logger,
        rateLimit: deps.rateLimits.retrieve,
      }),
    );
  }

  app.use(notFoundHandler);
  app.use(((err, req, res, next) =>
    errorHandler(deps.logger)(toHttpError(err), req, res, next)) as express.ErrorRequestHandler);
  return app;
}
