import { z } from 'zod';
import { HttpError } from '@secret-push/http-kit';
import {
  type CreateEmailInput,
  type EmailSendRequest,
  NOTICE_KINDS,
  SUPPORTED_LOCALES,
  isSupportedLocale,
  parseNoticeKinds,
  parseRecipients,
} from '../domain/email-rules';
import { PUSH_KINDS, type NewPush, type PushKind } from '../domain/push';

/** Instance rules for create (from config). */
export interface CreateRules {
  days: { default: number; min: number; max: number };
  views: { default: number; min: number; max: number };
  retrievalStepDefault: boolean;
  deletableByViewerDefault: boolean;
  enabledKinds: ReadonlySet<PushKind>;
}

export const MAX_TEXT_PAYLOAD = 1_048_576;
export const MAX_QR_PAYLOAD = 1024;
export const MAX_LABEL = 1024;
/** A JSON or urlencoded create body; also what all fields of a multipart create may add up to. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Whether `s` has more than `max` code points (what the API calls characters; a lone surrogate
 * counts as one, as `[...s]` counts it). Decided from the length where it can be (`length` counts
 * UTF-16 units: at least one and at most two per code point), otherwise counted in a loop that
 * stops at `max + 1`: no copy of the string, at most 2 × max units read, whatever its size.
 */
export function exceedsCodePoints(s: string, max: number): boolean {
  if (s.length <= max) return false;
  if (s.length > 2 * max) return true;
  let count = 0;
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    if (++count > max) return true;
  }
  return false;
}

/** A string of at most `max` code points; JSON Schema's `maxLength` counts code points too. */
export const boundedString = (max: number, message: string) =>
  z
    .string({ error: 'must be a string' })
    .refine((s) => !exceedsCodePoints(s, max), { error: message, abort: true })
    .meta({ maxLength: max });

/** `expire_after_duration` (sent by existing clients instead of days): index → seconds. */
const MIN = 60;
const HOUR = 3600;
const DAY = 86_400;
export const DURATIONS = [
  15 * MIN, 30 * MIN, 45 * MIN, HOUR, 6 * HOUR, 12 * HOUR,
  DAY, 2 * DAY, 3 * DAY, 4 * DAY, 5 * DAY, 6 * DAY,
  7 * DAY, 14 * DAY, 21 * DAY, 30 * DAY, 60 * DAY, 90 * DAY,
] as const; // prettier-ignore

/** Integers, also as integer strings ("5"), as clients send them in forms and sometimes in JSON. */
export function intIn(min: number, max: number) {
  const message = `must be an integer from ${min} to ${max}`;
  return z
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^-?\d+$/)
          .transform(Number),
      ],
      { error: message },
    )
    .pipe(
      z
        .number({ error: message })
        .int({ error: message })
        .min(min, { error: message })
        .max(max, { error: message }),
    );
}

export const TRUE_WORDS = ['true', '1', 'yes', 'on', 'checked'];
export const FALSE_WORDS = ['false', '0', 'no', 'off'];
const BOOL_MESSAGE = 'must be a boolean (true/false, 1/0, yes/no, on/off)';
const WORDS = new Set([...TRUE_WORDS, ...FALSE_WORDS]);
const BOOL_WORD_MAX = Math.max(...[...WORDS].map((w) => w.length));

/** Booleans, also as `true/false/1/0/yes/no/on/off/checked` strings (any case) and 1/0 numbers. */
export const boolLike = z.union(
  [
    z.boolean(),
    z.union([z.literal(0), z.literal(1)]).transform((n) => n === 1),
    z
      .string()
      // The length first: no lower-cased copy of a long string ('checked' is the longest word).
      .refine((s) => s.length <= BOOL_WORD_MAX && WORDS.has(s.toLowerCase()))
      .transform((s) => TRUE_WORDS.includes(s.toLowerCase())),
  ],
  { error: BOOL_MESSAGE },
);

export const label = (what: string) =>
  boundedString(MAX_LABEL, `${what} must be at most ${MAX_LABEL} characters`);
/**
 * A label stored as text (the name): PostgreSQL text cannot hold U+0000, so it is refused here
 * (422) rather than failing the insert. Sealed fields (payload, note) and the hashed passphrase
 * are bytes at rest and may contain it.
 */
export const storedLabel = (what: string) =>
  label(what).refine((s) => !s.includes('\u0000'), { error: `${what} must not contain NUL characters` });

/** Email fields of a create (and of `notify_emails`): their syntax; emailFieldsOf checks their content. */
const emailFields = {
  notify_emails_to: boundedString(2000, 'must be at most 2000 characters')
    .nullish()
    .meta({ description: 'Comma-separated email addresses (at most 5) to send the link to' }),
  notify_emails_to_locale: boundedString(35, 'is not available')
    .nullish()
    .meta({
      description: `The language of the email: one of ${SUPPORTED_LOCALES.join(', ')} (exactly as written; the instance may offer fewer). Not given: the sender's language at creation (cookie or Accept-Language), else the instance's default`,
    }),
  notify_emails_include_sender: boolLike
    .nullish()
    .meta({ description: "Name the owner's verified address in the email (default false)" }),
  notify_owner_on: z
    .union([z.array(z.enum(NOTICE_KINDS)), z.string()], {
      error: `must be a list of ${NOTICE_KINDS.join(', ')}`,
    })
    .nullish()
    .meta({ description: `Owner notices: ${NOTICE_KINDS.join(', ')} (array, or comma-separated in forms)` }),
};

/**
 * The recipients and language of a send, or the problems by field (Password Pusher's messages).
 * A blank `notify_emails_to` (an empty form field) asks for nothing.
 */
export function emailSendOf(
  to: string | null | undefined,
  locale: string | null | undefined,
  includeSender: boolean | null | undefined,
  fail: (field: string, message: string) => void,
): EmailSendRequest | null {
  if (locale !== null && locale !== undefined && locale !== '' && !isSupportedLocale(locale)) {
    fail('notify_emails_to_locale', 'is not available');
  }
  if (to === null || to === undefined || !/\S/.test(to)) return null;
  const parsed = parseRecipients(to);
  if (!parsed.ok) {
    for (const p of parsed.problems) fail('notify_emails_to', p);
    return null;
  }
  return {
    recipients: parsed.recipients,
    locale: locale && isSupportedLocale(locale) ? locale : null,
    includeSender: includeSender ?? false,
  };
}

function emailInputOf(
  input: PushInput,
  fail: (field: string, message: string) => void,
): CreateEmailInput | undefined {
  const send = emailSendOf(
    input.notify_emails_to,
    input.notify_emails_to_locale,
    input.notify_emails_include_sender,
    fail,
  );
  let noticeOn: CreateEmailInput['noticeOn'] = null;
  if (input.notify_owner_on !== null && input.notify_owner_on !== undefined) {
    const parsed = parseNoticeKinds(input.notify_owner_on);
    if (parsed.ok) noticeOn = parsed.kinds;
    else fail('notify_owner_on', parsed.problem);
  }
  return send || noticeOn ? { send, noticeOn } : undefined;
}

/** The `push` object of a create request, as clients may send it (the OpenAPI document is derived from this). */
export function pushInputSchema(rules: Pick<CreateRules, 'days' | 'views'>) {
  return z.looseObject({
    payload: z.string({ error: 'must be a string' }).nullish(),
    kind: z.enum(PUSH_KINDS, { error: `must be one of ${PUSH_KINDS.join(', ')}` }).nullish(),
    files: z.unknown().optional(),
    expire_after_days: intIn(rules.days.min, rules.days.max).nullish(),
    expire_after_duration: intIn(0, DURATIONS.length - 1).nullish(),
    expire_after_views: intIn(rules.views.min, rules.views.max).nullish(),
    deletable_by_viewer: boolLike.nullish(),
    retrieval_step: boolLike.nullish(),
    passphrase: boundedString(MAX_LABEL, `must be at most ${MAX_LABEL} characters`).nullish(),
    name: storedLabel('name').nullish(),
    note: label('note').nullish(),
    ...emailFields,
  });
}

type PushInput = z.infer<ReturnType<typeof pushInputSchema>>;

/** Building the schema costs more than parsing with it: one per rules object (the config's, frozen). */
const schemaCache = new WeakMap<CreateRules, ReturnType<typeof pushInputSchema>>();
function cachedPushInputSchema(rules: CreateRules): ReturnType<typeof pushInputSchema> {
  let schema = schemaCache.get(rules);
  if (!schema) schemaCache.set(rules, (schema = pushInputSchema(rules)));
  return schema;
}

const KIND_LABEL: Record<PushKind, string> = { text: 'Text', url: 'URL', qr: 'QR code', file: 'File' };

function isHttpUrl(s: string): boolean {
  const u = URL.parse(s);
  return u !== null && (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
}

/**
 * The payload's problem, bounds first: nothing proportional to the payload (trimming, URL parsing)
 * runs before its length is known to be within the kind's bound. Every kind is bounded: QR codes by
 * their own limit, the others (a URL, a file push's optional text) by the text limit.
 */
function payloadProblem(kind: PushKind, payload: string | null | undefined): string | undefined {
  if (payload === null || payload === undefined) return kind === 'file' ? undefined : 'Payload is required.';
  if (kind === 'qr' && exceedsCodePoints(payload, MAX_QR_PAYLOAD)) {
    return `The QR code payload is too large. You can only push up to ${MAX_QR_PAYLOAD} characters.`;
  }
  if (exceedsCodePoints(payload, MAX_TEXT_PAYLOAD)) {
    return `The payload is too large. You can only push up to ${MAX_TEXT_PAYLOAD} characters.`;
  }
  if (kind === 'file') return undefined;
  if (!/\S/.test(payload)) return 'Payload is required.'; // blank: what trim() removes, without a copy
  if (kind === 'url' && !isHttpUrl(payload)) return 'must be a valid HTTP or HTTPS URL.';
  return undefined;
}

/** Applies kind inference, defaults, cross-field rules and enabled kinds; every problem is reported. */
function toNewPush(
  input: PushInput,
  rules: CreateRules,
): { value?: NewPush; fields: Record<string, string[]> } {
  const fields: Record<string, string[]> = {};
  const fail = (field: string, message: string) => (fields[field] ??= []).push(message);
  const kind: PushKind = input.kind ?? (input.files !== undefined ? 'file' : 'text');
  if (!rules.enabledKinds.has(kind)) fail('kind', `${KIND_LABEL[kind]} pushes are disabled.`);
  const problem = payloadProblem(kind, input.payload);
  if (problem) fail('payload', problem);
  const days = input.expire_after_days ?? undefined;
  const duration = input.expire_after_duration ?? undefined;
  if (days !== undefined && duration !== undefined) {
    fail('expire_after_duration', 'send either expire_after_duration or expire_after_days, not both');
  }
  const email = emailInputOf(input, fail);
  if (Object.keys(fields).length > 0) return { fields };

  const ttlSeconds = duration !== undefined ? DURATIONS[duration]! : (days ?? rules.days.default) * DAY;
  return {
    fields,
    value: {
      kind,
      payload: input.payload ?? null,
      ttlSeconds,
      expireAfterDays: Math.max(1, Math.ceil(ttlSeconds / DAY)),
      expireAfterViews: input.expire_after_views ?? rules.views.default,
      // URL pushes are never viewer-deletable: they redirect, so there is nothing to delete safely.
      deletableByViewer:
        kind === 'url' ? null : (input.deletable_by_viewer ?? rules.deletableByViewerDefault),
      retrievalStep: input.retrieval_step ?? rules.retrievalStepDefault,
      passphrase: input.passphrase ? input.passphrase : null,
      name: input.name ?? null,
      note: input.note ?? null,
      ...(email ? { email } : {}),
    },
  };
}

/** Parses a create body `{ push: {...} }`: 400 when `push` is missing or not an object, 422 naming every bad field. */
export function parseCreateBody(body: unknown, rules: CreateRules): NewPush {
  const push = (body as { push?: unknown } | undefined)?.push;
  if (push === null || typeof push !== 'object' || Array.isArray(push)) {
    throw new HttpError(400, 'bad_request', 'param is missing or the value is empty or invalid: push');
  }
  const parsed = cachedPushInputSchema(rules).safeParse(push);
  if (!parsed.success) {
    const fields: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      (fields[String(issue.path[0] ?? 'push')] ??= []).push(issue.message);
    }
    throw HttpError.validation(fields);
  }
  const { value, fields } = toNewPush(parsed.data, rules);
  if (!value) throw HttpError.validation(fields);
  return value;
}

/** `page`: absent → 1; otherwise an integer from 1 to 200, else 400. */
export function parsePage(raw: unknown): number {
  if (raw === undefined) return 1;
  if (typeof raw !== 'string' || !/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > 200) {
    throw new HttpError(400, 'invalid_page', 'Invalid page parameter');
  }
  return Number(raw);
}
