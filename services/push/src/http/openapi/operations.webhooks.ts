import { WEBHOOK_EVENT_TYPES } from '../../domain/webhook';
import { MAX_WEBHOOK_URL_LENGTH } from '../../domain/webhooks';
import { jsonRef, jsonResponse } from './responses';
import { PAGE, errors, schemaRef, tokens } from './operations.shared';
import type {
  JsonSchema,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  RequestBodyObject,
} from './types';

/* The Webhooks operations (http/webhook.routes.ts) and their schemas, mirroring http/webhook.presenter.ts. */

const closed = (properties: Record<string, JsonSchema>, description: string): JsonSchema => ({
  type: 'object',
  description,
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});
const nullable = (type: 'string' | 'integer', description: string, format?: string): JsonSchema => ({
  type: [type, 'null'],
  description,
  ...(format ? { format } : {}),
});

const EVENT_TYPES: JsonSchema = {
  type: 'array',
  items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] },
  minItems: 1,
  description: 'The event types sent to this endpoint (`webhook.test` is sent on request whatever they are).',
};

const ENDPOINT: Record<string, JsonSchema> = {
  id: { type: 'string', format: 'uuid', description: 'The endpoint.' },
  url: { type: 'string', format: 'uri', description: 'Where messages are POSTed.' },
  event_types: EVENT_TYPES,
  enabled: { type: 'boolean', description: 'False: nothing is queued or sent.' },
  disabled_reason: nullable('string', 'Why it was disabled (by its owner, a 410, a spent retry schedule).'),
  previous_secret_expires_at: nullable(
    'string',
    'During a rotation: when the previous secret stops signing (both sign until then).',
    'date-time',
  ),
  created_at: { type: 'string', format: 'date-time', description: 'Creation time.' },
  updated_at: { type: 'string', format: 'date-time', description: 'Last change.' },
};

/** The component schemas of the Webhooks operations. */
export function webhookSchemas(): Record<string, JsonSchema> {
  return {
    Webhook: closed(ENDPOINT, 'A webhook endpoint (never its secret).'),
    WebhookWithSecret: closed(
      {
        ...ENDPOINT,
        secret: {
          type: 'string',
          pattern: '^whsec_[A-Za-z0-9+/]+=*$',
          description: 'The signing secret (Standard Webhooks), shown this once: store it now.',
        },
      },
      'A webhook endpoint with its new secret.',
    ),
    WebhookDelivery: closed(
      {
        id: {
          type: 'string',
          pattern: '^msg_[0-9a-f]{32}$',
          description: 'The `webhook-id` of every attempt.',
        },
        event_id: {
          type: 'string',
          format: 'uuid',
          description: 'The event (one delivery per endpoint and event).',
        },
        type: { type: 'string', description: 'The event type.' },
        status: {
          type: 'string',
          enum: ['pending', 'delivering', 'succeeded', 'failed'],
          description: 'Its state.',
        },
        attempts: { type: 'integer', minimum: 0, description: 'Attempts so far (0 again after a replay).' },
        next_attempt_at: nullable('string', 'When it is next tried (pending, delivering).', 'date-time'),
        last_status_code: nullable('integer', "The receiver's last HTTP status."),
        last_error: nullable('string', 'Why the last attempt failed.'),
        latency_ms: nullable('integer', 'How long the last attempt took.'),
        response: nullable('string', "The start of the receiver's last answer (at most 4 KiB)."),
        delivered_at: nullable('string', 'When it succeeded.', 'date-time'),
        created_at: { type: 'string', format: 'date-time', description: 'When it was queued.' },
      },
      'One message to one endpoint, and how its delivery went.',
    ),
    WebhookCreateRequest: {
      type: 'object',
      required: ['url', 'event_types'],
      additionalProperties: false,
      properties: {
        url: {
          type: 'string',
          maxLength: MAX_WEBHOOK_URL_LENGTH,
          description: 'https (http where the operator allows it), no credentials.',
        },
        event_types: EVENT_TYPES,
        enabled: {
          type: 'boolean',
          default: true,
          description: 'false: created disabled (listens to nothing until enabled).',
        },
      },
    },
    WebhookUpdateRequest: {
      type: 'object',
      minProperties: 1,
      additionalProperties: false,
      properties: {
        url: { type: 'string', maxLength: MAX_WEBHOOK_URL_LENGTH, description: 'A new URL.' },
        event_types: EVENT_TYPES,
        enabled: { type: 'boolean', description: 'Enable (again) or disable.' },
      },
    },
  };
}

const ID: ParameterObject = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The endpoint (another owner’s answers 404).',
  schema: { type: 'string', format: 'uuid' },
};
const DELIVERY_ID: ParameterObject = {
  name: 'delivery_id',
  in: 'path',
  required: true,
  description: 'The delivery (its `webhook-id`).',
  schema: { type: 'string', pattern: '^msg_[0-9a-f]{32}$' },
};
const body = (name: string): RequestBodyObject => ({
  description: 'A JSON object.',
  required: true,
  content: { 'application/json': { schema: schemaRef(name) } },
});

const readErrors = (notFound: boolean) =>
  errors({
    400: ['bad_request', 'invalid_page'],
    401: ['invalid_token', 'unauthorized'],
    403: ['insufficient_scope'],
    ...(notFound
      ? { 404: { codes: ['not_found'], description: 'No such webhook (or delivery) of yours.' } }
      : {}),
    429: ['rate_limited'],
    503: ['dependency_unavailable'],
  });
const writeErrors = (notFound: boolean, validates: boolean) =>
  errors({
    400: ['bad_request'],
    401: ['invalid_token', 'unauthorized'],
    403: ['insufficient_scope'],
    ...(notFound
      ? { 404: { codes: ['not_found'], description: 'No such webhook (or delivery) of yours.' } }
      : {}),
    ...(validates ? { 415: ['unsupported_media_type'], 422: ['validation_failed'] } : {}),
    429: ['rate_limited'],
    503: ['dependency_unavailable'],
  });

const op = (
  operationId: string,
  summary: string,
  description: string,
  rest: Omit<OperationObject, 'operationId' | 'summary' | 'description' | 'tags'>,
): OperationObject => ({ operationId, tags: ['Webhooks'], summary, description, ...rest });

/** The `paths` of the Webhooks operations. */
export function webhookPaths(): OpenApiDocument['paths'] {
  const list = (name: string) => ({ type: 'array', items: schemaRef(name) }) as JsonSchema;
  return {
    '/webhooks': {
      get: op(
        'listWebhooks',
        'Your webhook endpoints',
        'Every endpoint of the caller, oldest first. `pushes:read`.',
        {
          security: tokens('pushes:read'),
          responses: { 200: jsonResponse('The endpoints.', list('Webhook')), ...readErrors(false) },
        },
      ),
      post: op(
        'createWebhook',
        'Add a webhook endpoint',
        'Events of your pushes are POSTed to `url`, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). The answer carries the `secret`, shown this once. At most 10 endpoints. `pushes:write`.',
        {
          security: tokens('pushes:write'),
          requestBody: body('WebhookCreateRequest'),
          responses: {
            201: jsonRef('The endpoint and its secret.', 'WebhookWithSecret'),
            ...writeErrors(false, true),
          },
        },
      ),
    },
    '/webhooks/{id}': {
      get: op('getWebhook', 'One webhook endpoint', 'The endpoint. `pushes:read`.', {
        security: tokens('pushes:read'),
        parameters: [ID],
        responses: { 200: jsonRef('The endpoint.', 'Webhook'), ...readErrors(true) },
      }),
      patch: op(
        'updateWebhook',
        'Change a webhook endpoint',
        'Its URL, event types, or enabled (enabling clears the reason it was disabled). `pushes:write`.',
        {
          security: tokens('pushes:write'),
          parameters: [ID],
          requestBody: body('WebhookUpdateRequest'),
          responses: { 200: jsonRef('The endpoint.', 'Webhook'), ...writeErrors(true, true) },
        },
      ),
      delete: op(
        'deleteWebhook',
        'Delete a webhook endpoint',
        'The endpoint and its delivery log; queued messages are not sent. `pushes:write`.',
        {
          security: tokens('pushes:write'),
          parameters: [ID],
          responses: { 200: jsonRef('The deleted endpoint.', 'Webhook'), ...writeErrors(true, false) },
        },
      ),
    },
    '/webhooks/{id}/rotate': {
      post: op(
        'rotateWebhookSecret',
        'Rotate the signing secret',
        'A new secret, shown this once, signs from now; the previous one also signs for 24 hours (`previous_secret_expires_at`): messages carry both signatures meanwhile. `pushes:write`.',
        {
          security: tokens('pushes:write'),
          parameters: [ID],
          responses: {
            200: jsonRef('The endpoint and its new secret.', 'WebhookWithSecret'),
            ...writeErrors(true, false),
          },
        },
      ),
    },
    '/webhooks/{id}/test': {
      post: op(
        'testWebhook',
        'Send a test event',
        'Queues a `webhook.test` message to the endpoint. `pushes:write`.',
        {
          security: tokens('pushes:write'),
          parameters: [ID],
          responses: { 202: jsonRef('The queued delivery.', 'WebhookDelivery'), ...writeErrors(true, false) },
        },
      ),
    },
    '/webhooks/{id}/deliveries': {
      get: op(
        'listWebhookDeliveries',
        'The delivery log',
        'Deliveries newest first, 50 per page. `pushes:read`.',
        {
          security: tokens('pushes:read'),
          parameters: [ID, PAGE],
          responses: { 200: jsonResponse('One page.', list('WebhookDelivery')), ...readErrors(true) },
        },
      ),
    },
    '/webhooks/{id}/deliveries/{delivery_id}': {
      get: op('getWebhookDelivery', 'One delivery', 'A delivery of the log. `pushes:read`.', {
        security: tokens('pushes:read'),
        parameters: [ID, DELIVERY_ID],
        responses: { 200: jsonRef('The delivery.', 'WebhookDelivery'), ...readErrors(true) },
      }),
    },
    '/webhooks/{id}/deliveries/{delivery_id}/replay': {
      post: op(
        'replayWebhookDelivery',
        'Send a delivery again',
        'The same message (same `webhook-id` and body, signed afresh) is due now with a fresh retry schedule: receivers that deduplicate on `webhook-id` ignore what they already have. A delivery being sent right now is left as it is. `pushes:write`.',
        {
          security: tokens('pushes:write'),
          parameters: [ID, DELIVERY_ID],
          responses: {
            202: jsonRef('The delivery, due now.', 'WebhookDelivery'),
            ...writeErrors(true, false),
          },
        },
      ),
    },
  };
}
