import type { PushConfig } from '../../config';
import {
  ANSWERABLE_BY,
  ATTACHMENT_DOWNLOADS,
  MAX_ANSWERABLE_EMAILS,
  MAX_REQUEST_MESSAGE,
  REQUEST_AUDIT_KINDS,
  REQUEST_STATES,
} from '../../domain/request';
import { SUPPORTED_LOCALES } from '../../domain/email-rules';
import { DURATIONS, MAX_LABEL } from '../push.schemas';
import { BOOLEAN_LIKE, integerLike } from './push-input.schema';
import { schemaRef } from './operations.shared';
import type { JsonSchema } from './types';

/* The component schemas of the Requests operations, mirroring http/request.presenter.ts and request.schemas.ts. */

const closed = (properties: Record<string, JsonSchema>, description: string): JsonSchema => ({
  type: 'object',
  description,
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});
const text = (description: string): JsonSchema => ({ type: 'string', description });
const bool = (description: string): JsonSchema => ({ type: 'boolean', description });
const time = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', description });
const nullable = (type: 'string' | 'integer', description: string, format?: string): JsonSchema => ({
  type: [type, 'null'],
  description,
  ...(format ? { format } : {}),
});
const uri = (description: string): JsonSchema => ({ type: 'string', format: 'uri', description });
const withNote = (schema: JsonSchema, description: string, extra: JsonSchema = {}): JsonSchema => ({
  ...schema,
  description,
  ...extra,
});

const FILE: Record<string, JsonSchema> = {
  id: { type: 'string', format: 'uuid', description: 'The attachment.' },
  filename: text('Its name as uploaded.'),
  content_type: text('Its declared type (downloads are always octet-stream).'),
  size: { type: 'integer', minimum: 0, description: 'Bytes.' },
};

const ANSWER = closed(
  {
    url_token: text("The answer push's token."),
    html_url: uri("The answer push's page (retrieving it spends its views)."),
    json_url: uri('The answer push in the API (`GET /pushes/{url_token}` spends a view).'),
    answered_at: nullable('string', 'When it was answered.', 'date-time'),
    files: { type: 'integer', minimum: 0, description: 'How many files the answer carries.' },
  },
  "The answer: a push owned by the requester, with the request's answer limits.",
);

const REQUEST_VIEW: Record<string, JsonSchema> = {
  url_token: text("The request's token: the responder's link."),
  html_url: uri('The responder page, `<public URL>/respond/<url_token>`.'),
  json_url: uri('`<public URL>/api/v2/requests/<url_token>.json`.'),
  state: { type: 'string', enum: [...REQUEST_STATES], description: 'open → answered, or closed.' },
  request: text('The message shown to the responder.'),
  name: text('Your label ("" when none).'),
  note: text('Your private note ("" when none).'),
  passphrase: bool('A passphrase is set (never its value).'),
  response_file_attachments: bool('The responder may attach files.'),
  include_requestor: bool("The responder sees the requester's email."),
  answerable_by: { type: 'string', enum: [...ANSWERABLE_BY], description: 'Who may answer.' },
  answerable_emails: {
    type: 'array',
    items: { type: 'string' },
    maxItems: MAX_ANSWERABLE_EMAILS,
    description: 'The addresses that may answer (lower-cased; empty unless `emails`).',
  },
  close_after_duration: nullable('integer', 'The window as sent (duration enum), else null.'),
  expire_after_days: nullable('integer', 'The window in days as sent (or the default), else null.'),
  expire_after_duration: nullable('integer', 'The window as `expire_after_duration`, else null.'),
  close_after_at: time('When it closes unanswered.'),
  days_remaining: {
    type: 'integer',
    minimum: 0,
    description: 'Whole days until `close_after_at` (0 when closed).',
  },
  expire_after_views: { type: 'integer', minimum: 1, description: 'Views of the answer push.' },
  retrieval_step: bool('The answer push has a retrieval step.'),
  deletable_by_viewer: bool('The answer push can be deleted by its viewer.'),
  answer_expire_after_days: {
    type: 'integer',
    minimum: 1,
    description: "The answer push's window, days from the answer.",
  },
  notify_owner_on_answer: bool('You are emailed when it is answered.'),
  files: {
    type: 'array',
    items: closed(FILE, 'A requester attachment.'),
    description: 'Your attachments (purged when the request closes).',
  },
  created_at: time('Creation time.'),
  updated_at: time('Last change.'),
  answered_at: nullable('string', 'When it was answered.', 'date-time'),
  closed_at: nullable('string', 'When it closed.', 'date-time'),
  closed_reason: { type: ['string', 'null'], enum: ['owner', 'time', null], description: 'Why it closed.' },
  answer: { anyOf: [{ type: 'null' }, ANSWER], description: 'null until answered.' },
};

function requestInput(config: PushConfig): JsonSchema {
  const d = config.limits.days;
  const v = config.limits.views;
  const duration = integerLike(0, DURATIONS.length - 1);
  return {
    type: 'object',
    description: 'A new request. Integers also as integer strings, booleans also as words.',
    required: ['request'],
    properties: {
      request: {
        type: 'string',
        maxLength: MAX_REQUEST_MESSAGE,
        description:
          'The message shown to the responder: not blank (422), except in a multipart create that attaches files (`request[files][]`), where it may be empty (a request whose message is its files).',
      },
      name: { type: 'string', maxLength: MAX_LABEL, description: 'A label only you see.' },
      note: { type: 'string', maxLength: MAX_LABEL, description: 'A note only you see.' },
      close_after_duration: withNote(
        duration,
        'How long it stays open: the duration enum of `expire_after_duration`.',
      ),
      expire_after_days: withNote(
        integerLike(d.min, d.max),
        `How long it stays open, in days (default ${d.default}).`,
      ),
      expire_after_duration: withNote(duration, 'Like `close_after_duration` (at most one of the three).'),
      expire_after_views: withNote(integerLike(v.min, v.max), 'Views of the answer push (default 1).'),
      answer_expire_after_days: withNote(
        integerLike(d.min, d.max),
        "The answer push's window, from the answer (default: the request's window).",
      ),
      deletable_by_viewer: withNote(BOOLEAN_LIKE, 'The answer push can be deleted by its viewer.'),
      retrieval_step: withNote(BOOLEAN_LIKE, 'The answer push has a retrieval step.'),
      passphrase: {
        type: 'string',
        maxLength: MAX_LABEL,
        description: 'The responder must give it to answer.',
      },
      response_file_attachments: withNote(BOOLEAN_LIKE, 'The responder may attach files (default false).'),
      include_requestor: withNote(BOOLEAN_LIKE, 'Show your email to the responder (default false).'),
      answerable_by: {
        type: 'string',
        enum: [...ANSWERABLE_BY],
        default: 'anyone',
        description: 'Who may answer.',
      },
      answerable_emails: {
        anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
        description: `Comma-separated or an array, at most ${MAX_ANSWERABLE_EMAILS}; required with \`emails\`, refused otherwise.`,
      },
      notify_emails_to: {
        type: 'string',
        description: 'Addresses the link is emailed to (instances that send email).',
      },
      notify_emails_to_locale: {
        type: 'string',
        enum: [...SUPPORTED_LOCALES],
        description:
          "The language of those emails (and of the codes and notices about this request), spelled exactly as listed. Not given: the requester's language at creation (cookie or `Accept-Language`, among the offered languages), else the instance's default (I18N_DEFAULT_LANGUAGE).",
      },
      notify_owner_on_answer: withNote(BOOLEAN_LIKE, 'Email you when it is answered.'),
      attachment_downloads: withNote(
        integerLike(ATTACHMENT_DOWNLOADS.min, ATTACHMENT_DOWNLOADS.max),
        `Downloads of each attachment by the responder (default ${ATTACHMENT_DOWNLOADS.default}).`,
      ),
      files: { description: 'Attachments: multipart `request[files][]` parts only.' },
    },
  };
}

const RESPONSE_INPUT: JsonSchema = {
  type: 'object',
  properties: {
    payload: text(
      'The secret (text, an http(s) URL, or QR text); required unless files are attached (then optional text beside them).',
    ),
    kind: {
      type: 'string',
      enum: ['text', 'url', 'qr'],
      default: 'text',
      description: 'The kind of payload.',
    },
    passphrase: text("The request's passphrase, when it has one."),
    email: text('A listed address (`answerable_by: emails`).'),
    code: text('The one-time code sent to it.'),
    files: { description: 'Files: multipart `response[files][]` parts only, where the request allows them.' },
  },
};

/** The component schemas of the Requests operations. */
export function requestSchemas(config: PushConfig): Record<string, JsonSchema> {
  return {
    RequestInput: requestInput(config),
    CreateRequestBody: {
      type: 'object',
      required: ['request'],
      properties: { request: schemaRef('RequestInput') },
    },
    ResponseInput: RESPONSE_INPUT,
    RespondBody: {
      type: 'object',
      required: ['response'],
      properties: { response: schemaRef('ResponseInput') },
    },
    CodeBody: { type: 'object', required: ['email'], properties: { email: text('A listed address.') } },
    RequestView: closed(REQUEST_VIEW, 'A request as its owner sees it (never the passphrase).'),
    ResponderView: closed(
      {
        request: text('The message.'),
        requestor: nullable('string', "The requester's email when they chose to show it."),
        passphrase_required: bool('Answering needs the passphrase.'),
        response_file_attachments: bool('Files may be attached.'),
        answerable_by: { type: 'string', enum: [...ANSWERABLE_BY], description: 'Who may answer.' },
        close_after_at: time('When it closes.'),
        files: {
          type: 'array',
          items: closed(
            { ...FILE, downloads_left: { type: 'integer', minimum: 0, description: 'Downloads left.' } },
            'A requester attachment.',
          ),
          description: "The requester's attachments.",
        },
        limits: closed(
          {
            max_payload_bytes: { type: 'integer', description: 'Longest payload.' },
            max_files: { type: 'integer', description: 'Most files.' },
            max_file_bytes: { type: 'integer', description: 'Largest file.' },
            max_total_bytes: { type: 'integer', description: 'All files together.' },
          },
          'Upload limits.',
        ),
      },
      'What the responder sees.',
    ),
    Answered: closed(
      {
        state: { type: 'string', const: 'answered', description: 'Always `answered`.' },
        answered_at: time('When.'),
      },
      'An accepted answer (never the answer push’s token).',
    ),
    CodeSent: closed({ message: text('The same message whatever the address.') }, 'Always the same.'),
    RequestAuditLog: closed(
      {
        logs: {
          type: 'array',
          maxItems: 50,
          items: closed(
            {
              kind: { type: 'string', enum: [...REQUEST_AUDIT_KINDS], description: 'What happened.' },
              ip: nullable('string', 'Client IP.'),
              user_agent: nullable('string', 'User agent.'),
              referrer: nullable('string', 'Referrer.'),
              created_at: time('When.'),
            },
            'An audit entry.',
          ),
        },
        dropped: { type: 'integer', minimum: 0, description: 'Entries not recorded past the audit cap.' },
      },
      'One page of the audit log, oldest first.',
    ),
  };
}
