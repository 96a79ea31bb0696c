import express, { type RequestHandler, type Response, Router } from 'express';
import { t } from '@secret-push/i18n';
import type { Logger } from '@secret-push/logger';
import { InvalidWebhookUrl, WebhookLimitReached, WebhookNotFound } from '../domain/errors';
import { userPrincipalId } from '../domain/user';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType, isWebhookEventType } from '../domain/webhook';
import type { WebhookService } from '../domain/webhooks';
import { parsePage } from '../http/push.schemas';
import { deliveryIdParam, endpointIdParam } from '../http/webhook.schemas';
import { type WebSessions, signedInSession } from '../session/web-session';
import { confirmPage } from './confirm.views';
import { formValues } from './email-pages';
import { formField, sameOriginPosts, sendPage, setPageHeaders } from './page-security';
import { pageErrors } from './pages.routes';
import { errorPage } from './views';
import { headerOf } from './web-header';
import {
  type EndpointFormValues,
  LIST_FLASHES,
  LOG_FLASHES,
  type ListFlash,
  type LogFlash,
  type ShownSecret,
  deliveriesPage,
  webhooksPage,
} from './webhooks.views';

export interface WebhookPagesDeps {
  sessions: WebSessions;
  webhooks: Pick<
    WebhookService,
    'list' | 'create' | 'get' | 'update' | 'remove' | 'rotate' | 'sendTest' | 'deliveries' | 'replay'
  >;
  /** Limits the actions as the API's /webhooks are (PUSH_RATE_LIMIT_LOOKUP_PER_MINUTE). */
  rateLimit: RequestHandler;
  publicUrl: string;
  logger: Logger;
}

/** A page of the delivery log holds this many (the store's page size, as the API's). */
const PAGE_SIZE = 50;

const ownerOf = (res: Response) => userPrincipalId(signedInSession(res).userId);

const endpointId = endpointIdParam;
const deliveryId = deliveryIdParam;

/** The `done` key of a redirect, if it is one of the page's (never echoed: it picks a fixed text). */
const flashOf = <K extends string>(raw: unknown, texts: Record<K, string>): K | undefined =>
  typeof raw === 'string' && Object.hasOwn(texts, raw) ? (raw as K) : undefined;

/** "Add an endpoint" as typed, and the event types it asks for (undefined: none chosen). */
function readCreateForm(body: unknown): { values: EndpointFormValues; types?: WebhookEventType[] } {
  const values = {
    url: formField(body, 'url')?.trim() ?? '',
    types: formValues(body, 'event_types'),
    allTypes: formField(body, 'all_types') === 'true',
  };
  const types = values.allTypes ? [...WEBHOOK_EVENT_TYPES] : values.types.filter(isWebhookEventType);
  return types.length > 0 ? { values, types } : { values };
}

/** Why a URL was refused (the domain's English reason), in the page's language. */
function urlProblem(reason: string): string {
  const long = /longer than (\d+) characters/.exec(reason);
  if (long) return t('webhooks.problem.tooLong', { max: Number(long[1]) });
  switch (reason) {
    case 'not an absolute URL':
      return t('webhooks.problem.notAbsolute');
    case 'the URL must be http(s)':
      return t('webhooks.problem.httpOrHttps');
    case 'the URL must be https':
      return t('webhooks.problem.https');
    case 'the URL must not carry credentials':
      return t('webhooks.problem.credentials');
    case 'the URL must not have a fragment':
      return t('webhooks.problem.fragment');
    default:
      return t('webhooks.problem.url');
  }
}

/** The create's refusals as the form's field problems, in the page's language (undefined: not a refusal). */
function refusalOf(err: unknown): Record<string, string[]> | undefined {
  if (err instanceof InvalidWebhookUrl) return { url: [urlProblem(err.reason)] };
  if (err instanceof WebhookLimitReached) {
    return { webhooks: [t('webhooks.problem.limit', { limit: err.limit })] };
  }
  return undefined;
}

type ListExtra = Pick<Parameters<typeof webhooksPage>[0], 'shown' | 'flash' | 'errors' | 'values'>;

/**
 * `/users/webhooks` (signed in): the person's webhook endpoints through the same domain service as
 * the API's `/webhooks` (the owner is `user:<id>`, as for their pushes). A new or rotated secret
 * is shown once, in the answer to the POST that made it (the page is `no-store`); every other
 * action redirects back with a fixed message (Post/Redirect/Get). Another person's endpoint, or
 * none, is the 404 page.
 */
export function webhookPagesRoutes(deps: WebhookPagesDeps): Router {
  const { sessions, webhooks } = deps;
  const router = Router();
  const readForm = express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 20 });
  const guard: RequestHandler[] = [sessions.load, sessions.requireSignedIn];
  const guardPost: RequestHandler[] = [sameOriginPosts(deps.publicUrl), readForm, ...guard, deps.rateLimit];

  async function list(res: Response, status: number, extra: ListExtra = {}) {
    const endpoints = await webhooks.list(ownerOf(res));
    setPageHeaders(res);
    const header = headerOf(res, true)!;
    const csrf = signedInSession(res).csrf;
    sendPage(res, status, webhooksPage({ header, csrf, endpoints, ...extra }));
  }

  router.get('/users/webhooks', ...guard, (req, res) =>
    list(res, 200, { flash: flashOf<ListFlash>(req.query.done, LIST_FLASHES) }),
  );

  router.post('/users/webhooks', ...guardPost, async (req, res) => {
    const { values, types } = readCreateForm(req.body);
    const errors: Record<string, string[]> = {};
    if (!values.url) errors.url = [t('webhooks.problem.noUrl')];
    if (!types) errors.event_types = [t('webhooks.problem.noTypes')];
    if (!values.url || !types) return list(res, 422, { errors, values });
    try {
      const made = await webhooks.create(ownerOf(res), { url: values.url, eventTypes: types });
      await list(res, 201, { shown: { kind: 'created', ...made } });
    } catch (err) {
      const refused = refusalOf(err);
      if (refused) return list(res, 422, { errors: refused, values });
      throw err;
    }
  });

  const redirectToList = (res: Response, done: ListFlash) =>
    res.redirect(303, `/users/webhooks?done=${done}`);
  router.post('/users/webhooks/:id/disable', ...guardPost, async (req, res) => {
    await webhooks.update(ownerOf(res), endpointId(req), { enabled: false });
    redirectToList(res, 'disabled');
  });
  router.post('/users/webhooks/:id/enable', ...guardPost, async (req, res) => {
    await webhooks.update(ownerOf(res), endpointId(req), { enabled: true });
    redirectToList(res, 'enabled');
  });
  /** Delete asks first: this page names the endpoint; its form POSTs (nothing changes here). */
  router.get('/users/webhooks/:id/delete', ...guard, async (req, res) => {
    const endpoint = await webhooks.get(ownerOf(res), endpointId(req));
    setPageHeaders(res);
    const page = confirmPage({
      header: headerOf(res, true)!,
      question: t('webhooks.ask.question', { url: endpoint.url }),
      consequence: t('webhooks.ask.consequence'),
      action: `/users/webhooks/${endpoint.id}/delete`,
      csrf: signedInSession(res).csrf,
      confirm: t('webhooks.ask.confirm'),
      cancel: '/users/webhooks',
    });
    sendPage(res, 200, page);
  });
  router.post('/users/webhooks/:id/delete', ...guardPost, async (req, res) => {
    await webhooks.remove(ownerOf(res), endpointId(req));
    redirectToList(res, 'deleted');
  });
  router.post('/users/webhooks/:id/rotate', ...guardPost, async (req, res) => {
    const rotated: ShownSecret = {
      kind: 'rotated',
      ...(await webhooks.rotate(ownerOf(res), endpointId(req))),
    };
    await list(res, 200, { shown: rotated });
  });

  deliveryLogRoutes(router, deps, guard, guardPost);
  notFound(router);
  router.use('/users/webhooks', pageErrors(deps.logger, 'the webhooks page'));
  return router;
}

/** The delivery log of an endpoint, its test event and the replay of a delivery. */
function deliveryLogRoutes(
  router: Router,
  deps: WebhookPagesDeps,
  guard: RequestHandler[],
  guardPost: RequestHandler[],
): void {
  const { webhooks } = deps;
  router.get('/users/webhooks/:id', ...guard, async (req, res) => {
    const id = endpointId(req);
    const page = parsePage(req.query.page);
    const owner = ownerOf(res);
    const endpoint = await webhooks.get(owner, id);
    const deliveries = await webhooks.deliveries(owner, id, page);
    setPageHeaders(res);
    const html = deliveriesPage({
      header: headerOf(res, true)!,
      csrf: signedInSession(res).csrf,
      endpoint,
      deliveries,
      page,
      hasNext: deliveries.length === PAGE_SIZE,
      flash: flashOf<LogFlash>(req.query.done, LOG_FLASHES),
    });
    sendPage(res, 200, html);
  });

  router.post('/users/webhooks/:id/test', ...guardPost, async (req, res) => {
    const id = endpointId(req);
    await webhooks.sendTest(ownerOf(res), id);
    res.redirect(303, `/users/webhooks/${id}?done=test`);
  });

  router.post('/users/webhooks/:id/deliveries/:delivery_id/replay', ...guardPost, async (req, res) => {
    const id = endpointId(req);
    const replayed = await webhooks.replay(ownerOf(res), id, deliveryId(req));
    const page = formField(req.body, 'page');
    const at = page && /^[1-9]\d{0,2}$/.test(page) && page !== '1' ? `page=${page}&` : '';
    const done: LogFlash = replayed.status === 'delivering' ? 'busy' : 'replayed';
    res.redirect(303, `/users/webhooks/${id}?${at}done=${done}`);
  });
}

/** An endpoint or delivery that is not the person's (or none): the 404 page. */
function notFound(router: Router): void {
  router.use('/users/webhooks', ((err, _req, res, next) => {
    if (!(err instanceof WebhookNotFound)) return next(err);
    setPageHeaders(res);
    sendPage(res, 404, errorPage(t('webhooks.notFound.title'), t('webhooks.notFound.text')));
  }) as express.ErrorRequestHandler);
}
