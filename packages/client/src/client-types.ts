import type { Readable } from 'node:stream';
import type { FileInput } from './multipart.ts';
import type {
  CreateRequestInput,
  RequestAuditEntry,
  RequestAuditLog,
  RequestCreateOptions,
  RequestList,
  RequestListState,
  RequestView,
  RespondInput,
  RespondResult,
  ResponderView,
} from './request-types.ts';
import type { AccessToken, ClientCredentialsAuth } from './token-cache.ts';
import type { CallOptions } from './transport.ts';
import type {
  AuditEntry,
  AuditLog,
  NotifyEmailsResult,
  OwnedPush,
  Preview,
  Push,
  PushFile,
  PushSettings,
  RetrievedPush,
  Version,
  Webhook,
  WebhookDelivery,
  WebhookEventType,
  WebhookWithSecret,
} from './types.ts';

/*
 * The SDK's own types: the client's options, the inputs and options of its calls, what they
 * return, and the SecretPushClient interface itself (created by createClient in client.ts).
 */

/** A static bearer token, e.g. one fetched by another program. It is never refreshed. */
export interface StaticTokenAuth {
  token: string;
}

export interface ClientOptions {
  /** The instance's public URL (`https://push.example.com`); `/api/v2` is added unless present. */
  baseUrl: string;
  /** Client credentials, a static token, or nothing for anonymous calls. */
  auth?: ClientCredentialsAuth | StaticTokenAuth;
  /** The fetch to use (the global one by default), e.g. to add logging or a proxy. */
  fetch?: typeof fetch;
  /** How long one call may take in all, retries and waits included. Default 30 000 ms. */
  timeoutMs?: number;
  /** How many times a failed call may be repeated (see "Retries" in the README). Default 3. */
  retries?: number;
  /** The longest wait between attempts; a longer Retry-After fails the call at once. Default 30 000 ms. */
  maxRetryDelayMs?: number;
  /** Sent as User-Agent. */
  userAgent?: string;
  /**
   * Allow plain `http://` URLs (`baseUrl`, the token endpoint) off this machine. By default such a
   * URL makes createClient throw an InsecureUrlError: client secrets, tokens, passphrases and
   * payloads would cross the network unencrypted. `http://` to localhost, 127.0.0.0/8 and [::1]
   * is always allowed.
   */
  allowInsecureHttp?: boolean;
}

export type TextPushInput = PushSettings & { kind?: 'text' | 'url' | 'qr'; payload: string };
export type FilePushInput = PushSettings & {
  kind?: 'file';
  /** Optional text sent along with the files. */
  payload?: string;
  files: readonly FileInput[];
};
export type CreatePushInput = TextPushInput | FilePushInput;

export interface CreateOptions extends CallOptions {
  /** For file pushes: called with the number of bytes of the request body sent so far. */
  onProgress?: (bytesSent: number) => void;
  /** The Idempotency-Key to send; a new random UUID by default. */
  idempotencyKey?: string;
}

export interface RetrieveOptions extends CallOptions {
  /** Sent in the body of `POST …/reveal`, never in the URL. */
  passphrase?: string;
  /**
   * With a passphrase: the reveal id, sent as the `Idempotency-Key` of `POST …/reveal` (a new
   * random UUID by default, the same for every repeat of this call). Revealing again with the same
   * id within the server's window (`PUSH_REVEAL_RETRY_SECONDS`) returns the same content without
   * using another view: pass your own to make a retry after a lost answer safe.
   */
  revealId?: string;
  /**
   * What to do when the push can no longer be viewed: throw a PushExpiredError (the default), or
   * return the API's answer (`expired: true`, `payload: null`).
   */
  expired?: 'throw' | 'return';
}

export interface NotifyEmailsOptions extends CallOptions {
  /** The language of the email (one of the server's supported locales); the server's choice by default. */
  locale?: string;
}

export interface PageOptions extends CallOptions {
  /** The first page to read (1 to 200). Default 1. */
  startPage?: number;
}

export interface DownloadOptions extends CallOptions {
  /** Called with the number of bytes received so far. */
  onProgress?: (bytesReceived: number) => void;
}

export interface Download {
  /** The file's bytes; read it to the end (or cancel it) to release the connection. */
  body: ReadableStream<Uint8Array>;
  /** The file name from Content-Disposition, when given. */
  filename: string | undefined;
  /**
   * The file's type as uploaded (the PushFile's `content_type`); for a bare link, the response's
   * `application/octet-stream`.
   */
  contentType: string | undefined;
  /** Content-Length, when given. */
  size: number | undefined;
}

export interface NodeDownload extends Omit<Download, 'body'> {
  body: Readable;
}

/**
 * A list of the caller's pushes, read page by page as it is iterated. `for await (const push of
 * list)` gives the pushes; `list.pages()` gives the pages (arrays of up to 50).
 */
export interface PushList extends AsyncIterable<OwnedPush> {
  pages(): AsyncIterable<OwnedPush[]>;
}

export interface SecretPushClient {
  /** The API's base URL (ending in `/api/v2`). */
  readonly apiUrl: string;
  /** `GET /version`: the server's version and the features it enables. */
  version(options?: CallOptions): Promise<Version>;
  /**
   * The access token the client sends: with client credentials, the cached one (fetched when
   * missing or about to expire; `fresh: true` fetches a new one, e.g. to check the credentials);
   * a static token as given. Throws a TypeError for a client without credentials.
   */
  accessToken(options?: CallOptions & { fresh?: boolean }): Promise<AccessToken>;
  /** `POST /pushes`: a text, URL, QR or file push. Sends an Idempotency-Key. */
  create(input: CreatePushInput, options?: CreateOptions): Promise<OwnedPush>;
  /** `GET /pushes/:token` (or `POST …/reveal` with a passphrase). **Uses a view.** */
  retrieve(urlToken: string, options?: RetrieveOptions): Promise<RetrievedPush>;
  /** `GET /pushes/:token/preview`: the recipient page's URL; uses no view. */
  preview(urlToken: string, options?: CallOptions): Promise<Preview>;
  /** `GET /pushes/:token/audit`: one page (50 entries) of the owner's audit log. */
  audit(urlToken: string, options?: CallOptions & { page?: number }): Promise<AuditLog>;
  /** Every entry of the audit log, page after page. */
  auditEntries(urlToken: string, options?: PageOptions): AsyncIterable<AuditEntry>;
  /**
   * `POST /pushes/:token/notify_emails`: emails the push's link to `recipients` (an array, or a
   * comma-separated string; at most 5 per push over its life), never its passphrase. Only the
   * owner may; the server must have email (`features.pushes.email_auto_dispatch`, else a
   * NotFoundError). Not repeated after a failure (a repeat could send twice): see `retryAfter` of a
   * RateLimitedError (5 calls a minute per user, and a daily cap).
   */
  notifyEmails(
    urlToken: string,
    recipients: string | readonly string[],
    options?: NotifyEmailsOptions,
  ): Promise<NotifyEmailsResult>;
  /** `DELETE /pushes/:token`: expires the push now. */
  expire(urlToken: string, options?: CallOptions): Promise<Push>;
  /** `GET /pushes/active`: the caller's pushes that can still be viewed, newest first. */
  active(options?: PageOptions): PushList;
  /** `GET /pushes/expired`: the caller's expired pushes, newest first. */
  expired(options?: PageOptions): PushList;
  /** Downloads a file of a retrieved push (its `url`) as a web ReadableStream. Uses a download. */
  download(file: PushFile | string, options?: DownloadOptions): Promise<Download>;
  /** The same as `download`, as a Node Readable. */
  downloadNode(file: PushFile | string, options?: DownloadOptions): Promise<NodeDownload>;
  /** `/webhooks`: the caller's webhook endpoints and their delivery log (see WebhookAdmin). */
  readonly webhooks: WebhookAdmin;
  /** `/requests`: asking someone for a secret, and answering such a request (see RequestAdmin). */
  readonly requests: RequestAdmin;
}

/**
 * `client.requests`. A request is named by its url_token or one of its links on the client's own
 * origin (`…/respond/TOKEN`, `…/api/v2/requests/TOKEN.json`); anything else rejects with a
 * TypeError before anything is sent. The owner's calls need a token (`pushes:write` to create and
 * close, `pushes:read` for the rest); the responder's need none where the instance allows
 * anonymous access (a token is sent when the client has one).
 */
export interface RequestAdmin {
  /** `POST /requests`: JSON, or with `files` multipart, streamed. Never repeated (a second request). */
  create(input: CreateRequestInput, options?: RequestCreateOptions): Promise<RequestView>;
  /** `GET /requests/:t`: the request, its state and, once answered, the answer push's link. */
  get(linkOrToken: string, options?: CallOptions): Promise<RequestView>;
  /** `GET /requests/:t/preview`: the responder's page (`url`). */
  preview(linkOrToken: string, options?: CallOptions): Promise<Preview>;
  /** `GET /requests/:t/audit`: one page of the audit log. */
  audit(linkOrToken: string, options?: CallOptions & { page?: number }): Promise<RequestAuditLog>;
  /** Every entry of the audit log, page after page. */
  auditEntries(linkOrToken: string, options?: PageOptions): AsyncIterable<RequestAuditEntry>;
  /** `DELETE /requests/:t`: closes it (its attached files are purged); closing a closed one is the same. */
  close(linkOrToken: string, options?: CallOptions): Promise<RequestView>;
  /** `GET /requests/:state` (`active` by default: open and answered), newest first, page by page. */
  list(state?: RequestListState, options?: PageOptions): RequestList;
  /**
   * The answer: the request's answer push retrieved (**uses one of its views**; its files then
   * download with `download`/`downloadNode`), or null while nothing has been answered.
   */
  answer(
    linkOrToken: string,
    options?: CallOptions & Pick<RetrieveOptions, 'expired'>,
  ): Promise<RetrievedPush | null>;
  /** `GET /requests/:t/respond`: what the responder sees; spends nothing. */
  view(linkOrToken: string, options?: CallOptions): Promise<ResponderView>;
  /**
   * `POST /requests/:t/respond`: the answer (text, files, or both; files streamed, multipart).
   * Never repeated. A second answer is a SecretPushError `already_answered` (409).
   */
  respond(linkOrToken: string, input: RespondInput, options?: RequestCreateOptions): Promise<RespondResult>;
  /**
   * `POST /requests/:t/code`: for a request answerable by listed addresses, mails a 6-digit code
   * (valid 15 minutes) to `email` when it is listed; the answer is the same either way.
   */
  requestCode(linkOrToken: string, email: string, options?: CallOptions): Promise<{ message: string }>;
  /** `GET /requests/:t/files/:id`: a file the requester attached, streamed. Uses a download. */
  downloadAttachment(linkOrToken: string, fileId: string, options?: DownloadOptions): Promise<Download>;
}

/** A new endpoint: where messages go (https; http where the operator allows it) and which events. */
export interface WebhookInput {
  url: string;
  /** At least one; duplicates are dropped by the server. */
  event_types: readonly WebhookEventType[];
  /** False: created disabled (it listens to nothing until enabled). Default true. */
  enabled?: boolean;
}

/** Changes to an endpoint: any of these, at least one. `enabled: true` clears `disabled_reason`. */
export interface WebhookChanges {
  url?: string;
  event_types?: readonly WebhookEventType[];
  enabled?: boolean;
}

/** `client.webhooks`: the caller's webhook endpoints and their delivery log. */
export interface WebhookAdmin {
  /** `GET /webhooks`: every endpoint of the caller, oldest first. */
  list(options?: CallOptions): Promise<Webhook[]>;
  /** `GET /webhooks/:id`. */
  get(id: string, options?: CallOptions): Promise<Webhook>;
  /** `POST /webhooks`: the endpoint with its `secret`, shown this once: store it. Never repeated. */
  create(input: WebhookInput, options?: CallOptions): Promise<WebhookWithSecret>;
  /** `PATCH /webhooks/:id`: its URL, event types, or enabled. */
  update(id: string, changes: WebhookChanges, options?: CallOptions): Promise<Webhook>;
  /** `DELETE /webhooks/:id`: the endpoint as it was; its log and queued messages go with it. */
  delete(id: string, options?: CallOptions): Promise<Webhook>;
  /**
   * `POST /webhooks/:id/rotate`: a new `secret`, shown this once; the previous one also signs until
   * `previous_secret_expires_at` (24 hours). Never repeated.
   */
  rotate(id: string, options?: CallOptions): Promise<WebhookWithSecret>;
  /** `POST /webhooks/:id/test`: queues a `webhook.test` message; the delivery, `pending`. Never repeated. */
  test(id: string, options?: CallOptions): Promise<WebhookDelivery>;
  /** `GET /webhooks/:id/deliveries`: one page (up to 50) of the delivery log, newest first. */
  deliveries(id: string, options?: CallOptions & { page?: number }): Promise<WebhookDelivery[]>;
  /** Every delivery of the log, newest first, page after page (until a page is not full). */
  allDeliveries(id: string, options?: PageOptions): AsyncIterable<WebhookDelivery>;
  /** `GET /webhooks/:id/deliveries/:delivery_id`. */
  delivery(id: string, deliveryId: string, options?: CallOptions): Promise<WebhookDelivery>;
  /**
   * `POST /webhooks/:id/deliveries/:delivery_id/replay`: the same message (same `webhook-id` and
   * body, signed afresh) is due now with a fresh retry schedule; a delivery being sent right now is
   * left as it is.
   */
  replay(id: string, deliveryId: string, options?: CallOptions): Promise<WebhookDelivery>;
}
