import { ERROR_CODES, type ErrorCode } from '@secret-push/http-kit';
import { NOTICE_KINDS, SUPPORTED_LOCALES } from '../../domain/email-rules';
import { AUDIT_KINDS, PUSH_KINDS } from '../../domain/push';
import type { HeaderObject, JsonSchema, ResponseObject } from './types';

/*
 * Response schemas of the push API, mirroring push.presenter.ts, version.routes.ts and the error
 * body of packages/http-kit exactly: every key required (but the few present only when they apply,
 * listed as optional), nullability explicit, no extra keys.
 * test/openapi.int.test.ts validates real responses against them.
 */

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** A closed object: every listed property required, nothing else allowed. */
function closedObject(
  properties: Record<string, JsonSchema>,
  description?: string,
  optional: Record<string, JsonSchema> = {},
): JsonSchema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties: { ...properties, ...optional },
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

const text = (description: string): JsonSchema => ({ type: 'string', description });
const flag = (description: string): JsonSchema => ({ type: 'boolean', description });
const timestamp = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', description });
const count = (description: string, minimum: number): JsonSchema => ({
  type: 'integer',
  minimum,
  description,
});

/** The 17 keys every push object carries (Password Pusher's push object, as its clients read it). */
const PUSH_PROPERTIES: Record<string, JsonSchema> = {
  url_token: {
    type: 'string',
    pattern: '^[A-Za-z0-9_-]{8,64}$',
    description: 'The secret part of the links (128 random bits, URL-safe base64).',
  },
  kind: { type: 'string', enum: [...PUSH_KINDS], description: 'What the payload is.' },
  expire_after_days: count('Days the push lives (1 when the window is shorter than a day).', 1),
  expire_after_views: count('Views the push allows.', 1),
  expired: flag('True once no view is left, the window has passed, or the push was deleted.'),
  expired_on: {
    type: ['string', 'null'],
    format: 'date-time',
    description: 'When the push expired; null while active.',
  },
  expires_at: timestamp('The exact end of the time window (authoritative).'),
  deleted: flag('True when expired by DELETE.'),
  deletable_by_viewer: {
    type: ['boolean', 'null'],
    description: 'Whether anyone with the link may DELETE it; always null for `url` pushes.',
  },
  retrieval_step: flag('Whether the recipient page asks for a click before revealing.'),
  passphrase_protected: flag('Whether a passphrase is needed; the passphrase itself is never returned.'),
  days_remaining: count('max(0, ceil((expires_at − now) / 1 day)).', 0),
  views_remaining: count('expire_after_views minus the views used.', 0),
  created_at: timestamp('Creation time (UTC, milliseconds).'),
  updated_at: timestamp('Last change (UTC, milliseconds).'),
  json_url: {
    type: 'string',
    format: 'uri',
    description: 'The live retrieve URL of this push: following it with GET uses a view.',
  },
  html_url: {
    type: 'string',
    format: 'uri',
    description: 'The recipient page (`/p/TOKEN`, `/p/TOKEN/r` with a retrieval step).',
  },
};

const OWNER_PROPERTIES: Record<string, JsonSchema> = {
  name: { type: 'string', maxLength: 1024, description: 'Owner-only label; empty when not set.' },
  note: {
    type: 'string',
    maxLength: 1024,
    description: 'Owner-only note (encrypted at rest); empty when not set or wiped at expiry.',
  },
};

/** Owner-only email keys, present only when they apply. */
const OWNER_EMAIL_PROPERTIES: Record<string, JsonSchema> = {
  notify_owner_on: {
    type: 'array',
    items: { type: 'string', enum: [...NOTICE_KINDS] },
    description: 'The owner notices this push sends; present only when it sends some.',
  },
  notify_emails_to: {
    type: 'string',
    description: 'Create only, when supplied: the recipients the link is emailed to.',
  },
  notify_emails_to_locale: {
    type: 'string',
    enum: [...SUPPORTED_LOCALES],
    description:
      "Create only, when supplied: the language of the email. Not supplied, the emails are in the sender's language at creation (cookie or `Accept-Language`, among the offered languages), else the instance's default (I18N_DEFAULT_LANGUAGE).",
  },
};

const EMAIL_DELIVERY = closedObject(
  {
    recipient: text('The address.'),
    status: { type: 'string', enum: ['queued', 'sent', 'deferred', 'failed'] },
    attempts: count('Delivery attempts so far.', 0),
    detail: {
      type: ['string', 'null'],
      description:
        "The SMTP server's reply when sent; the reason when deferred or failed; null while queued.",
    },
    updated_at: timestamp('Last change of its state.'),
  },
  'One email: its state.',
  {
    purpose: {
      type: 'string',
      enum: ['notice_viewed', 'notice_failed_passphrase', 'notice_expired_unseen'],
      description: 'An owner notice (absent for a recipient’s link).',
    },
  },
);

const NOTIFY_BY_EMAIL = closedObject(
  {
    recipients: text('The addresses of this send, comma-separated.'),
    locale: text('The language of its emails.'),
    status: { type: 'string', enum: ['pending', 'completed', 'partially_failed', 'failed'] },
    successful_sends: text('The addresses the SMTP server accepted, comma-separated.'),
    error_message: { type: ['string', 'null'] },
    proceed_at: timestamp('When the send was queued.'),
    recipients_count: count('How many recipients.', 1),
  },
  "Password Pusher's `notify_by_email` of a `creation_email_send` entry.",
);

const PUSH_FILE = closedObject(
  {
    filename: text('Original file name.'),
    content_type: text('Media type of the file.'),
    size: count('Size in bytes.', 0),
    url: { type: 'string', format: 'uri', description: 'Short-lived download link.' },
  },
  'An attached file.',
);

const RETRIEVE_PROPERTIES: Record<string, JsonSchema> = {
  payload: {
    type: ['string', 'null'],
    description: 'The secret; null when the push is expired (or a file push without text).',
  },
  files: { type: 'array', items: ref('PushFile'), description: '`[]` unless kind is `file`.' },
};

const enabled = (description: string): JsonSchema => closedObject({ enabled: flag(description) });

const VERSION = closedObject(
  {
    application_version: text('Version of this server.'),
    api_version: { type: 'string', const: '2.1' },
    edition: {
      type: 'string',
      enum: ['oss', 'commercial'],
      description: '`commercial` while requests are on (PUSH_REQUESTS_ENABLED), else `oss`.',
    },
    features: closedObject({
      anonymous_access: flag(
        'Whether create (non-file), retrieve, preview and viewer DELETE work without a token.',
      ),
      api_token_authentication: { type: 'boolean', const: true },
      accounts: closedObject({ enabled: { type: 'boolean', const: false } }),
      pushes: closedObject({
        enabled: flag('Whether pushes are enabled at all.'),
        email_auto_dispatch: flag(
          'Whether links can be emailed (`notify_emails_to`, `notify_emails`): true exactly when SMTP is configured.',
        ),
        file_attachments: closedObject({
          enabled: flag('Whether file pushes are enabled.'),
          requires_authentication: flag('Whether file pushes need a token.'),
        }),
        url_pushes: enabled('Whether `url` pushes are enabled.'),
        qr_code_pushes: enabled('Whether `qr` pushes are enabled.'),
      }),
      requests: closedObject({
        enabled: flag('Whether requests (`/requests`) are on.'),
        email_auto_dispatch: flag(
          'Whether request links can be emailed (`notify_emails_to`) and `answerable_by: emails` is offered: true exactly when SMTP is configured.',
        ),
      }),
    }),
  },
  'Server and API version with the instance features.',
);

const AUDIT_ENTRY = closedObject(
  {
    kind: { type: 'string', enum: [...AUDIT_KINDS] },
    ip: { type: ['string', 'null'], description: 'Client address as seen through trusted proxies only.' },
    user_agent: { type: 'string', maxLength: 255 },
    referrer: { type: 'string', maxLength: 255 },
    created_at: timestamp('When it happened.'),
  },
  'One audit log entry.',
  {
    notify_by_email: NOTIFY_BY_EMAIL,
    email_deliveries: {
      type: 'array',
      items: EMAIL_DELIVERY,
      description:
        'A `creation_email_send` entry: each recipient’s email; an entry whose event caused an owner notice: that notice.',
    },
  },
);

/** `key` is present whenever `code` is (the property itself is described on the parent). */
const mustHave = (code: ErrorCode, key: string): JsonSchema => ({
  if: { properties: { code: { const: code } } },
  then: { properties: { [key]: true }, required: [key] },
});

const ERROR_BODY: JsonSchema = {
  type: 'object',
  description: 'Every error answer. Display `error`; branch on `code`.',
  properties: {
    error: text('A human sentence.'),
    code: { type: 'string', enum: [...ERROR_CODES] },
    request_id: text('Quote it when reporting a problem.'),
    fields: {
      type: 'object',
      description: 'Validation errors (422): messages by field name.',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
    message: text('How to send the passphrase (401 `passphrase_required` only).'),
  },
  required: ['error', 'code', 'request_id'],
  additionalProperties: false,
  allOf: [mustHave('validation_failed', 'fields'), mustHave('passphrase_required', 'message')],
};

/** `components.schemas` of the document. */
export function responseSchemas(): Record<string, JsonSchema> {
  return {
    Push: closedObject(PUSH_PROPERTIES, 'A push, as anyone with its token sees it (no payload).'),
    OwnedPush: closedObject(
      { ...PUSH_PROPERTIES, ...OWNER_PROPERTIES },
      'A push as its owner sees it: adds `name` and `note`, never `payload`.',
      OWNER_EMAIL_PROPERTIES,
    ),
    RetrievedPush: closedObject(
      { ...PUSH_PROPERTIES, ...RETRIEVE_PROPERTIES },
      'A retrieved push: adds `payload` and `files`.',
    ),
    PushFile: PUSH_FILE,
    Version: VERSION,
    Preview: closedObject({ url: { type: 'string', format: 'uri', description: 'The `html_url`.' } }),
    AuditEntry: AUDIT_ENTRY,
    AuditLog: closedObject({
      logs: { type: 'array', items: ref('AuditEntry'), maxItems: 50 },
      dropped: {
        type: 'integer',
        minimum: 0,
        description:
          'Entries not recorded because the push reached its audit cap (failed views, page openings and downloads beyond it; failed passphrases are always recorded).',
      },
    }),
    ErrorBody: ERROR_BODY,
  };
}

const NO_STORE: HeaderObject = {
  description: 'Always `no-store`.',
  required: true,
  schema: { type: 'string', const: 'no-store' },
};

const LINK: HeaderObject = {
  description: 'RFC 8288 links to the `next` (only after a full page) and `prev` pages, when they exist.',
  schema: { type: 'string' },
};

/** A JSON success answer whose body is `schema`. */
export function jsonResponse(description: string, schema: JsonSchema, paged = false): ResponseObject {
  return {
    description,
    headers: { 'Cache-Control': NO_STORE, ...(paged ? { Link: LINK } : {}) },
    content: { 'application/json': { schema } },
  };
}

/** A success answer with a component schema as its body. */
export const jsonRef = (description: string, name: string, paged = false): ResponseObject =>
  jsonResponse(description, ref(name), paged);

/** A page of owned pushes, newest first. */
export const pushList = (description: string): ResponseObject =>
  jsonResponse(description, { type: 'array', items: ref('OwnedPush'), maxItems: 50 }, true);

const CHALLENGE: HeaderObject = {
  description: 'RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors).',
  schema: { type: 'string', pattern: '^Bearer ' },
};

const RETRY_AFTER: HeaderObject = {
  description: 'Seconds to wait before retrying.',
  required: true,
  schema: { type: 'string', pattern: '^[0-9]+$' },
};

/** Extra headers that come with an error status. */
function errorHeaders(status: number): Record<string, HeaderObject> | undefined {
  if (status === 401 || status === 403) return { 'WWW-Authenticate': CHALLENGE };
  if (status === 429 || status === 503) return { 'Retry-After': RETRY_AFTER };
  return undefined;
}

/** An error answer: the ErrorBody with `code` narrowed to those this status can carry here. */
export function errorResponse(
  status: number,
  description: string,
  codes: readonly ErrorCode[],
): ResponseObject {
  const headers = errorHeaders(status);
  return {
    description,
    ...(headers ? { headers } : {}),
    content: {
      'application/json': {
        schema: { ...ref('ErrorBody'), type: 'object', properties: { code: { enum: [...codes] } } },
      },
    },
  };
}
