import { REQUEST_LISTS } from '../../domain/request';
import { jsonRef, jsonResponse } from './responses';
import {
  type OperationContext,
  PAGE,
  anonymous401,
  errors,
  optionalTokens,
  schemaRef,
  tokens,
} from './operations.shared';
import {
  REQUEST_FILES_NOTE,
  requestCreateMultipart,
  requestFileDownloadOperation,
  respondMultipart,
} from './operations.request-files';
import { DEFAULT_CODE_LIMITS, type RequestCodeLimits, codeValidMinutes } from '../../domain/request-codes';
import type { MediaTypeObject, OpenApiDocument, OperationObject, ParameterObject } from './types';

/* The Requests operations (http/request*.routes.ts): the owner's create, lists, reads and close; the responder's view, answer and code. */

/** What an instance's configuration changes in the Requests operations. */
export interface RequestsContext extends OperationContext {
  /** SMTP configured: `POST /requests/{url_token}/code` exists. */
  mail: boolean;
  /** The one-time codes' limits (PUSH_REQUEST_CODE_*); the defaults when absent. */
  codes?: RequestCodeLimits;
}

/** The code operation's description, with the instance's limits. */
function codeDescription(limits: RequestCodeLimits): string {
  const minutes = codeValidMinutes(limits.ttlSeconds);
  const window = codeValidMinutes(limits.rateWindowSeconds);
  return `For \`answerable_by: emails\`: a 6-digit code, valid ${minutes} minutes (${limits.maxAttempts} attempts), is emailed when the address is listed; asking again within ${limits.resendSeconds} s sends nothing. Always the same 202 (no enumeration). Rate limited: ${limits.requestsPerIp} per IP and ${limits.requestsPerRequest} per request in ${window} minutes (429).`;
}

const URL_TOKEN: ParameterObject = {
  name: 'url_token',
  in: 'path',
  required: true,
  description: 'The request token (its `url_token`).',
  schema: { type: 'string' },
};

const op = (
  operationId: string,
  summary: string,
  description: string,
  rest: Omit<OperationObject, 'operationId' | 'summary' | 'description' | 'tags'>,
): OperationObject => ({ operationId, tags: ['Requests'], summary, description, ...rest });

const bodies = (schema: string, key: string, multipart?: Record<string, MediaTypeObject>) => ({
  'application/json': { schema: schemaRef(schema) },
  'application/x-www-form-urlencoded': {
    schema: schemaRef(schema),
    encoding: { [key]: { style: 'deepObject', explode: true } } as MediaTypeObject['encoding'],
  },
  ...(multipart ?? {}),
});

const ownerErrors = (write: boolean) =>
  errors({
    400: ['bad_request', 'invalid_page'],
    401: ['invalid_token', 'unauthorized'],
    403: write ? ['insufficient_scope', 'forbidden'] : ['insufficient_scope', 'forbidden'],
    404: { codes: ['not_found'], description: 'Unknown request token.' },
    429: ['rate_limited'],
    503: ['dependency_unavailable'],
  });

const responderErrors = (ctx: OperationContext) => ({
  401: ['invalid_token', 'unauthorized'] as const,
  403: { codes: ['forbidden'] as const, description: 'Answerable by users, and this is a client token.' },
  404: {
    codes: ['not_found'] as const,
    description: 'Unknown, closed or past its window (indistinguishable).',
  },
  409: { codes: ['already_answered'] as const, description: 'The request was already answered.' },
  429: ['rate_limited'] as const,
  503: ['dependency_unavailable'] as const,
  ...(ctx.anonymous ? {} : {}),
});

function createOperation(ctx: OperationContext): OperationObject {
  return op(
    'createRequest',
    'Request a secret',
    `Creates a request: a link (\`html_url\`) for somebody to send you a secret. \`pushes:write\`. The answer becomes a push you own, with the request's answer limits. ${ctx.files ? REQUEST_FILES_NOTE : ''}`,
    {
      security: tokens('pushes:write'),
      requestBody: {
        description: 'The request: JSON, form fields `request[…]`, or multipart with `request[files][]`.',
        required: true,
        content: bodies('CreateRequestBody', 'request', requestCreateMultipart('CreateRequestBody')),
      },
      responses: {
        201: jsonRef('The request.', 'RequestView'),
        ...errors({
          400: ['bad_request'],
          401: ['invalid_token', 'unauthorized'],
          403: ['insufficient_scope', 'forbidden'],
          413: ['payload_too_large'],
          415: ['unsupported_media_type'],
          422: ['validation_failed'],
          429: ['rate_limited'],
          503: ['dependency_unavailable'],
        }),
      },
    },
  );
}

function listOperation(which: string, bare = false): OperationObject {
  const id = bare ? 'listRequests' : `list${which[0]!.toUpperCase()}${which.slice(1)}Requests`;
  return op(
    id,
    bare ? 'Your active requests' : `Your ${which} requests`,
    `${bare ? 'The same as `/requests/active`: ' : ''}the caller's own requests${which === 'active' ? ' that are open or answered' : which === 'ready' ? ' that are answered (ready to read)' : ` in state \`${which}\``}, newest first, 50 per page, with a \`Link\` header. \`pushes:read\`.`,
    {
      security: tokens('pushes:read'),
      parameters: [PAGE],
      responses: {
        200: jsonResponse(
          'One page.',
          { type: 'array', items: schemaRef('RequestView'), maxItems: 50 },
          true,
        ),
        ...errors({
          400: ['bad_request', 'invalid_page'],
          401: ['invalid_token', 'unauthorized'],
          403: ['insufficient_scope'],
          503: ['dependency_unavailable'],
        }),
      },
    },
  );
}

function respondOperation(ctx: OperationContext, method: 'post' | 'patch'): OperationObject {
  return op(
    method === 'post' ? 'answerRequest' : 'answerRequestPatch',
    method === 'post' ? 'Answer a request (the responder)' : 'Answer a request (PATCH, as POST)',
    `Answers once: the payload (and files, where the request allows them) become a push owned by the requester. No scope needed (anonymous while the instance allows it). \`answerable_by: users\` needs a person's token; \`emails\` needs \`email\` + a valid \`code\` (403 \`code_required\`). A passphrase request needs \`passphrase\` (401 \`passphrase_required\`; 429 after the push passphrase limits). Never returns the answer's token.${ctx.files ? ` ${REQUEST_FILES_NOTE}` : ''}`,
    {
      security: optionalTokens(ctx),
      parameters: [URL_TOKEN],
      requestBody: {
        description: 'The answer: JSON, form fields `response[…]`, or multipart with `response[files][]`.',
        required: true,
        content: bodies('RespondBody', 'response', respondMultipart('RespondBody')),
      },
      responses: {
        201: jsonRef('Answered.', 'Answered'),
        ...errors({
          ...responderErrors(ctx),
          400: ['bad_request'],
          401: {
            codes: anonymous401(ctx, 'passphrase_required', 'unauthorized'),
            description: 'Passphrase missing or wrong, a user is needed, or an invalid token.',
          },
          403: {
            codes: ['forbidden', 'code_required'],
            description:
              'A client token where a person is needed (`forbidden`), or no valid code (`code_required`).',
          },
          413: ['payload_too_large'],
          415: ['unsupported_media_type'],
          422: ['validation_failed'],
        }),
      },
    },
  );
}

/** The `paths` of the Requests operations. */
export function requestPaths(ctx: RequestsContext): OpenApiDocument['paths'] {
  const t = '/requests/{url_token}';
  return {
    '/requests': { get: listOperation('active', true), post: createOperation(ctx) },
    ...Object.fromEntries(REQUEST_LISTS.map((w) => [`/requests/${w}`, { get: listOperation(w) }])),
    [t]: {
      get: op(
        'getRequest',
        'One request (owner)',
        'The request, with its answer’s link once answered. `pushes:read`.',
        {
          security: tokens('pushes:read'),
          parameters: [URL_TOKEN],
          responses: { 200: jsonRef('The request.', 'RequestView'), ...ownerErrors(false) },
        },
      ),
      delete: op(
        'closeRequest',
        'Close a request (owner)',
        'Closes it (`closed_reason: owner`) and purges your attachments; closing a closed request answers the same 200. An answer already given stays a push of its own. `pushes:write`.',
        {
          security: tokens('pushes:write'),
          parameters: [URL_TOKEN],
          responses: { 200: jsonRef('The closed request.', 'RequestView'), ...ownerErrors(true) },
        },
      ),
    },
    [`${t}/preview`]: {
      get: op('previewRequest', 'The responder link (owner)', '`{"url": html_url}`. `pushes:read`.', {
        security: tokens('pushes:read'),
        parameters: [URL_TOKEN],
        responses: { 200: jsonRef('The link.', 'Preview'), ...ownerErrors(false) },
      }),
    },
    [`${t}/audit`]: {
      get: op(
        'getRequestAudit',
        'Audit log of a request (owner)',
        'Entries oldest first, 50 per page, with a `Link` header. `pushes:read`.',
        {
          security: tokens('pushes:read'),
          parameters: [URL_TOKEN, PAGE],
          responses: { 200: jsonRef('One page.', 'RequestAuditLog', true), ...ownerErrors(false) },
        },
      ),
    },
    [`${t}/respond`]: {
      get: op(
        'viewRequest',
        'What the responder sees',
        'The message, whether a passphrase is needed, who may answer, the attachments and upload limits. Audited `link_opened`; spends nothing. No scope needed (anonymous while the instance allows it).',
        {
          security: optionalTokens(ctx),
          parameters: [URL_TOKEN],
          responses: {
            200: jsonRef('The responder view.', 'ResponderView'),
            ...errors({ ...responderErrors(ctx), 403: false, 401: anonymous401(ctx) }),
          },
        },
      ),
      post: respondOperation(ctx, 'post'),
      patch: respondOperation(ctx, 'patch'),
    },
    ...(ctx.mail
      ? {
          [`${t}/code`]: {
            post: op(
              'sendRequestCode',
              'Send a one-time code (the responder)',
              codeDescription(ctx.codes ?? DEFAULT_CODE_LIMITS),
              {
                security: optionalTokens(ctx),
                parameters: [URL_TOKEN],
                requestBody: {
                  description: '`{"email": …}` as JSON or a form.',
                  required: true,
                  content: {
                    'application/json': { schema: schemaRef('CodeBody') },
                    'application/x-www-form-urlencoded': { schema: schemaRef('CodeBody') },
                  },
                },
                responses: {
                  202: jsonRef('Always this answer.', 'CodeSent'),
                  ...errors({
                    400: ['bad_request'],
                    401: anonymous401(ctx),
                    415: ['unsupported_media_type'],
                    422: ['validation_failed'],
                    429: ['rate_limited'],
                    503: ['dependency_unavailable'],
                  }),
                },
              },
            ),
          },
        }
      : {}),
    ...(ctx.files ? { [`${t}/files/{file_id}`]: { get: requestFileDownloadOperation(ctx.anonymous) } } : {}),
  };
}
