import type { Readable } from 'node:stream';
import type { Actor } from '../domain/create-policy';
import type { AuditContext } from '../domain/push';
import type { PreparedFiles } from '../domain/push-create';
import type { OwnedRequest, RequestAuditRow, RequestState } from './requests.views';
import type { ResponderRequest } from './respond.views';

/*
 * What the request pages need of the domain (issue 28), in the pages' own terms: the adapter
 * (request-pages.adapter.ts) implements it over the requests domain service, so the pages call the
 * domain, never the HTTP API. Refusals are the domain's errors (mapped by http/error-map.ts to the
 * API's codes, which the pages read: `not_found`, `already_answered`, `passphrase_required`, …).
 */

/** Who creates, and under which form key (a resubmission of the same form creates nothing). */
export interface RequestCreateContext {
  actor: Actor;
  /** The person's address, for "show my email address" (include_requestor). */
  ownerEmail: string | null;
  audit: AuditContext;
  idempotency: { scope: string; key: string };
}

/** A requester's file as the responder downloads it. */
export type Download =
  | { outcome: 'opened'; filename: string; size: number; body: Readable }
  | { outcome: 'spent' }
  | { outcome: 'unavailable' };

/** What the responder sent (the API's `response` object). */
export interface AnswerInput {
  payload?: string;
  passphrase?: string;
  email?: string;
  code?: string;
}

export interface RequestPages {
  /**
   * Creates a request from the API's `{request: …}` body (parsed by the API's own schema: its
   * refusals are 422 with `fields`). Returns the new request's url_token.
   */
  create(body: { request: Record<string, unknown> }, ctx: RequestCreateContext): Promise<void>;
  /** The request the form key made, within `seconds` of its create (the created page). */
  createdWith(
    idempotency: { scope: string; key: string },
    seconds: number,
  ): Promise<OwnedRequest | undefined>;
  list(owner: Actor, state: RequestState, page: number): Promise<OwnedRequest[]>;
  /** A request of `owner` with its audit log; another's or none: not found. */
  detail(token: string, owner: Actor): Promise<{ request: OwnedRequest; entries: RequestAuditRow[] }>;
  close(token: string, owner: Actor, audit: AuditContext): Promise<void>;

  /**
   * The responder's view, nothing spent, audited `link_opened` (also when the form is shown again
   * after a refused answer: the request was shown again). Closed/unknown: not found; answered:
   * already answered.
   */
  open(token: string, audit: AuditContext): Promise<ResponderRequest>;
  /**
   * Answers the request with `answer` and the files the page's upload step stored (the request's
   * upload limits). Listed addresses only: `email` and `code` prove the address.
   */
  respond(
    token: string,
    actor: Actor,
    answer: AnswerInput,
    audit: AuditContext,
    files?: PreparedFiles,
  ): Promise<void>;
  /** Sends a one-time code when `email` may answer (answerable by emails); absent: no codes here. */
  sendCode?: (token: string, email: string, audit: AuditContext) => Promise<unknown>;
  /**
   * A requester's file for the responder: counted and audited `attachment_download` (the API's
   * download's domain service); spent (410) or unavailable (404). Where only signed-in people may
   * answer, only they download. Absent without an object store.
   */
  download?: (token: string, fileId: string, actor: Actor, audit: AuditContext) => Promise<Download>;
}
