import type { PushConfig } from '../../config';
import { buildPaths } from './operations';
import { schemaRef } from './operations.shared';
import { pushInputJsonSchema } from './push-input.schema';
import { responseSchemas } from './responses';
import type { JsonSchema, OpenApiDocument } from './types';
import { webhookSchemas } from './operations.webhooks';
import { requestSchemas as requestComponentSchemas } from './requests.schema';

/*
 * The OpenAPI 3.1 document of the push API v2, built from instance configuration so that
 * bounds, enabled kinds and anonymous access match what this instance enforces. The create body
 * schema is derived from the zod schema that validates requests (push-input.schema.ts); the HTML
 * rendering for /api/v2/docs is docs-page.ts. test/openapi.int.test.ts checks the document against
 * the running API.
 */

function introduction(config: PushConfig): string {
  const r = config.rateLimits;
  const anonymous = config.features.anonymousAccess
    ? 'Creating (except file pushes when they need authentication), retrieving, previewing and viewer-deleting work without a token.'
    : 'This instance requires a token on every endpoint except `/version`, `/openapi` and `/docs`.';
  return [
    'Share secrets through links that expire after a number of views or days.',
    `**Authentication.** \`Authorization: Bearer <token>\` with an access token from the auth service (OAuth 2 client credentials) or a personal API token (\`spu_…\`, created by a user at \`/users/token\`); Password Pusher's legacy \`X-User-Email\` + \`X-User-Token\` pair is accepted for personal tokens. Scopes: \`pushes:read\` and \`pushes:write\`. ${anonymous} An invalid token is refused (401) even where none is needed, except on \`/version\`.`,
    '**Errors.** Every error is JSON `{"error", "code", "request_id"}`; a 422 adds `fields` with messages by field name. Display `error`; branch on `code`. An unknown path answers 404 `not_found`. A 500 is always a bug and never shows internals.',
    '**`.json` suffix.** Every path also answers with a `.json` suffix (`/pushes/TOKEN.json`, `/version.json`), as existing clients use it.',
    `**Rate limits.** Per client IP, per minute: ${r.createPerMinute} creates, ${r.retrievePerMinute} retrievals and ${r.lookupPerMinute} previews, audit pages and DELETEs together; passphrase attempts: ${r.passphrasePerPush} per push and ${r.passphrasePerIp} per IP. Beyond them: 429 with \`Retry-After\`.`,
    '**Caching.** Every response carries `Cache-Control: no-store`; request bodies are limited to 16 MiB.',
  ].join('\n\n');
}

function bearerDescription(config: PushConfig): string {
  const seconds = config.auth.cacheSeconds;
  const cache =
    seconds > 0
      ? `Introspection results are cached for up to ${seconds} s (never past the token's expiry), so a revoked token keeps working for at most ${seconds} s more.`
      : 'Introspection results are not cached: revocation takes effect at once.';
  return `An opaque OAuth 2 access token from the auth service's \`POST /connect/token\` (grant \`client_credentials\`, client authentication by HTTP Basic or form fields). Scopes: \`pushes:read\` (lists, audit) and \`pushes:write\` (create, owner DELETE). The push service validates it by introspection at the auth service. ${cache} Send it in the Authorization header only: \`access_token\` in the query string or body → 400.`;
}

function personalTokenDescription(config: PushConfig): string {
  const seconds = config.personalTokens.cacheSeconds;
  const cache =
    seconds > 0
      ? `Lookups are cached for up to ${seconds} s, so a revoked or regenerated token, or a token of a disabled user, keeps working for at most ${seconds} s more.`
      : 'Lookups are not cached: revocation takes effect at once.';
  return `A personal API token of a user, created at \`/users/token\`: \`spu_\` followed by 43 base64url characters, shown once. Its scopes are the ones chosen for it (\`pushes:read\`, \`pushes:write\`); it may expire. The caller is the user (\`user:<id>\`): every token of the same user owns the same pushes. Validated by the push service itself, never sent to the auth service. ${cache}`;
}

const LEGACY_PAIR =
  "Password Pusher's legacy headers, always sent together: `X-User-Token` carries a personal API token, `X-User-Email` its user's email. Without an `Authorization` header they authenticate with that token. With one, `X-User-Token` must be the same token. With a personal token, `X-User-Email` must be the user's email (any case) **and** the user's identity provider must have verified it, else 401 `invalid_token` (Password Pusher does not check the email when both headers are sent; this service does). With an access token, whose client has no email, `X-User-Email` is not checked.";

function requestSchemas(config: PushConfig): Record<string, JsonSchema> {
  return {
    PushInput: pushInputJsonSchema(config),
    CreatePushRequest: {
      type: 'object',
      properties: { push: schemaRef('PushInput') },
      required: ['push'],
    },
    RevealRequest: {
      type: 'object',
      properties: { passphrase: { type: 'string', description: 'The passphrase of the push.' } },
    },
  };
}

/** The OpenAPI 3.1.0 document of the push API, for this instance's configuration. */
export function buildOpenApi(config: PushConfig): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title: 'secret-push API', version: '2.1', description: introduction(config) },
    servers: [{ url: `${config.publicUrl}/api/v2` }],
    tags: [
      { name: 'Pushes', description: 'Create, retrieve and expire pushes.' },
      { name: 'Lists', description: "The caller's own pushes." },
      ...(config.features.filePushes
        ? [{ name: 'Files', description: 'Downloads of the files of file pushes.' }]
        : []),
      { name: 'Webhooks', description: 'Signed messages about your pushes, sent to your endpoints.' },
      ...(config.features.requestsEnabled
        ? [{ name: 'Requests', description: 'Ask somebody for a secret: a link they answer once.' }]
        : []),
      { name: 'Meta', description: 'Version and documentation.' },
    ],
    paths: buildPaths(config),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: bearerDescription(config) },
        personalToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'spu_',
          description: personalTokenDescription(config),
        },
        legacyUserEmail: { type: 'apiKey', in: 'header', name: 'X-User-Email', description: LEGACY_PAIR },
        legacyUserToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-User-Token',
          description: 'The personal API token of the legacy pair (see `X-User-Email`).',
        },
      },
      schemas: {
        ...requestSchemas(config),
        ...responseSchemas(),
        ...webhookSchemas(),
        ...(config.features.requestsEnabled ? requestComponentSchemas(config) : {}),
      },
    },
  };
}
