import type { ErrorCode } from '@secret-push/http-kit';
import { errorResponse } from './responses';
import type { JsonSchema, ParameterObject, ResponseObject, SecurityRequirement } from './types';

/*
 * What the operations of the document share: error responses by status, security requirements,
 * the paging parameter and references to component schemas.
 */

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 503;

const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Malformed request: invalid JSON, or an access token outside the Authorization header.',
  401: 'No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`).',
  403: 'The token lacks the scope, or the push belongs to someone else.',
  404: 'Unknown push token.',
  409: 'The request was already answered.',
  410: 'Gone: used up.',
  413: 'The request body is over 16 MiB.',
  415: 'Unsupported body charset or content encoding.',
  422: 'Validation failed; `fields` names every bad field.',
  429: 'Rate limited; retry after `Retry-After` seconds.',
  503: 'A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds.',
};

type ErrorSpec = readonly ErrorCode[] | { codes: readonly ErrorCode[]; description: string };

/** Error responses by status; the default description of a status is used unless one is given. */
export function errors(
  specs: Partial<Record<ErrorStatus, ErrorSpec | false>>,
): Record<string, ResponseObject> {
  const out: Record<string, ResponseObject> = {};
  for (const [key, spec] of Object.entries(specs)) {
    if (!spec) continue;
    const status = Number(key) as ErrorStatus;
    const { codes, description } =
      'codes' in spec ? spec : { codes: spec, description: ERROR_DESCRIPTIONS[status] };
    out[key] = errorResponse(status, description, codes);
  }
  return out;
}

/** What an instance's configuration changes in the operations. */
export interface OperationContext {
  anonymous: boolean;
  pushesEnabled: boolean;
  anonymousCreateRefused: boolean;
  /** File pushes enabled: multipart create and download links. */
  files: boolean;
}

/** No security requirement: a public operation. */
export const PUBLIC: SecurityRequirement[] = [];
/**
 * Any credentials with these scopes (none: any valid credentials): an access token, a personal API
 * token, or the legacy `X-User-Email` + `X-User-Token` pair (both schemes of one requirement).
 */
export const tokens = (...scopes: string[]): SecurityRequirement[] => [
  { bearer: scopes },
  { personalToken: scopes },
  { legacyUserEmail: scopes, legacyUserToken: scopes },
];
/** Anonymous calls where the instance allows them, else any valid credentials. */
export const optionalTokens = (ctx: OperationContext, ...scopes: string[]): SecurityRequirement[] =>
  ctx.anonymous ? [{}, ...tokens(...scopes)] : tokens(...scopes);

/** 401 codes of an endpoint open to anonymous callers on instances that allow it. */
export const anonymous401 = (ctx: OperationContext, ...codes: ErrorCode[]): ErrorCode[] => [
  'invalid_token',
  ...codes,
  ...(ctx.anonymous ? [] : (['unauthorized'] as const)),
];

/** The `page` query parameter of the paged operations. */
export const PAGE: ParameterObject = {
  name: 'page',
  in: 'query',
  required: false,
  description: '50 items per page; outside 1–200 or not an integer → 400 `invalid_page`.',
  schema: { type: 'integer', minimum: 1, maximum: 200, default: 1 },
};

/** A reference to a schema of `components.schemas`. */
export const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
