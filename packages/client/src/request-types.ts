import type { FileInput } from './multipart.ts';
import type { CallOptions } from './transport.ts';
import type { PushKind } from './types.ts';

/*
 * The types of requests (`/requests`, issue 28): someone asks for a secret with a one-time link,
 * a responder answers it once, and the answer is a push owned by the requester. Field names are
 * the API's own (snake_case), as docs/api.md lists them.
 */

/** Where a request is: waiting for its answer, answered, or closed (by its owner or by time). */
export type RequestState = 'open' | 'answered' | 'closed';
/** The lists of `GET /requests/:state`: `active` is open + answered; `ready` is the same as `answered`. */
export type RequestListState = 'active' | 'open' | 'answered' | 'ready' | 'closed';
/** Who may answer: anyone with the link, signed-in users of the instance, or the listed addresses. */
export type AnswerableBy = 'anyone' | 'users' | 'emails';

/** A file the requester attached for the responder. */
export interface RequestFile {
  id: string;
  filename: string;
  content_type: string;
  size: number;
}

/** The answer of an answered request: the answer push's own link (retrieving it uses its views). */
export interface RequestAnswer {
  url_token: string;
  html_url: string;
  json_url: string;
  answered_at: string;
  /** How many files the responder sent. */
  files: number;
}

/** A request as its owner sees it (never the passphrase itself, never the answer's content). */
export interface RequestView {
  url_token: string;
  /** The responder's page: `<PUBLIC_URL>/respond/<url_token>`. */
  html_url: string;
  json_url: string;
  state: RequestState;
  /** The message shown to the responder. */
  request: string;
  name: string | null;
  note: string | null;
  /** Whether the responder must enter a passphrase. */
  passphrase: boolean;
  response_file_attachments: boolean;
  include_requestor: boolean;
  answerable_by: AnswerableBy;
  answerable_emails: string[];
  close_after_duration: number | null;
  expire_after_days: number | null;
  expire_after_duration: number | null;
  close_after_at: string;
  days_remaining: number;
  /** The answer push's views. */
  expire_after_views: number;
  retrieval_step: boolean;
  deletable_by_viewer: boolean;
  answer_expire_after_days: number | null;
  notify_owner_on_answer: boolean;
  files: RequestFile[];
  created_at: string;
  updated_at: string;
  answered_at: string | null;
  closed_at: string | null;
  closed_reason: 'owner' | 'time' | null;
  answer: RequestAnswer | null;
}

/** A requester's file as the responder sees it. */
export interface ResponderFile extends RequestFile {
  downloads_left: number;
}

/** What the responder sees of an open request (`GET /requests/:t/respond`). */
export interface ResponderView {
  request: string;
  /** The requester's email, when the owner chose to show it. */
  requestor: string | null;
  passphrase_required: boolean;
  response_file_attachments: boolean;
  answerable_by: AnswerableBy;
  close_after_at: string;
  files: ResponderFile[];
  limits: { max_payload_bytes: number; max_files: number; max_file_bytes: number; max_total_bytes: number };
}

/** The answer of a respond: never the answer's token. */
export interface RespondResult {
  state: 'answered';
  answered_at: string;
}

/** A new request, as the API names its fields; only `request` (the message) is required. */
export interface CreateRequestInput {
  /** The message shown to the responder (1 to 10 000 characters). */
  request: string;
  /** Labels only the owner sees. */
  name?: string;
  note?: string;
  /** How long the request stays open: at most one of these three (default: the instance's days). */
  close_after_duration?: number;
  expire_after_days?: number;
  expire_after_duration?: number;
  /** The answer push's views (default 1). */
  expire_after_views?: number;
  /** The answer push's days, counted from the answer (default: the request's window in days). */
  answer_expire_after_days?: number;
  deletable_by_viewer?: boolean;
  retrieval_step?: boolean;
  /** The responder must enter it to answer. */
  passphrase?: string;
  /** Whether the responder may send files. Default false. */
  response_file_attachments?: boolean;
  /** Show the owner's email to the responder. Default false. */
  include_requestor?: boolean;
  answerable_by?: AnswerableBy;
  /** With `answerable_by: 'emails'`: at most 5 addresses (a list, or one comma-separated string). */
  answerable_emails?: string | readonly string[];
  /** Email the responder's link to these addresses (a list, or one comma-separated string). */
  notify_emails_to?: string | readonly string[];
  notify_emails_to_locale?: string;
  /** Email the owner when the answer arrives. */
  notify_owner_on_answer?: boolean;
  /** How many times the responder may download each attached file (1 to 10, default 3). */
  attachment_downloads?: number;
  /** Files for the responder: the body is then multipart, streamed. */
  files?: readonly FileInput[];
}

/** An answer: text (or a URL, or a QR payload), files when the request allows them, or both. */
export interface RespondInput {
  payload?: string;
  kind?: Exclude<PushKind, 'file'>;
  files?: readonly FileInput[];
  /** The request's passphrase, when it has one. */
  passphrase?: string;
  /** For a request answerable by listed addresses: the address and the code mailed to it. */
  email?: string;
  code?: string;
}

export interface RequestCreateOptions extends CallOptions {
  /** With files: called with the number of bytes of the request body sent so far. */
  onProgress?: (bytesSent: number) => void;
}

/** A list of the caller's requests, read page by page as it is iterated (see PushList). */
export interface RequestList extends AsyncIterable<RequestView> {
  pages(): AsyncIterable<RequestView[]>;
}

/** What happened to a request: its audit entries' kinds. */
export type RequestAuditKind =
  | 'creation'
  | 'link_opened'
  | 'failed_passphrase'
  | 'answer'
  | 'answer_refused'
  | 'close'
  | 'close_by_time'
  | 'attachment_download'
  | 'code_sent';

/** One entry of a request's audit log (as a push's: who, from where, when). */
export interface RequestAuditEntry {
  kind: RequestAuditKind;
  ip: string | null;
  user_agent: string;
  referrer: string;
  created_at: string;
}

/** One page of a request's audit log. */
export interface RequestAuditLog {
  logs: RequestAuditEntry[];
  dropped: number;
}
