import express, { type Express, type RequestHandler } from 'express';
import { HttpError, errorHandler, notFoundHandler } from '@secret-push/http-kit';
import { type HttpLogger, type Logger } from '@secret-push/logger';
import { HEALTH_PATHS, type Readiness, operationsResponse } from '@secret-push/runtime';
import type { FileService } from './domain/file-service';
import type { PushService } from './domain/push-service';
import type { WebhookService } from './domain/webhooks';
import { type InvalidTokenLimiter, authenticate, authenticationRequired } from './http/bearer-auth';
import { apiCors } from './http/cors';
import { toHttpError } from './http/error-map';
import { apiUploadForm } from './http/api-upload-form';
import { fileRoutes } from './http/file.routes';
import type { TokenVerifier } from './http/principal';
import { type PushMetrics, observeRequests } from './http/metrics';
import { pushRoutes } from './http/push.routes';
import { notifyEmailsRoutes } from './http/notify-emails.routes';
import { webhookRoutes } from './http/webhook.routes';
import { type RequestRoutesDeps, requestRoutes } from './http/request.routes';
import { type RequestFileRouteDeps, requestFileRoutes } from './http/request-files.routes';
import { type RequestCodeRouteDeps, requestCodeRoutes } from './http/request-code.routes';
import { refuseConsumingHead } from './http/head-guard';
import { securityHeaders } from './http/security-headers';
import type { CreateRules } from './http/push.schemas';
import { type versionBody, versionHandler } from './http/version.routes';
import { createPagesRoutes } from './pages/create.routes';
import { type SignInDeps, signInRoutes } from './pages/sign-in.routes';
import { type AccountPagesDeps, accountPagesRoutes } from './pages/account.routes';
import type { WebSessions } from './session/web-session';
import type { UserTokenService } from './domain/user-tokens';
import { tokenPagesRoutes } from './pages/tokens.routes';
import { webhookPagesRoutes } from './pages/webhooks.routes';
import { webEmail } from './pages/email-pages';
import { DEFAULT_WEB_FORM, type WebFormPresets } from './config/web-form';
import { senderLocaleOf } from './domain/email-rules';
import { ownerPagesRoutes } from './pages/owner.routes';
import { type Branding, useBranding } from '@secret-push/html';
import type { I18n } from '@secret-push/i18n';
import { pushI18n } from './languages';
import { sameOriginPosts } from './pages/page-security';
import { lookRoutes } from './pages/look.routes';
import { pageErrors, pagesRoutes } from './pages/pages.routes';
import { tolerateTrailingPunctuation } from './pages/trailing-punctuation';
import { answersWithPage } from './http/page-or-api';
import { receiptPagesRoutes } from './pages/receipt.routes';
import { ownerScriptsRoutes } from './pages/owner-scripts.routes';
import type { RequestPages } from './pages/request-pages.port';
import { requestPagesRoutes } from './pages/requests.routes';
import { type RespondPagesWiring, respondPagesRoutes } from './pages/respond.routes';
import { need } from './http/context-guard';
import type { UploadPipeline } from './uploads/pipeline';

/** What is mounted beside the request routes. */
export interface RequestExtras {
  files?: RequestFileRouteDeps;
  code?: RequestCodeRouteDeps;
}

export interface AppDeps {
  /** The operator's branding (BRAND_*), for the process's pages (`useBranding`); absent: the default. */
  branding?: Branding;
  /** The pages' languages (I18N_*, languages.ts); absent: every language, English by default. */
  i18n?: I18n;
  pushes: PushService;
  /** The owners' webhook endpoints (/webhooks). */
  webhooks: WebhookService;
  /** Requests (/requests): absent when PUSH_REQUESTS_ENABLED is false (every /requests route is then a 404). */
  requests?: Omit<RequestRoutesDeps, 'publicUrl' | 'rules'>;
  /** Beside the request routes: attachment downloads (with an object store), one-time codes (with email). */
  requestExtras?: RequestExtras;
  verifier: TokenVerifier;
  /** Limits invalid bearer tokens per IP (absent: unlimited, as in tests of other behaviour). */
  invalidTokens?: InvalidTokenLimiter;
  logger: Logger;
  httpLogger: HttpLogger;
  metrics: PushMetrics;
  publicUrl: string;
  trustedProxies: readonly string[];
  /** Origins whose pages may call /api/v2 from a browser (PUSH_CORS_ORIGINS); empty: no CORS. */
  corsOrigins: readonly string[];
  version: ReturnType<typeof versionBody>;
  rules: CreateRules;
  /** The web forms' expiry presets (PUSH_WEB_*); absent: their defaults. */
  webForm?: WebFormPresets;
  features: { anonymousAccess: boolean; pushesEnabled: boolean; fileRequiresAuth: boolean };
  rateLimits: { create: RequestHandler; retrieve: RequestHandler; lookup: RequestHandler };
  /** File pushes: absent when the instance has no object store. */
  files?: { service: FileService; uploads: UploadPipeline };
  /** Email on (PUSH_SMTP_URL): `notify_emails` and its per-user limit; absent: 404 there. */
  notifyEmails?: { rateLimit: RequestHandler; pageRateLimit?: RequestHandler };
  /** The request pages (issue 28) over the requests domain: absent where requests are off. */
  requestPages?: RequestPages;
  /** The responder's page: the answer and code limits, and file answers (server-requests.ts). */
  respondPages?: RespondPagesWiring;
  readiness: Readiness;
  openapi: object;
  docsHtml: string;
  /** Sign-in and sessions of the web app: absent when no OpenID issuer is configured. */
  web?: {
    sessions: WebSessions;
    signIn: SignInDeps;
    users: UserTokenService;
    account: Omit<AccountPagesDeps, 'sessions' | 'publicUrl' | 'logger' | 'beginSignIn'>;
  };
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

/** With anonymous access off, every API endpoint but /version (and download links) needs a valid token. */
function gate(anonymousAccess: boolean): RequestHandler {
  return (_req, res, next) =>
    next(anonymousAccess || need(res, 'principal') ? undefined : authenticationRequired());
}

const requestsDisabled: RequestHandler = (_req, _res, next) =>
  next(new HttpError(404, 'not_found', 'Requests are disabled on this instance.'));

const pushesDisabled: RequestHandler = (_req, _res, next) =>
  next(new HttpError(404, 'not_found', 'Pushes are disabled on this instance.'));

type CreateFeatures = { anonymousCreate: boolean; fileRequiresAuth: boolean };

/** The API under /api/v2: /version, /openapi, /docs, download links, then the authenticated push routes. */
function apiRouter(
  deps: AppDeps,
  features: CreateFeatures,
  handleErrors: express.ErrorRequestHandler,
  i18n: I18n,
) {
  const api = express.Router();
  api.use(stripJsonSuffix, noStore);
  api.get('/version', versionHandler(deps.version)); // `/version.json`, after the suffix is stripped
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
  if (!deps.requests) api.use('/requests', requestsDisabled);
  // Bodies are parsed by the routes that take one, after their cheap checks.
  api.use(authenticate(deps.verifier, deps.invalidTokens));
  api.use(gate(deps.features.anonymousAccess));
  if (!deps.features.pushesEnabled) api.use('/pushes', pushesDisabled);
  if (deps.notifyEmails) {
    api.use(notifyEmailsRoutes({ pushes: deps.pushes, rateLimit: deps.notifyEmails.rateLimit }));
  }
  api.use(
    pushRoutes({
      pushes: deps.pushes,
      publicUrl: deps.publicUrl,
      rules: deps.rules,
      features,
      rateLimits: deps.rateLimits,
      // The emails' language when the create names none: the sender's (the API's errors stay English).
      senderLanguage: (req) => senderLocaleOf(i18n.negotiate(req), i18n.defaultLanguage),
      ...(deps.files
        ? {
            files: {
              service: deps.files.service,
              upload: deps.files.uploads.parser(apiUploadForm(features)),
            },
          }
        : {}),
    }),
  );
  api.use(webhookRoutes({ webhooks: deps.webhooks, rateLimit: deps.rateLimits.lookup }));
  if (deps.requests) {
    const extras = deps.requestExtras ?? {};
    if (extras.files) api.use(requestFileRoutes(extras.files));
    if (extras.code) api.use(requestCodeRoutes(extras.code));
    api.use(
      requestRoutes({
        ...deps.requests,
        publicUrl: deps.publicUrl,
        rules: deps.rules,
        senderLanguage: (req) => senderLocaleOf(i18n.negotiate(req), i18n.defaultLanguage),
      }),
    );
  }
  api.use(handleErrors); // in the router too: its errors are logged with the /api/v2 mount path
  return api;
}

/** The web pages (pages/): sign-in, owner, token, webhook and account pages where there is sign-in; create; recipient. */
function mountPages(app: Express, deps: AppDeps, features: CreateFeatures, i18n: I18n): void {
  const common = { publicUrl: deps.publicUrl, logger: deps.logger };
  app.post(
    '/language',
    sameOriginPosts(deps.publicUrl),
    express.urlencoded({ extended: false, limit: '2kb', parameterLimit: 5 }),
    i18n.languageRoute({ secureCookie: deps.publicUrl.startsWith('https:') }),
  );
  // Email in the pages, where the instance sends it (absent: no page offers it).
  const email = webEmail(deps.pushes, deps.notifyEmails?.pageRateLimit);
  const withEmail = email ? { email } : {};
  if (deps.branding) useBranding(deps.branding);
  app.use(lookRoutes({ ...common, ...(deps.web ? { sessions: deps.web.sessions } : {}) }));
  app.use(tolerateTrailingPunctuation); // `/p/TOKEN.` pasted with a sentence's full stop
  if (deps.requestPages) {
    app.use((_req, res, next) => {
      res.locals.requestPages = true; // every page's header offers "Request a secret"
      next();
    });
  }
  if (deps.web) {
    const signIn = signInRoutes(deps.web.signIn);
    app.use(signIn);
    app.use(ownerPagesRoutes({ ...common, ...withEmail, pushes: deps.pushes, sessions: deps.web.sessions }));
    app.use(tokenPagesRoutes({ ...common, sessions: deps.web.sessions, users: deps.web.users }));
    app.use(
      webhookPagesRoutes({
        ...common,
        sessions: deps.web.sessions,
        webhooks: deps.webhooks,
        rateLimit: deps.rateLimits.lookup,
      }),
    );
    app.use(
      accountPagesRoutes({
        ...deps.web.account,
        ...common,
        ...withEmail,
        sessions: deps.web.sessions,
        beginSignIn: signIn.begin,
      }),
    );
  }
  app.use(
    createPagesRoutes({
      ...(deps.web ? { sessions: deps.web.sessions } : {}),
      pushes: deps.pushes,
      rules: deps.rules,
      features,
      ...(deps.webForm ? { webForm: deps.webForm } : {}),
      ...(deps.files ? { files: deps.files } : {}),
      rateLimit: deps.rateLimits.create,
      ...common,
      ...withEmail,
    }),
  );
  if (deps.requestPages) mountRequestPages(app, deps, deps.requestPages);
  app.use(ownerScriptsRoutes());
  app.use(
    receiptPagesRoutes({
      ...common,
      pushes: deps.pushes,
      rateLimit: deps.rateLimits.retrieve,
      signInEnabled: !!deps.web,
    }),
  );
  app.use(pagesRoutes({ ...common, pushes: deps.pushes, rateLimit: deps.rateLimits.retrieve }));
}

/** The requester's pages (signed in) and the responder's page, where requests are on. */
function mountRequestPages(app: Express, deps: AppDeps, requests: RequestPages): void {
  const common = { publicUrl: deps.publicUrl, logger: deps.logger };
  if (deps.web) {
    const { rules, files } = deps;
    app.use(
      requestPagesRoutes({
        ...common,
        requests,
        sessions: deps.web.sessions,
        rateLimit: deps.rateLimits.create,
        rules: {
          days: rules.days,
          views: rules.views,
          retrievalStepDefault: rules.retrievalStepDefault,
          deletableByViewerDefault: rules.deletableByViewerDefault,
          presets: deps.webForm ?? DEFAULT_WEB_FORM,
          files: files !== undefined,
          ...(deps.notifyEmails ? { email: { locales: deps.pushes.supportedLocales } } : {}),
        },
      }),
    );
  }
  app.use(
    respondPagesRoutes({
      ...common,
      requests,
      rateLimit: deps.rateLimits.retrieve,
      ...deps.respondPages,
      anonymousAccess: deps.features.anonymousAccess,
      ...(deps.web ? { sessions: deps.web.sessions } : {}),
    }),
  );
}

/**
 * The push service's Express app: operations endpoints, the API under /api/v2 (http/) and the
 * web app's pages (pages/: the create form, sign-in, tokens, webhooks, the owner's lists, the
 * account and the recipient pages). It sits above both edges, which never import each other's routes.
 */
export function createApp(deps: AppDeps): Express {
  const features = {
    anonymousCreate: deps.features.anonymousAccess,
    fileRequiresAuth: deps.features.fileRequiresAuth,
  };
  const renderError = errorHandler(deps.logger);
  const renderPage = pageErrors(deps.logger, 'a page');
  // People get a page, programs the API's JSON: decided by the path (http/page-or-api.ts).
  const handleErrors: express.ErrorRequestHandler = (err, req, res, next) =>
    answersWithPage(req) && !res.headersSent
      ? renderPage(err, req, res, next)
      : renderError(toHttpError(err), req, res, next);
  const app = express();
  app.disable('x-powered-by');
  // Every API answer is `Cache-Control: no-store`, so an ETag is never used for revalidation; and a
  // 304 must never stand in for a retrieval that consumed a view. (Hashing each body also cost
  // time: see bench/PROFILE.md.)
  app.set('etag', false);
  app.set('trust proxy', deps.trustedProxies.length > 0 ? [...deps.trustedProxies] : false);
  app.use(deps.httpLogger);
  app.use(observeRequests(deps.metrics));
  app.use(securityHeaders());
  // Before everything else under /api/v2 (the HEAD guard, /version, download links, authentication,
  // the anonymous-access gate): preflights are answered here, and errors carry the CORS headers
  // too. The web pages and health endpoints never get them.
  const cors = apiCors(deps.corsOrigins);
  if (cors) app.use('/api/v2', cors);
  app.use(refuseConsumingHead);
  // Pages in the person's language (cookie, Accept-Language); the API's answers stay English.
  const i18n = deps.i18n ?? pushI18n();
  app.use(i18n.middleware((req) => !answersWithPage(req)));

  // Health only: /metrics is served on the metrics port (server.ts), which the Ingress does not
  // route; here it is a 404 like any unknown path.
  const operations = { readiness: deps.readiness };
  const answerOperations: RequestHandler = (req, res, next) => {
    operationsResponse(req.path, operations)!.then(
      (r) => void res.status(r.status).type(r.contentType).send(r.body),
      next,
    );
  };
  for (const path of HEALTH_PATHS) app.get(path, answerOperations); // one route (and label) each

  // Polled by clients for feature detection: answered here, without the API router's machinery
  // (see bench/PROFILE.md).
  app.get('/api/v2/version', versionHandler(deps.version));
  app.use('/api/v2', apiRouter(deps, features, handleErrors, i18n));
  if (deps.features.pushesEnabled) mountPages(app, deps, features, i18n);

  app.use(notFoundHandler);
  app.use(handleErrors);
  return app;
}
