import { z } from 'zod';
import { HttpError } from '@secret-push/http-kit';
import { isSupportedLocale, parseRecipients } from '../domain/email-rules';
import {
  ANSWERABLE_BY,
  ATTACHMENT_DOWNLOADS,
  MAX_ANSWERABLE_EMAILS,
  MAX_REQUEST_MESSAGE,
  type NewAnswer,
  type NewRequest,
} from '../domain/request';
import {
  type CreateRules,
  DURATIONS,
  MAX_LABEL,
  MAX_QR_PAYLOAD,
  MAX_TEXT_PAYLOAD,
  boolLike,
  boundedString,
  exceedsCodePoints,
  intIn,
  label,
  storedLabel,
} from './push.schemas';

const DAY = 86_400;

/** The `request` object of a create, as clients may send it (JSON, or `request[…]` form fields). */
export function requestInputSchema(rules: Pick<CreateRules, 'days' | 'views'>) {
  return z.looseObject({
    request: z.string({ error: 'must be a string' }).nullish(),
    name: storedLabel('name').nullish(),
    note: label('note').nullish(),
    close_after_duration: intIn(0, DURATIONS.length - 1).nullish(),
    expire_after_days: intIn(rules.days.min, rules.days.max).nullish(),
    expire_after_duration: intIn(0, DURATIONS.length - 1).nullish(),
    expire_after_views: intIn(rules.views.min, rules.views.max).nullish(),
    answer_expire_after_days: intIn(rules.days.min, rules.days.max).nullish(),
    deletable_by_viewer: boolLike.nullish(),
    retrieval_step: boolLike.nullish(),
    passphrase: boundedString(MAX_LABEL, `must be at most ${MAX_LABEL} characters`).nullish(),
    response_file_attachments: boolLike.nullish(),
    include_requestor: boolLike.nullish(),
    answerable_by: z.enum(ANSWERABLE_BY, { error: `must be one of ${ANSWERABLE_BY.join(', ')}` }).nullish(),
    answerable_emails: z
      .union([z.string().max(2000), z.array(z.string().max(320)).max(50)], {
        error: 'must be a comma-separated string or an array of addresses',
      })
      .nullish(),
    notify_emails_to: boundedString(2000, 'must be at most 2000 characters').nullish(),
    notify_emails_to_locale: boundedString(35, 'is not available').nullish(),
    notify_owner_on_answer: boolLike.nullish(),
    attachment_downloads: intIn(ATTACHMENT_DOWNLOADS.min, ATTACHMENT_DOWNLOADS.max).nullish(),
    files: z.unknown().optional(),
  });
}

type RequestInput = z.infer<ReturnType<typeof requestInputSchema>>;

const schemaCache = new WeakMap<CreateRules, ReturnType<typeof requestInputSchema>>();
function cachedSchema(rules: CreateRules) {
  let schema = schemaCache.get(rules);
  if (!schema) schemaCache.set(rules, (schema = requestInputSchema(rules)));
  return schema;
}

/** What the instance offers that a create depends on. */
export interface RequestCreateContext {
  /** SMTP configured: `answerable_by: emails` and email fields need it. */
  emailEnabled: boolean;
  /** Whether `answerable_by: emails` is served yet (the one-time code). */
  emailAnswersSupported: boolean;
  /**
   * The create carries attachments (`request[files][]`): then the message may be blank, a request
   * whose message is only its files (`pwpush request --attach-file X` without text sends an empty
   * `request[request]`).
   */
  withAttachments?: boolean;
}

type Fail = (field: string, message: string) => void;

function addressesOf(raw: string | string[] | null | undefined, fail: Fail): string[] {
  if (raw === null || raw === undefined) return [];
  const joined = Array.isArray(raw) ? raw.join(',') : raw;
  if (!/\S/.test(joined)) return [];
  const parsed = parseRecipients(joined);
  if (!parsed.ok) {
    for (const p of parsed.problems) fail('answerable_emails', p);
    return [];
  }
  return [...new Set(parsed.recipients.map((a) => a.toLowerCase()))];
}

function windowOf(input: RequestInput, rules: CreateRules, fail: Fail): NewRequest['window'] {
  const given = [input.close_after_duration, input.expire_after_days, input.expire_after_duration].filter(
    (v) => v !== null && v !== undefined,
  );
  if (given.length > 1) {
    fail(
      'close_after_duration',
      'send at most one of close_after_duration, expire_after_days and expire_after_duration',
    );
  }
  const duration = input.close_after_duration ?? input.expire_after_duration ?? null;
  const days = duration === null ? (input.expire_after_days ?? rules.days.default) : null;
  return {
    closeAfterDuration: input.close_after_duration ?? null,
    expireAfterDays: days,
    expireAfterDuration: input.close_after_duration == null ? (input.expire_after_duration ?? null) : null,
    ttlSeconds: duration !== null ? DURATIONS[duration]! : days! * DAY,
  };
}

/** Checks the fields' content and cross-field rules; every problem is reported. */
function toNewRequest(input: RequestInput, rules: CreateRules, context: RequestCreateContext) {
  const fields: Record<string, string[]> = {};
  const fail: Fail = (field, message) => (fields[field] ??= []).push(message);
  const blank = input.request === null || input.request === undefined || !/\S/.test(input.request);
  const message = blank ? '' : input.request!;
  if (blank && !context.withAttachments) fail('request', "can't be blank");
  else if (exceedsCodePoints(message, MAX_REQUEST_MESSAGE)) {
    fail('request', `must be at most ${MAX_REQUEST_MESSAGE} characters`);
  }
  if (
    input.files !== undefined &&
    !(Array.isArray(input.files) && input.files.length === 0) &&
    input.files !== ''
  ) {
    fail('files', 'must be sent as file parts of a multipart form (request[files][])');
  }
  const window = windowOf(input, rules, fail);
  const answerableBy = input.answerable_by ?? 'anyone';
  const emails = addressesOf(input.answerable_emails, fail);
  if (answerableBy === 'emails') {
    if (emails.length === 0 && !fields.answerable_emails) fail('answerable_emails', "can't be blank");
    if (emails.length > MAX_ANSWERABLE_EMAILS) {
      fail('answerable_emails', `can name at most ${MAX_ANSWERABLE_EMAILS} email addresses`);
    }
    if (!context.emailEnabled) fail('answerable_by', 'emails needs email, which this instance does not send');
    else if (!context.emailAnswersSupported) {
      fail('answerable_by', 'emails is not available on this instance yet');
    }
  } else if (emails.length > 0) {
    fail('answerable_emails', 'only with answerable_by emails');
  }
  const locale = input.notify_emails_to_locale;
  if (locale && !isSupportedLocale(locale)) fail('notify_emails_to_locale', 'is not available');
  let notifyEmailsTo: string[] = [];
  if (input.notify_emails_to && /\S/.test(input.notify_emails_to)) {
    const parsed = parseRecipients(input.notify_emails_to);
    if (!parsed.ok) for (const p of parsed.problems) fail('notify_emails_to', p);
    else if (!context.emailEnabled) fail('notify_emails_to', 'email is not sent by this instance');
    else notifyEmailsTo = parsed.recipients;
  }
  if (Object.keys(fields).length > 0) return { fields };
  const windowDays = Math.max(1, Math.ceil(window.ttlSeconds / DAY));
  const value: NewRequest = {
    message,
    name: input.name ?? null,
    note: input.note ?? null,
    passphrase: input.passphrase ? input.passphrase : null,
    window,
    answer: {
      expireAfterViews: input.expire_after_views ?? 1,
      // Default: the request's window again, counted from the answer (a duration stays a duration).
      expireAfterDays:
        input.answer_expire_after_days ?? (window.expireAfterDays !== null ? windowDays : null),
      expireAfterDuration:
        input.answer_expire_after_days == null && window.expireAfterDays === null
          ? (window.closeAfterDuration ?? window.expireAfterDuration)
          : null,
      retrievalStep: input.retrieval_step ?? rules.retrievalStepDefault,
      deletableByViewer: input.deletable_by_viewer ?? rules.deletableByViewerDefault,
    },
    responseFileAttachments: input.response_file_attachments ?? false,
    includeRequestor: input.include_requestor ?? false,
    answerableBy,
    answerableEmails: answerableBy === 'emails' ? emails : [],
    notifyOwnerOnAnswer: input.notify_owner_on_answer ?? false,
    attachmentDownloads: input.attachment_downloads ?? ATTACHMENT_DOWNLOADS.default,
    notifyEmailsTo,
    emailLocale: locale && isSupportedLocale(locale) ? locale : null,
  };
  return { fields, value };
}

const issuesByField = (issues: readonly z.core.$ZodIssue[], top: string) => {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) (fields[String(issue.path[0] ?? top)] ??= []).push(issue.message);
  return fields;
};

/** Parses a create body `{ request: {...} }`: 400 without the object, 422 naming every bad field. */
export function parseRequestCreate(
  body: unknown,
  rules: CreateRules,
  context: RequestCreateContext,
): NewRequest {
  const given = (body as { request?: unknown } | undefined)?.request;
  if (given === null || typeof given !== 'object' || Array.isArray(given)) {
    throw new HttpError(400, 'bad_request', 'param is missing or the value is empty or invalid: request');
  }
  const parsed = cachedSchema(rules).safeParse(given);
  if (!parsed.success) throw HttpError.validation(issuesByField(parsed.error.issues, 'request'));
  const { value, fields } = toNewRequest(parsed.data, rules, context);
  if (!value) throw HttpError.validation(fields);
  return value;
}

const RESPONSE_KINDS = ['text', 'url', 'qr'] as const;

/** The `response` object of an answer. */
export const responseInputSchema = z.looseObject({
  payload: z.string({ error: 'must be a string' }).nullish(),
  kind: z.enum(RESPONSE_KINDS, { error: `must be one of ${RESPONSE_KINDS.join(', ')}` }).nullish(),
  passphrase: boundedString(MAX_LABEL, `must be at most ${MAX_LABEL} characters`).nullish(),
  email: boundedString(320, 'must be at most 320 characters').nullish(),
  code: boundedString(32, 'must be at most 32 characters').nullish(),
  files: z.unknown().optional(),
});

export interface ParsedResponse {
  answer: NewAnswer;
  passphrase: string | null;
  email: string | null;
  code: string | null;
}

function payloadProblem(kind: NewAnswer['kind'], payload: string | null | undefined): string | undefined {
  if (payload === null || payload === undefined || !/\S/.test(payload)) return "can't be blank";
  const max = kind === 'qr' ? MAX_QR_PAYLOAD : MAX_TEXT_PAYLOAD;
  if (exceedsCodePoints(payload, max)) return `must be at most ${max} characters`;
  if (kind === 'url') {
    const u = URL.parse(payload);
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.hostname === '') {
      return 'must be a valid HTTP or HTTPS URL.';
    }
  }
  return undefined;
}

/**
 * Parses an answer body `{ response: {...} }`: 400 without the object, 422 naming every bad field.
 * `withFiles`: the upload step stored files of this answer (multipart `response[files][]`); the
 * object may then be absent and the payload is an optional text beside them.
 */
export function parseResponse(body: unknown, withFiles: boolean): ParsedResponse {
  const sent = (body as { response?: unknown } | undefined)?.response;
  const given = sent === undefined && withFiles ? {} : sent;
  if (given === null || typeof given !== 'object' || Array.isArray(given)) {
    throw new HttpError(400, 'bad_request', 'param is missing or the value is empty or invalid: response');
  }
  const parsed = responseInputSchema.safeParse(given);
  if (!parsed.success) throw HttpError.validation(issuesByField(parsed.error.issues, 'response'));
  const input = parsed.data;
  const fields: Record<string, string[]> = {};
  const kind = input.kind ?? 'text';
  const blank = input.payload === null || input.payload === undefined || !/\S/.test(input.payload);
  const problem = withFiles && blank ? undefined : payloadProblem(kind, input.payload);
  if (problem) fields.payload = [problem];
  if (
    input.files !== undefined &&
    !(Array.isArray(input.files) && input.files.length === 0) &&
    input.files !== ''
  ) {
    // Files come as file parts of a multipart form, never as a field.
    fields.files = ['must be sent as file parts of a multipart form (response[files][])'];
  }
  if (Object.keys(fields).length > 0) throw HttpError.validation(fields);
  return {
    answer: { kind: withFiles ? 'text' : kind, payload: blank ? '' : input.payload! },
    passphrase: input.passphrase ?? null,
    email: input.email ?? null,
    code: input.code ?? null,
  };
}
