import { type RequestHandler, Router } from 'express';
import { HttpError } from '@secret-push/http-kit';
import type { WebhookService } from '../domain/webhooks';
import { requireScope, scopedPrincipal } from './bearer-auth';
import { parsePage } from './push.schemas';
import { readBody } from './request-body';
import { presentDelivery, presentEndpoint, withSecret } from './webhook.presenter';
import { deliveryIdParam, endpointIdParam, parseWebhookCreate, parseWebhookUpdate } from './webhook.schemas';

export interface WebhookRoutesDeps {
  webhooks: WebhookService;
  /** The owner endpoints' limit (PUSH_RATE_LIMIT_LOOKUP_PER_MINUTE), as for audit logs. */
  rateLimit: RequestHandler;
}

/*
 * /webhooks: the caller's own endpoints (the owner is the token's principal, a person or an API
 * client, the same string as a push's owner). Reading takes `pushes:read`, changing `pushes:write`.
 * Another owner's endpoint is not found (404), never forbidden: its existence is not told.
 */

const ownerOf = (res: Parameters<RequestHandler>[1]) => scopedPrincipal(res).id;

const endpointId = endpointIdParam;
const deliveryId = deliveryIdParam;

/** JSON only (no forms: a webhook is managed by programs and the web app's own scripts). */
const acceptJson: RequestHandler = (req, _res, next) => {
  const hasBody =
    req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (!hasBody || req.is('application/json')) return next();
  next(new HttpError(415, 'unsupported_media_type', 'Send the body as application/json.'));
};

export function webhookRoutes(deps: WebhookRoutesDeps): Router {
  const { webhooks, rateLimit } = deps;
  const router = Router();
  const read = [requireScope('pushes:read'), rateLimit];
  const write = [requireScope('pushes:write'), rateLimit];

  router.get('/webhooks', ...read, async (_req, res) => {
    res.json((await webhooks.list(ownerOf(res))).map(presentEndpoint));
  });
  router.post('/webhooks', ...write, acceptJson, ...readBody, async (req, res) => {
    const made = await webhooks.create(ownerOf(res), parseWebhookCreate(req.body));
    res.status(201).json(withSecret(made.endpoint, made.secret));
  });
  router.get('/webhooks/:id', ...read, async (req, res) => {
    res.json(presentEndpoint(await webhooks.get(ownerOf(res), endpointId(req))));
  });
  router.patch('/webhooks/:id', ...write, acceptJson, ...readBody, async (req, res) => {
    const id = endpointId(req);
    res.json(presentEndpoint(await webhooks.update(ownerOf(res), id, parseWebhookUpdate(req.body))));
  });
  router.delete('/webhooks/:id', ...write, async (req, res) => {
    res.json(presentEndpoint(await webhooks.remove(ownerOf(res), endpointId(req))));
  });
  router.post('/webhooks/:id/rotate', ...write, async (req, res) => {
    const rotated = await webhooks.rotate(ownerOf(res), endpointId(req));
    res.json(withSecret(rotated.endpoint, rotated.secret));
  });
  router.post('/webhooks/:id/test', ...write, async (req, res) => {
    res.status(202).json(presentDelivery(await webhooks.sendTest(ownerOf(res), endpointId(req))));
  });
  router.get('/webhooks/:id/deliveries', ...read, async (req, res) => {
    const page = parsePage(req.query.page);
    const list = await webhooks.deliveries(ownerOf(res), endpointId(req), page);
    res.json(list.map(presentDelivery));
  });
  router.get('/webhooks/:id/deliveries/:delivery_id', ...read, async (req, res) => {
    res.json(presentDelivery(await webhooks.delivery(ownerOf(res), endpointId(req), deliveryId(req))));
  });
  router.post('/webhooks/:id/deliveries/:delivery_id/replay', ...write, async (req, res) => {
    const replayed = await webhooks.replay(ownerOf(res), endpointId(req), deliveryId(req));
    res.status(202).json(presentDelivery(replayed));
  });
  return router;
}
