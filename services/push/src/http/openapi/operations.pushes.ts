import { jsonRef, pushList } from './responses';
import {
  type OperationContext,
  PAGE,
  anonymous401,
  errors,
  optionalTokens,
  schemaRef,
  tokens,
} from './operations.shared';
import type {
  HeaderObject,
  OperationObject,
  ParameterObject,
  RequestBodyObject,
  ResponseObject,
} from './types';

/* The Pushes and Lists operations: create, retrieve, reveal, preview, audit, expire and the lists. */

const withHeaders = (response: ResponseObject, headers: Record<string, HeaderObject>): ResponseObject => ({
  ...response,
  headers: { ...response.headers, ...headers },
});

export const URL_TOKEN: ParameterObject = {
  name: 'url_token',
  in: 'path',
  required: true,
  description: 'The push token (the `url_token` of the push). Tokens that cannot exist answer 404.',
  schema: { type: 'string' },
};

const PASSPHRASE_PARAMETERS: ParameterObject[] = [
  {
    name: 'passphrase',
    in: 'query',
    required: false,
    description:
      'The passphrase, for existing clients. Prefer the header or the reveal operation: URLs get logged.',
    schema: { type: 'string' },
  },
  {
    name: 'X-Passphrase',
    in: 'header',
    required: false,
    description: 'The passphrase (used when the query parameter is absent).',
    schema: { type: 'string' },
  },
];

const FORM_ENCODING = { push: { style: 'deepObject', explode: true } } as const;

const MULTIPART = {
  'multipart/form-data': {
    schema: schemaRef('CreatePushRequest'),
    encoding: { push: { style: 'deepObject', explode: true } },
  },
} as const;

const createBody = (files: boolean): RequestBodyObject => ({
  description: files
    ? 'JSON `{"push": {…}}`, an HTML form with `push[payload]`, `push[expire_after_views]`, …, or `multipart/form-data` with the same fields and the files as repeated `push[files][]` parts (streamed to the object store; count, size per file and total size are limited: 422 for too many files, 413 for too large). A missing or non-object `push` → 400.'
    : 'JSON `{"push": {…}}`, or an HTML form with `push[payload]`, `push[expire_after_views]`, … A missing or non-object `push` → 400.',
  required: true,
  content: {
    ...CREATE_CONTENT,
    ...(files ? MULTIPART : {}),
  },
});

const CREATE_CONTENT: RequestBodyObject['content'] = {
  'application/json': {
    schema: schemaRef('CreatePushRequest'),
    example: {
      push: { payload: 'correct horse battery staple', expire_after_days: 2, expire_after_views: 3 },
    },
  },
  'application/x-www-form-urlencoded': { schema: schemaRef('CreatePushRequest'), encoding: FORM_ENCODING },
};

const IDEMPOTENCY_KEY: ParameterObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    "Makes the create safe to retry: send a new random key (a UUID) with each create and the same key with its retries. A retry of the same request (the same fields once parsed, whatever their order or spelling, and for a file push the same file names, sizes and bytes) answers 201 with the push the first create made, as it is now (it may have expired since), header `Idempotent-Replayed: true`, and creates nothing. The same key with another request → 422 `idempotency_key_reused`. Keys belong to the token's client, or to the client IP for anonymous creates (an anonymous caller's key must be at least 32 characters, so that others behind the same address cannot guess it), and are remembered after the first create for 24 hours by default (`PUSH_IDEMPOTENCY_TTL_SECONDS`); a create that failed leaves no key behind. A retry that arrives while the first create is still running waits for it. 1–255 visible ASCII characters (0x21–0x7E), else 400 `bad_request`.",
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
};

const REVEAL_ID: ParameterObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'A reveal id, to make the reveal safe to retry: send a new random id (a UUID) with each reveal and the same id with its retries. A repeat with the same id (and the same passphrase) within `PUSH_REVEAL_RETRY_SECONDS` (120 s by default) answers with the same content, the push as it is now, without using another view, writing an audit entry or counting a metric. A repeat of the **last** view is answered so only where the operator enabled `PUSH_REVEAL_RETRY_LAST_VIEW`; otherwise it gets the expired answer. Ids are bound to the push, not to the caller: keep them secret. Without Redis the id is ignored (the reveal uses a view). `GET /pushes/{url_token}` ignores this header: every GET uses a view. 32–255 visible ASCII characters (0x21–0x7E), else 400 `bad_request`.',
  schema: { type: 'string', minLength: 32, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
};

const REPLAYED: HeaderObject = {
  description: '`true` when the answer is the push an earlier create with the same `Idempotency-Key` made.',
  schema: { type: 'string', const: 'true' },
};

const REVEAL_BODY: RequestBodyObject = {
  description: 'The passphrase in the body keeps it out of URLs and logs.',
  required: false,
  content: {
    'application/json': { schema: schemaRef('RevealRequest') },
    'application/x-www-form-urlencoded': { schema: schemaRef('RevealRequest') },
  },
};

export function createOperation(ctx: OperationContext): OperationObject {
  const who = ctx.anonymous
    ? 'Without a token the push is anonymous: nobody can list it or read its audit log. A token, when sent,'
    : 'A token is required; it';
  return {
    operationId: 'createPush',
    tags: ['Pushes'],
    summary: 'Create a push',
    description: `${who} needs the \`pushes:write\` scope, and the push then belongs to the token's client. Numbers and booleans may be sent as strings. Out-of-range or malformed values → 422 naming the field and the allowed range. The response is the only place that shows the \`url_token\` of an anonymous push, and its \`name\` and \`note\`.`,
    parameters: [IDEMPOTENCY_KEY],
    requestBody: createBody(ctx.files),
    security: optionalTokens(ctx, 'pushes:write'),
    responses: {
      201: withHeaders(
        jsonRef(
          'The new push, with `name` and `note`; or, for a retry with the same `Idempotency-Key`, the push the first create made.',
          'OwnedPush',
        ),
        { 'Idempotent-Replayed': REPLAYED },
      ),
      ...errors({
        400: {
          codes: ['bad_request'],
          description:
            'Missing or non-object `push`, invalid JSON, a token outside the Authorization header, or a malformed `Idempotency-Key`.',
        },
        401: ctx.anonymousCreateRefused ? ['invalid_token', 'unauthorized'] : ['invalid_token'],
        403: { codes: ['insufficient_scope'], description: 'The token lacks `pushes:write`.' },
        404: !ctx.pushesEnabled && {
          codes: ['not_found'],
          description: 'Pushes are disabled on this instance.',
        },
        413: ['payload_too_large'],
        415: ['unsupported_media_type'],
        422: {
          codes: ['validation_failed', 'idempotency_key_reused'],
          description:
            'A field out of range or of the wrong type (`validation_failed`, with `fields`), or an `Idempotency-Key` already used with another request (`idempotency_key_reused`).',
        },
        429: ['rate_limited'],
        503: ['dependency_unavailable'],
      }),
    },
  };
}

const RETRIEVE_RULES =
  "Every successful retrieval uses one view, the owner's too, and is audited. The retrieval that uses the last view returns the payload with `views_remaining: 0` and `expired: true`. An expired push answers 200 with `expired: true`, `payload: null` and `files: []`. A passphrase that is missing or wrong → 401 `passphrase_required`, and no view is used; every attempt with a passphrase counts against a per-push and per-IP limit (429 beyond it), and if Redis is down such attempts answer 503.";

export function retrieveOperation(ctx: OperationContext): OperationObject {
  return {
    operationId: 'retrievePush',
    tags: ['Pushes'],
    summary: 'Retrieve a push (uses a view)',
    description: `${RETRIEVE_RULES} A push's \`json_url\` is this URL, so following it uses a view; owners check their pushes without using views through the lists and the preview.`,
    parameters: [URL_TOKEN, ...PASSPHRASE_PARAMETERS],
    security: optionalTokens(ctx),
    responses: {
      200: jsonRef('The push with its payload (null once expired).', 'RetrievedPush'),
      ...errors({
        400: ['bad_request'],
        401: {
          codes: anonymous401(ctx, 'passphrase_required'),
          description:
            'Missing or wrong passphrase (`passphrase_required`, with a `message` on how to send it), or an invalid token.',
        },
        404: ['not_found'],
        429: ['rate_limited'],
        503: ['dependency_unavailable'],
      }),
    },
  };
}

export function revealOperation(ctx: OperationContext): OperationObject {
  const retrieve = retrieveOperation(ctx);
  return {
    ...retrieve,
    operationId: 'revealPush',
    summary: 'Retrieve a push with the passphrase in the body (uses a view)',
    description: `The same as GET /pushes/{url_token}, with the passphrase in the body (falling back to the query parameter or header). ${RETRIEVE_RULES}`,
    parameters: [URL_TOKEN, REVEAL_ID],
    requestBody: REVEAL_BODY,
    responses: {
      ...retrieve.responses,
      ...errors({
        400: { codes: ['bad_request'], description: 'A malformed `Idempotency-Key` (reveal id).' },
        413: ['payload_too_large'],
        415: ['unsupported_media_type'],
        422: { codes: ['validation_failed'], description: '`passphrase` is not a string.' },
      }),
    },
  };
}

export function previewOperation(ctx: OperationContext): OperationObject {
  return {
    operationId: 'previewPush',
    tags: ['Pushes'],
    summary: 'The recipient link of a push (no view)',
    description: 'Uses no view and works for expired pushes too.',
    parameters: [URL_TOKEN],
    security: optionalTokens(ctx),
    responses: {
      200: jsonRef('The `html_url` of the push.', 'Preview'),
      ...errors({
        400: ['bad_request'],
        401: anonymous401(ctx),
        404: ['not_found'],
        429: ['rate_limited'],
        503: ['dependency_unavailable'],
      }),
    },
  };
}

export function auditOperation(): OperationObject {
  return {
    operationId: 'getPushAudit',
    tags: ['Pushes'],
    summary: 'Audit log of a push (owner only)',
    description:
      'Entries oldest first, 50 per page, with a `Link` header to the neighbouring pages. Owner only, with the `pushes:read` scope.',
    parameters: [URL_TOKEN, PAGE],
    security: tokens('pushes:read'),
    responses: {
      200: jsonRef('One page of the audit log.', 'AuditLog', true),
      ...errors({
        400: ['bad_request', 'invalid_page'],
        401: ['invalid_token', 'unauthorized'],
        403: ['insufficient_scope', 'forbidden'],
        404: ['not_found'],
        429: ['rate_limited'],
        503: ['dependency_unavailable'],
      }),
    },
  };
}

export function expireOperation(ctx: OperationContext): OperationObject {
  return {
    operationId: 'expirePush',
    tags: ['Pushes'],
    summary: 'Expire a push now',
    description:
      'The owner (with `pushes:write`) may always expire a push; anyone, with any token or none, when the push is `deletable_by_viewer`. Otherwise anonymous → 401, another client → 403 `forbidden`, the owner without `pushes:write` → 403 `insufficient_scope`. Wipes the payload and audits `expire`; an already expired push answers 200 unchanged.',
    parameters: [URL_TOKEN],
    security: optionalTokens(ctx),
    responses: {
      200: jsonRef('The expired push (no payload).', 'Push'),
      ...errors({
        400: ['bad_request'],
        401: ['invalid_token', 'unauthorized'],
        403: {
          codes: ['forbidden', 'insufficient_scope'],
          description:
            'Not deletable by viewers, and the caller is not the owner (`forbidden`), or is the owner with a token that lacks `pushes:write` (`insufficient_scope`).',
        },
        404: ['not_found'],
        429: ['rate_limited'],
        503: ['dependency_unavailable'],
      }),
    },
  };
}

export function listOperation(ctx: OperationContext, state: 'active' | 'expired'): OperationObject {
  const which =
    state === 'active'
      ? 'still active'
      : 'expired (a push past its window is listed here even before the worker ran)';
  return {
    operationId: state === 'active' ? 'listActivePushes' : 'listExpiredPushes',
    tags: ['Lists'],
    summary: `List your ${state} pushes`,
    description: `The caller's own pushes that are ${which}, newest first, 50 per page, with \`name\` and \`note\` and never the payload. Needs \`pushes:read\`; uses no views. A \`Link\` header gives the next and previous pages.`,
    parameters: [PAGE],
    security: tokens('pushes:read'),
    responses: {
      200: pushList(`One page of ${state} pushes.`),
      ...errors({
        400: ['bad_request', 'invalid_page'],
        401: ['invalid_token', 'unauthorized'],
        403: ['insufficient_scope'],
        404: !ctx.pushesEnabled && {
          codes: ['not_found'],
          description: 'Pushes are disabled on this instance.',
        },
        503: ['dependency_unavailable'],
      }),
    },
  };
}
