import type { AuditContext, NewPush, PushKind } from './push';

/*
 * Requests (issue 28): a person (the requester, the owner) asks somebody (the responder) for a
 * secret. The request is open for a window (`closeAfterAt`); the first answer becomes a push owned
 * by the requester (its limits are the request's `answer` settings) and the request is `answered`;
 * the owner may close it at any time, and the worker closes it when its window ends.
 */

export const REQUEST_STATES = ['open', 'answered', 'closed'] as const;
export type RequestState = (typeof REQUEST_STATES)[number];

export const ANSWERABLE_BY = ['anyone', 'users', 'emails'] as const;
export type AnswerableBy = (typeof ANSWERABLE_BY)[number];

export type ClosedReason = 'owner' | 'time';

/** The lists of a requester: `active` = open + answered, `ready` = answered. */
export const REQUEST_LISTS = ['active', 'open', 'answered', 'ready', 'closed'] as const;
export type RequestList = (typeof REQUEST_LISTS)[number];

/** The states a list shows. */
export function statesOf(list: RequestList): RequestState[] {
  switch (list) {
    case 'active':
      return ['open', 'answered'];
    case 'ready':
    case 'answered':
      return ['answered'];
    case 'open':
      return ['open'];
    case 'closed':
      return ['closed'];
  }
}

export const REQUEST_AUDIT_KINDS = [
  'creation',
  'link_opened',
  'failed_passphrase',
  'answer',
  'answer_refused',
  'close',
  'close_by_time',
  'attachment_download',
  'code_sent',
] as const;
export type RequestAuditKind = (typeof REQUEST_AUDIT_KINDS)[number];

/**
 * The webhook event types about requests: an owner endpoint asking for one makes their requests
 * listened to (`email.delivery_failed` too: an email of the request that failed for good).
 */
export const REQUEST_EVENT_TYPES = ['request.answered', 'request.closed', 'email.delivery_failed'] as const;

/** The largest message shown to the responder, in characters. */
export const MAX_REQUEST_MESSAGE = 10_000;
/** Addresses of `answerable_by: emails`, at most. */
export const MAX_ANSWERABLE_EMAILS = 5;
/** Downloads of each requester file by the responder. */
export const ATTACHMENT_DOWNLOADS = { min: 1, max: 10, default: 3 } as const;

/** The window a create asked for, as it was sent (exactly one is recorded), and its length. */
export interface RequestWindow {
  closeAfterDuration: number | null;
  expireAfterDays: number | null;
  expireAfterDuration: number | null;
  ttlSeconds: number;
}

/** The limits of the answer push. Its window is `days` or the `duration` index, counted from the answer. */
export interface AnswerLimits {
  expireAfterViews: number;
  expireAfterDays: number | null;
  expireAfterDuration: number | null;
  retrievalStep: boolean;
  deletableByViewer: boolean;
}

/** A validated create (http/request.schemas.ts). */
export interface NewRequest {
  message: string;
  name: string | null;
  note: string | null;
  passphrase: string | null;
  window: RequestWindow;
  answer: AnswerLimits;
  responseFileAttachments: boolean;
  includeRequestor: boolean;
  answerableBy: AnswerableBy;
  answerableEmails: string[];
  notifyOwnerOnAnswer: boolean;
  attachmentDownloads: number;
  /** `notify_emails_to`: the addresses the responder's link is sent to (queued by the email helper). */
  notifyEmailsTo: string[];
  emailLocale: string | null;
}

/** A request as read (nothing secret), with the database's clock of the read. */
export interface SecretRequest {
  id: string;
  owner: string;
  state: RequestState;
  name: string | null;
  passphraseProtected: boolean;
  responseFileAttachments: boolean;
  includeRequestor: boolean;
  requestorEmail: string | null;
  answerableBy: AnswerableBy;
  answerableEmails: string[];
  closeAfterAt: Date;
  window: Omit<RequestWindow, 'ttlSeconds'>;
  answer: AnswerLimits;
  answerPushId: string | null;
  notifyOwnerOnAnswer: boolean;
  emailLocale: string | null;
  attachmentDownloads: number;
  auditDropped: number;
  createdAt: Date;
  updatedAt: Date;
  answeredAt: Date | null;
  closedAt: Date | null;
  closedReason: ClosedReason | null;
}

export interface RequestSnapshot {
  request: SecretRequest;
  now: Date;
}

export interface RequestAuditEntry {
  id: string;
  kind: RequestAuditKind;
  ip: string | null;
  userAgent: string;
  referrer: string;
  createdAt: Date;
}

export type { AuditContext };

const DAY = 86_400;

/** Open for answers: not answered, not closed, and its window not past (the worker may not have closed it yet). */
export function isAnswerable(r: SecretRequest, now: Date): boolean {
  return r.state === 'open' && r.closeAfterAt > now;
}

/** Closed, or past its window while the worker has not closed it yet: the responder sees nothing. */
export function isGoneForResponder(r: SecretRequest, now: Date): boolean {
  return r.state === 'closed' || (r.state === 'open' && r.closeAfterAt <= now);
}

/** Whole days left in the window (0 once it has passed or the request is closed). */
export function daysRemaining(r: SecretRequest, now: Date): number {
  if (r.state === 'closed') return 0;
  return Math.max(0, Math.ceil((r.closeAfterAt.getTime() - now.getTime()) / (DAY * 1000)));
}

/** The answer push's window in days as the view shows it (a duration: rounded up to whole days). */
export function answerDays(a: AnswerLimits, durations: readonly number[]): number {
  if (a.expireAfterDays !== null) return a.expireAfterDays;
  return Math.max(1, Math.ceil((durations[a.expireAfterDuration ?? 0] ?? DAY) / DAY));
}

/** Who may answer, as the responder presents itself. */
export type Responder =
  { kind: 'anonymous' } | { kind: 'client'; id: string } | { kind: 'user'; id: string; email: string | null };

export type AnswerDecision =
  { ok: true } | { ok: false; reason: 'user_required' | 'not_a_user' | 'code_required' };

/**
 * May this responder answer? `anyone`: yes; `users`: a person's token (nobody → 401, a client's
 * token → 403); `emails`: only with a valid one-time code for a listed address (`codeVerified`).
 */
export function mayAnswer(r: SecretRequest, who: Responder, codeVerified = false): AnswerDecision {
  switch (r.answerableBy) {
    case 'anyone':
      return { ok: true };
    case 'users':
      if (who.kind === 'user') return { ok: true };
      return { ok: false, reason: who.kind === 'anonymous' ? 'user_required' : 'not_a_user' };
    case 'emails':
      return codeVerified ? { ok: true } : { ok: false, reason: 'code_required' };
  }
}

/** What the responder sends. */
export interface NewAnswer {
  kind: Exclude<PushKind, 'file'>;
  payload: string;
}

/**
 * The answer push: the responder's payload under the request's answer limits, named like the
 * request, without a passphrase of its own (the request's passphrase guarded the answering).
 */
export function answerPushInput(r: SecretRequest, answer: NewAnswer, durations: readonly number[]): NewPush {
  const a = r.answer;
  const ttlSeconds =
    a.expireAfterDays !== null ? a.expireAfterDays * DAY : (durations[a.expireAfterDuration ?? 0] ?? DAY);
  return {
    kind: answer.kind,
    payload: answer.payload,
    ttlSeconds,
    expireAfterDays: Math.max(1, Math.ceil(ttlSeconds / DAY)),
    expireAfterViews: a.expireAfterViews,
    deletableByViewer: answer.kind === 'url' ? null : a.deletableByViewer,
    retrievalStep: a.retrievalStep,
    passphrase: null,
    name: r.name,
    note: null,
  };
}
