/* eslint-disable -- generated code */
/*
 * Generated from the OpenAPI document of the push API (services/push/src/http/openapi) by
 * openapi-typescript. Do not edit: run packages/client/src/openapi-types.test.ts with
 * SP_WRITE_OPENAPI_TYPES=1 to regenerate it.
 */
export interface paths {
  '/version': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Version and instance features
     * @description Public: any token, valid or not, is ignored here. Values come from instance configuration.
     */
    get: operations['getVersion'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/openapi': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * This OpenAPI document
     * @description The OpenAPI 3.1 description of this API, also at `/openapi.json`. Public.
     */
    get: operations['getOpenApi'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/docs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Human-readable API documentation
     * @description This document rendered as one self-contained HTML page (no scripts, no external assets). Public.
     */
    get: operations['getDocs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/pushes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create a push
     * @description Without a token the push is anonymous: nobody can list it or read its audit log. A token, when sent, needs the `pushes:write` scope, and the push then belongs to the token's client. Numbers and booleans may be sent as strings. Out-of-range or malformed values → 422 naming the field and the allowed range. The response is the only place that shows the `url_token` of an anonymous push, and its `name` and `note`.
     */
    post: operations['createPush'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/pushes/active': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List your active pushes
     * @description The caller's own pushes that are still active, newest first, 50 per page, with `name` and `note` and never the payload. Needs `pushes:read`; uses no views. A `Link` header gives the next and previous pages.
     */
    get: operations['listActivePushes'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/pushes/expired': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List your expired pushes
     * @description The caller's own pushes that are expired (a push past its window is listed here even before the worker ran), newest first, 50 per page, with `name` and `note` and never the payload. Needs `pushes:read`; uses no views. A `Link` header gives the next and previous pages.
     */
    get: operations['listExpiredPushes'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/pushes/{url_token}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Retrieve a push (uses a view)
     * @description Every successful retrieval uses one view, the owner's too, and is audited. The retrieval that uses the last view returns the payload with `views_remaining: 0` and `expired: true`. An expired push answers 200 with `expired: true`, `payload: null` and `files: []`. A passphrase that is missing or wrong → 401 `passphrase_required`, and no view is used; every attempt with a passphrase counts against a per-push and per-IP limit (429 beyond it), and if Redis is down such attempts answer 503. A push's `json_url` is this URL, so following it uses a view; owners check their pushes without using views through the lists and the preview.
     */
    get: operations['retrievePush'];
    put?: never;
    post?: never;
    /**
     * Expire a push now
     * @description The owner (with `pushes:write`) may always expire a push; anyone, with any token or none, when the push is `deletable_by_viewer`. Otherwise anonymous → 401, another client → 403 `forbidden`, the owner without `pushes:write` → 403 `insufficient_scope`. Wipes the payload and audits `expire`; an already expired push answers 200 unchanged.
     */
    delete: operations['expirePush'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/pushes/{url_token}/reveal': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Retrieve a push with the passphrase in the body (uses a view)
     * @description The same as GET /pushes/{url_token}, with the passphrase in the body (falling back to the query parameter or header). Every successful retrieval uses one view, the owner's too, and is audited. The retrieval that uses the last view returns the payload with `views_remaining: 0` and `expired: true`. An expired push answers 200 with `expired: true`, `payload: null` and `files: []`. A passphrase that is missing or wrong → 401 `passphrase_required`, and no view is used; every attempt with a passphrase counts against a per-push and per-IP limit (429 beyond it), and if Redis is down such attempts answer 503.
     */
    post: operations['revealPush'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/pushes/{url_token}/preview': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The recipient link of a push (no view)
     * @description Uses no view and works for expired pushes too.
     */
    get: operations['previewPush'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/pushes/{url_token}/audit': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Audit log of a push (owner only)
     * @description Entries oldest first, 50 per page, with a `Link` header to the neighbouring pages. Owner only, with the `pushes:read` scope.
     */
    get: operations['getPushAudit'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/files/{file_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download a file of a file push
     * @description Follow a `files[].url` from a retrieval as it is: the link is the credential (no token needed) and is signed for one file, one push, the view that was counted and an expiry equal to the grace period. Each (view, file) pair can be downloaded a few times (3 by default); after the last view of the push its files stay downloadable for the grace period, never after a DELETE or a time expiry. Any link that is not good now → 404, whatever the reason. Every download is audited `file_download`. The file is streamed as a download whatever its type: `Content-Type: application/octet-stream` (its declared type is the `content_type` of the retrieval), `Content-Disposition: attachment`, `Content-Security-Policy: sandbox; default-src 'none'`, `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`.
     */
    get: operations['downloadFile'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/files/archive': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download all files of a file push as one zip
     * @description The recipient page's "Download all" link, built from the `files[].url` of one retrieval: the view's `push`, `view` and `expires`, then `file=<file_id>.<sig>` for each file (each link's own signature). Nothing new is signed: each file is verified, counted and audited (`file_download`) exactly as if its own link were opened, when its turn in the archive comes, under the same per-view limit; a file whose link is not good now (no downloads left) is left out. The zip is streamed (`Content-Type: application/zip`, no `Content-Length`), each file read from the object store and decrypted as it is written, so memory stays bounded. No file can be opened → 404; the object store down before the first byte → 503 (nothing spent); a failure after it cuts the download. Browsers asking for HTML get the same statuses as pages.
     */
    get: operations['downloadAllFiles'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Your webhook endpoints
     * @description Every endpoint of the caller, oldest first. `pushes:read`.
     */
    get: operations['listWebhooks'];
    put?: never;
    /**
     * Add a webhook endpoint
     * @description Events of your pushes are POSTed to `url`, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). The answer carries the `secret`, shown this once. At most 10 endpoints. `pushes:write`.
     */
    post: operations['createWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One webhook endpoint
     * @description The endpoint. `pushes:read`.
     */
    get: operations['getWebhook'];
    put?: never;
    post?: never;
    /**
     * Delete a webhook endpoint
     * @description The endpoint and its delivery log; queued messages are not sent. `pushes:write`.
     */
    delete: operations['deleteWebhook'];
    options?: never;
    head?: never;
    /**
     * Change a webhook endpoint
     * @description Its URL, event types, or enabled (enabling clears the reason it was disabled). `pushes:write`.
     */
    patch: operations['updateWebhook'];
    trace?: never;
  };
  '/webhooks/{id}/rotate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rotate the signing secret
     * @description A new secret, shown this once, signs from now; the previous one also signs for 24 hours (`previous_secret_expires_at`): messages carry both signatures meanwhile. `pushes:write`.
     */
    post: operations['rotateWebhookSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/{id}/test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a test event
     * @description Queues a `webhook.test` message to the endpoint. `pushes:write`.
     */
    post: operations['testWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/{id}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The delivery log
     * @description Deliveries newest first, 50 per page. `pushes:read`.
     */
    get: operations['listWebhookDeliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/{id}/deliveries/{delivery_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One delivery
     * @description A delivery of the log. `pushes:read`.
     */
    get: operations['getWebhookDelivery'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/{id}/deliveries/{delivery_id}/replay': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a delivery again
     * @description The same message (same `webhook-id` and body, signed afresh) is due now with a fresh retry schedule: receivers that deduplicate on `webhook-id` ignore what they already have. A delivery being sent right now is left as it is. `pushes:write`.
     */
    post: operations['replayWebhookDelivery'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/requests': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Your active requests
     * @description The same as `/requests/active`: the caller's own requests that are open or answered, newest first, 50 per page, with a `Link` header. `pushes:read`.
     */
    get: operations['listRequests'];
    put?: never;
    /**
     * Request a secret
     * @description Creates a request: a link (`html_url`) for somebody to send you a secret. `pushes:write`. The answer becomes a push you own, with the request's answer limits. Files by `multipart/form-data` only (streamed encrypted into the object store): the instance's file count and per-file limits apply (422, 413), and the files of one request, or of one answer, are at most `PUSH_REQUESTS_MAX_TOTAL_FILE_BYTES` together (413). A refused upload leaves nothing behind.
     */
    post: operations['createRequest'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/requests/active': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Your active requests
     * @description the caller's own requests that are open or answered, newest first, 50 per page, with a `Link` header. `pushes:read`.
     */
    get: operations['listActiveRequests'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/requests/open': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Your open requests
     * @description the caller's own requests in state `open`, newest first, 50 per page, with a `Link` header. `pushes:read`.
     */
    get: operations['listOpenRequests'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/requests/answered': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Your answered requests
     * @description the caller's own requests in state `answered`, newest first, 50 per page, with a `Link` header. `pushes:read`.
     */
    get: operations['listAnsweredRequests'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/requests/ready': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Your ready requests
     * @description the caller's own requests that are answered (ready to read), newest first, 50 per page, with a `Link` header. `pushes:read`.
     */
    get: operations['listReadyRequests'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/requests/closed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Your closed requests
     * @description the caller's own requests in state `closed`, newest first, 50 per page, with a `Link` header. `pushes:read`.
     */
    get: operations['listClosedRequests'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/requests/{url_token}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One request (owner)
     * @description The request, with its answer’s link once answered. `pushes:read`.
     */
    get: operations['getRequest'];
    put?: never;
    post?: never;
    /**
     * Close a request (owner)
     * @description Closes it (`closed_reason: owner`) and purges your attachments; closing a closed request answers the same 200. An answer already given stays a push of its own. `pushes:write`.
     */
    delete: operations['closeRequest'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/requests/{url_token}/preview': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The responder link (owner)
     * @description `{"url": html_url}`. `pushes:read`.
     */
    get: operations['previewRequest'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/requests/{url_token}/audit': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Audit log of a request (owner)
     * @description Entries oldest first, 50 per page, with a `Link` header. `pushes:read`.
     */
    get: operations['getRequestAudit'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/requests/{url_token}/respond': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * What the responder sees
     * @description The message, whether a passphrase is needed, who may answer, the attachments and upload limits. Audited `link_opened`; spends nothing. No scope needed (anonymous while the instance allows it).
     */
    get: operations['viewRequest'];
    put?: never;
    /**
     * Answer a request (the responder)
     * @description Answers once: the payload (and files, where the request allows them) become a push owned by the requester. No scope needed (anonymous while the instance allows it). `answerable_by: users` needs a person's token; `emails` needs `email` + a valid `code` (403 `code_required`). A passphrase request needs `passphrase` (401 `passphrase_required`; 429 after the push passphrase limits). Never returns the answer's token. Files by `multipart/form-data` only (streamed encrypted into the object store): the instance's file count and per-file limits apply (422, 413), and the files of one request, or of one answer, are at most `PUSH_REQUESTS_MAX_TOTAL_FILE_BYTES` together (413). A refused upload leaves nothing behind.
     */
    post: operations['answerRequest'];
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Answer a request (PATCH, as POST)
     * @description Answers once: the payload (and files, where the request allows them) become a push owned by the requester. No scope needed (anonymous while the instance allows it). `answerable_by: users` needs a person's token; `emails` needs `email` + a valid `code` (403 `code_required`). A passphrase request needs `passphrase` (401 `passphrase_required`; 429 after the push passphrase limits). Never returns the answer's token. Files by `multipart/form-data` only (streamed encrypted into the object store): the instance's file count and per-file limits apply (422, 413), and the files of one request, or of one answer, are at most `PUSH_REQUESTS_MAX_TOTAL_FILE_BYTES` together (413). A refused upload leaves nothing behind.
     */
    patch: operations['answerRequestPatch'];
    trace?: never;
  };
  '/requests/{url_token}/files/{file_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download a requester's attachment (the responder)
     * @description The responder downloads a file the requester attached (`files[].id` of the responder's view). The same rules as the responder's view: no scope needed (anonymous callers while `features.anonymous_access` is true), a person's token for a request answerable by `users`. Each file can be downloaded `attachment_downloads` times (3 by default), counted atomically; after that 410 `gone`. A download whose read from the object store does not start (503) is given back. Audited `attachment_download`. Served as a download whatever its type: `Content-Type: application/octet-stream`, `Content-Disposition: attachment`, `Content-Security-Policy: sandbox; default-src 'none'`, `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`, `Cache-Control: no-store`.
     */
    get: operations['downloadRequestFile'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /** @description The push to create. Unknown fields are ignored; null means "not sent". */
    PushInput: {
      /** @description The secret. Required (not blank) unless kind is `file`. At most 1,048,576 characters (Unicode code points) for `text`, 1,024 for `qr`; an absolute http or https URL for `url`. */
      payload?: string | null;
      /**
       * @description `file` when files are attached, else `text`. Enabled on this instance: text, url, qr, file; another kind → 422.
       * @default text
       */
      kind?: ('text' | 'url' | 'qr' | 'file') | null;
      /** @description Files to attach (multipart/form-data `push[files][]`); makes the push a `file` push. */
      files?: unknown;
      /**
       * @description Days until the push expires, 1 to 90. An integer, also as an integer string ("5"). Not together with expire_after_duration.
       * @default 7
       */
      expire_after_days?: number | string | null;
      /** @description Instead of expire_after_days (both → 422): 0 = 15 min, 1 = 30 min, 2 = 45 min, 3 = 1 h, 4 = 6 h, 5 = 12 h, 6 = 1 d, 7 = 2 d, 8 = 3 d, 9 = 4 d, 10 = 5 d, 11 = 6 d, 12 = 1 w, 13 = 2 w, 14 = 3 w, 15 = 30 d, 16 = 60 d, 17 = 90 d. An integer, also as an integer string ("5"). */
      expire_after_duration?: number | string | null;
      /**
       * @description Views allowed, 1 to 100. An integer, also as an integer string ("5").
       * @default 5
       */
      expire_after_views?: number | string | null;
      /**
       * @description Whether anyone with the link may expire the push with DELETE; forced to null for `url` pushes. Also as a string: true/false/1/0/yes/no/on/off/checked (any case).
       * @default true
       */
      deletable_by_viewer?: boolean | (0 | 1) | string | null;
      /**
       * @description Whether the recipient page asks for a click before revealing the secret. Also as a string: true/false/1/0/yes/no/on/off/checked (any case).
       * @default true
       */
      retrieval_step?: boolean | (0 | 1) | string | null;
      /** @description Recipients must send it to retrieve the push. Stored as a slow hash, never returned; empty means none. */
      passphrase?: string | null;
      /** @description A label shown only to the owner (create response, lists). */
      name?: string | null;
      /** @description A note shown only to the owner; encrypted at rest. For an anonymous push it appears only in the create response. */
      note?: string | null;
      /** @description Comma-separated email addresses (at most 5) to send the link to */
      notify_emails_to?: string | null;
      /** @description The language of the email: one of en, de, fr, es, it, nl, pt-BR, pl (exactly as written; the instance may offer fewer). Not given: the sender's language at creation (cookie or Accept-Language), else the instance's default */
      notify_emails_to_locale?: string | null;
      /** @description Name the owner's verified address in the email (default false) */
      notify_emails_include_sender?: boolean | (0 | 1) | string | null;
      /** @description Owner notices: view, failed_passphrase, expired_unseen (array, or comma-separated in forms) */
      notify_owner_on?: ('view' | 'failed_passphrase' | 'expired_unseen')[] | string | null;
    } & {
      [key: string]: unknown;
    };
    CreatePushRequest: {
      push: components['schemas']['PushInput'];
    };
    RevealRequest: {
      /** @description The passphrase of the push. */
      passphrase?: string;
    };
    /** @description A push, as anyone with its token sees it (no payload). */
    Push: {
      /** @description The secret part of the links (128 random bits, URL-safe base64). */
      url_token: string;
      /**
       * @description What the payload is.
       * @enum {string}
       */
      kind: 'text' | 'url' | 'qr' | 'file';
      /** @description Days the push lives (1 when the window is shorter than a day). */
      expire_after_days: number;
      /** @description Views the push allows. */
      expire_after_views: number;
      /** @description True once no view is left, the window has passed, or the push was deleted. */
      expired: boolean;
      /**
       * Format: date-time
       * @description When the push expired; null while active.
       */
      expired_on: string | null;
      /**
       * Format: date-time
       * @description The exact end of the time window (authoritative).
       */
      expires_at: string;
      /** @description True when expired by DELETE. */
      deleted: boolean;
      /** @description Whether anyone with the link may DELETE it; always null for `url` pushes. */
      deletable_by_viewer: boolean | null;
      /** @description Whether the recipient page asks for a click before revealing. */
      retrieval_step: boolean;
      /** @description Whether a passphrase is needed; the passphrase itself is never returned. */
      passphrase_protected: boolean;
      /** @description max(0, ceil((expires_at − now) / 1 day)). */
      days_remaining: number;
      /** @description expire_after_views minus the views used. */
      views_remaining: number;
      /**
       * Format: date-time
       * @description Creation time (UTC, milliseconds).
       */
      created_at: string;
      /**
       * Format: date-time
       * @description Last change (UTC, milliseconds).
       */
      updated_at: string;
      /**
       * Format: uri
       * @description The live retrieve URL of this push: following it with GET uses a view.
       */
      json_url: string;
      /**
       * Format: uri
       * @description The recipient page (`/p/TOKEN`, `/p/TOKEN/r` with a retrieval step).
       */
      html_url: string;
    };
    /** @description A push as its owner sees it: adds `name` and `note`, never `payload`. */
    OwnedPush: {
      /** @description The secret part of the links (128 random bits, URL-safe base64). */
      url_token: string;
      /**
       * @description What the payload is.
       * @enum {string}
       */
      kind: 'text' | 'url' | 'qr' | 'file';
      /** @description Days the push lives (1 when the window is shorter than a day). */
      expire_after_days: number;
      /** @description Views the push allows. */
      expire_after_views: number;
      /** @description True once no view is left, the window has passed, or the push was deleted. */
      expired: boolean;
      /**
       * Format: date-time
       * @description When the push expired; null while active.
       */
      expired_on: string | null;
      /**
       * Format: date-time
       * @description The exact end of the time window (authoritative).
       */
      expires_at: string;
      /** @description True when expired by DELETE. */
      deleted: boolean;
      /** @description Whether anyone with the link may DELETE it; always null for `url` pushes. */
      deletable_by_viewer: boolean | null;
      /** @description Whether the recipient page asks for a click before revealing. */
      retrieval_step: boolean;
      /** @description Whether a passphrase is needed; the passphrase itself is never returned. */
      passphrase_protected: boolean;
      /** @description max(0, ceil((expires_at − now) / 1 day)). */
      days_remaining: number;
      /** @description expire_after_views minus the views used. */
      views_remaining: number;
      /**
       * Format: date-time
       * @description Creation time (UTC, milliseconds).
       */
      created_at: string;
      /**
       * Format: date-time
       * @description Last change (UTC, milliseconds).
       */
      updated_at: string;
      /**
       * Format: uri
       * @description The live retrieve URL of this push: following it with GET uses a view.
       */
      json_url: string;
      /**
       * Format: uri
       * @description The recipient page (`/p/TOKEN`, `/p/TOKEN/r` with a retrieval step).
       */
      html_url: string;
      /** @description Owner-only label; empty when not set. */
      name: string;
      /** @description Owner-only note (encrypted at rest); empty when not set or wiped at expiry. */
      note: string;
      /** @description The owner notices this push sends; present only when it sends some. */
      notify_owner_on?: ('view' | 'failed_passphrase' | 'expired_unseen')[];
      /** @description Create only, when supplied: the recipients the link is emailed to. */
      notify_emails_to?: string;
      /**
       * @description Create only, when supplied: the language of the email. Not supplied, the emails are in the sender's language at creation (cookie or `Accept-Language`, among the offered languages), else the instance's default (I18N_DEFAULT_LANGUAGE).
       * @enum {string}
       */
      notify_emails_to_locale?: 'en' | 'de' | 'fr' | 'es' | 'it' | 'nl' | 'pt-BR' | 'pl';
    };
    /** @description A retrieved push: adds `payload` and `files`. */
    RetrievedPush: {
      /** @description The secret part of the links (128 random bits, URL-safe base64). */
      url_token: string;
      /**
       * @description What the payload is.
       * @enum {string}
       */
      kind: 'text' | 'url' | 'qr' | 'file';
      /** @description Days the push lives (1 when the window is shorter than a day). */
      expire_after_days: number;
      /** @description Views the push allows. */
      expire_after_views: number;
      /** @description True once no view is left, the window has passed, or the push was deleted. */
      expired: boolean;
      /**
       * Format: date-time
       * @description When the push expired; null while active.
       */
      expired_on: string | null;
      /**
       * Format: date-time
       * @description The exact end of the time window (authoritative).
       */
      expires_at: string;
      /** @description True when expired by DELETE. */
      deleted: boolean;
      /** @description Whether anyone with the link may DELETE it; always null for `url` pushes. */
      deletable_by_viewer: boolean | null;
      /** @description Whether the recipient page asks for a click before revealing. */
      retrieval_step: boolean;
      /** @description Whether a passphrase is needed; the passphrase itself is never returned. */
      passphrase_protected: boolean;
      /** @description max(0, ceil((expires_at − now) / 1 day)). */
      days_remaining: number;
      /** @description expire_after_views minus the views used. */
      views_remaining: number;
      /**
       * Format: date-time
       * @description Creation time (UTC, milliseconds).
       */
      created_at: string;
      /**
       * Format: date-time
       * @description Last change (UTC, milliseconds).
       */
      updated_at: string;
      /**
       * Format: uri
       * @description The live retrieve URL of this push: following it with GET uses a view.
       */
      json_url: string;
      /**
       * Format: uri
       * @description The recipient page (`/p/TOKEN`, `/p/TOKEN/r` with a retrieval step).
       */
      html_url: string;
      /** @description The secret; null when the push is expired (or a file push without text). */
      payload: string | null;
      /** @description `[]` unless kind is `file`. */
      files: components['schemas']['PushFile'][];
    };
    /** @description An attached file. */
    PushFile: {
      /** @description Original file name. */
      filename: string;
      /** @description Media type of the file. */
      content_type: string;
      /** @description Size in bytes. */
      size: number;
      /**
       * Format: uri
       * @description Short-lived download link.
       */
      url: string;
    };
    /** @description Server and API version with the instance features. */
    Version: {
      /** @description Version of this server. */
      application_version: string;
      /** @constant */
      api_version: '2.1';
      /**
       * @description `commercial` while requests are on (PUSH_REQUESTS_ENABLED), else `oss`.
       * @enum {string}
       */
      edition: 'oss' | 'commercial';
      features: {
        /** @description Whether create (non-file), retrieve, preview and viewer DELETE work without a token. */
        anonymous_access: boolean;
        /** @constant */
        api_token_authentication: true;
        accounts: {
          /** @constant */
          enabled: false;
        };
        pushes: {
          /** @description Whether pushes are enabled at all. */
          enabled: boolean;
          /** @description Whether links can be emailed (`notify_emails_to`, `notify_emails`): true exactly when SMTP is configured. */
          email_auto_dispatch: boolean;
          file_attachments: {
            /** @description Whether file pushes are enabled. */
            enabled: boolean;
            /** @description Whether file pushes need a token. */
            requires_authentication: boolean;
          };
          url_pushes: {
            /** @description Whether `url` pushes are enabled. */
            enabled: boolean;
          };
          qr_code_pushes: {
            /** @description Whether `qr` pushes are enabled. */
            enabled: boolean;
          };
        };
        requests: {
          /** @description Whether requests (`/requests`) are on. */
          enabled: boolean;
          /** @description Whether request links can be emailed (`notify_emails_to`) and `answerable_by: emails` is offered: true exactly when SMTP is configured. */
          email_auto_dispatch: boolean;
        };
      };
    };
    Preview: {
      /**
       * Format: uri
       * @description The `html_url`.
       */
      url: string;
    };
    /** @description One audit log entry. */
    AuditEntry: {
      /** @enum {string} */
      kind:
        | 'creation'
        | 'view'
        | 'failed_view'
        | 'failed_passphrase'
        | 'expire'
        | 'expire_by_views'
        | 'expire_by_time'
        | 'link_opened'
        | 'file_download'
        | 'view_refunded'
        | 'creation_email_send'
        | 'expire_by_receipt';
      /** @description Client address as seen through trusted proxies only. */
      ip: string | null;
      user_agent: string;
      referrer: string;
      /**
       * Format: date-time
       * @description When it happened.
       */
      created_at: string;
      /** @description Password Pusher's `notify_by_email` of a `creation_email_send` entry. */
      notify_by_email?: {
        /** @description The addresses of this send, comma-separated. */
        recipients: string;
        /** @description The language of its emails. */
        locale: string;
        /** @enum {string} */
        status: 'pending' | 'completed' | 'partially_failed' | 'failed';
        /** @description The addresses the SMTP server accepted, comma-separated. */
        successful_sends: string;
        error_message: string | null;
        /**
         * Format: date-time
         * @description When the send was queued.
         */
        proceed_at: string;
        /** @description How many recipients. */
        recipients_count: number;
      };
      /** @description A `creation_email_send` entry: each recipient’s email; an entry whose event caused an owner notice: that notice. */
      email_deliveries?: {
        /** @description The address. */
        recipient: string;
        /** @enum {string} */
        status: 'queued' | 'sent' | 'deferred' | 'failed';
        /** @description Delivery attempts so far. */
        attempts: number;
        /** @description The SMTP server's reply when sent; the reason when deferred or failed; null while queued. */
        detail: string | null;
        /**
         * Format: date-time
         * @description Last change of its state.
         */
        updated_at: string;
        /**
         * @description An owner notice (absent for a recipient’s link).
         * @enum {string}
         */
        purpose?: 'notice_viewed' | 'notice_failed_passphrase' | 'notice_expired_unseen';
      }[];
    };
    AuditLog: {
      logs: components['schemas']['AuditEntry'][];
      /** @description Entries not recorded because the push reached its audit cap (failed views, page openings and downloads beyond it; failed passphrases are always recorded). */
      dropped: number;
    };
    /** @description Every error answer. Display `error`; branch on `code`. */
    ErrorBody: {
      /** @description A human sentence. */
      error: string;
      /** @enum {string} */
      code:
        | 'bad_request'
        | 'invalid_page'
        | 'unauthorized'
        | 'invalid_token'
        | 'insufficient_scope'
        | 'forbidden'
        | 'not_found'
        | 'passphrase_required'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'method_not_allowed'
        | 'validation_failed'
        | 'idempotency_key_reused'
        | 'already_answered'
        | 'code_required'
        | 'gone'
        | 'rate_limited'
        | 'dependency_unavailable'
        | 'internal_error';
      /** @description Quote it when reporting a problem. */
      request_id: string;
      /** @description Validation errors (422): messages by field name. */
      fields?: {
        [key: string]: string[];
      };
      /** @description How to send the passphrase (401 `passphrase_required` only). */
      message?: string;
    } & (unknown & unknown);
    /** @description A webhook endpoint (never its secret). */
    Webhook: {
      /**
       * Format: uuid
       * @description The endpoint.
       */
      id: string;
      /**
       * Format: uri
       * @description Where messages are POSTed.
       */
      url: string;
      /** @description The event types sent to this endpoint (`webhook.test` is sent on request whatever they are). */
      event_types: (
        | 'push.created'
        | 'push.viewed'
        | 'push.view_refunded'
        | 'push.failed_passphrase'
        | 'push.expired'
        | 'push.file_downloaded'
        | 'email.delivery_failed'
        | 'request.answered'
        | 'request.closed'
      )[];
      /** @description False: nothing is queued or sent. */
      enabled: boolean;
      /** @description Why it was disabled (by its owner, a 410, a spent retry schedule). */
      disabled_reason: string | null;
      /**
       * Format: date-time
       * @description During a rotation: when the previous secret stops signing (both sign until then).
       */
      previous_secret_expires_at: string | null;
      /**
       * Format: date-time
       * @description Creation time.
       */
      created_at: string;
      /**
       * Format: date-time
       * @description Last change.
       */
      updated_at: string;
    };
    /** @description A webhook endpoint with its new secret. */
    WebhookWithSecret: {
      /**
       * Format: uuid
       * @description The endpoint.
       */
      id: string;
      /**
       * Format: uri
       * @description Where messages are POSTed.
       */
      url: string;
      /** @description The event types sent to this endpoint (`webhook.test` is sent on request whatever they are). */
      event_types: (
        | 'push.created'
        | 'push.viewed'
        | 'push.view_refunded'
        | 'push.failed_passphrase'
        | 'push.expired'
        | 'push.file_downloaded'
        | 'email.delivery_failed'
        | 'request.answered'
        | 'request.closed'
      )[];
      /** @description False: nothing is queued or sent. */
      enabled: boolean;
      /** @description Why it was disabled (by its owner, a 410, a spent retry schedule). */
      disabled_reason: string | null;
      /**
       * Format: date-time
       * @description During a rotation: when the previous secret stops signing (both sign until then).
       */
      previous_secret_expires_at: string | null;
      /**
       * Format: date-time
       * @description Creation time.
       */
      created_at: string;
      /**
       * Format: date-time
       * @description Last change.
       */
      updated_at: string;
      /** @description The signing secret (Standard Webhooks), shown this once: store it now. */
      secret: string;
    };
    /** @description One message to one endpoint, and how its delivery went. */
    WebhookDelivery: {
      /** @description The `webhook-id` of every attempt. */
      id: string;
      /**
       * Format: uuid
       * @description The event (one delivery per endpoint and event).
       */
      event_id: string;
      /** @description The event type. */
      type: string;
      /**
       * @description Its state.
       * @enum {string}
       */
      status: 'pending' | 'delivering' | 'succeeded' | 'failed';
      /** @description Attempts so far (0 again after a replay). */
      attempts: number;
      /**
       * Format: date-time
       * @description When it is next tried (pending, delivering).
       */
      next_attempt_at: string | null;
      /** @description The receiver's last HTTP status. */
      last_status_code: number | null;
      /** @description Why the last attempt failed. */
      last_error: string | null;
      /** @description How long the last attempt took. */
      latency_ms: number | null;
      /** @description The start of the receiver's last answer (at most 4 KiB). */
      response: string | null;
      /**
       * Format: date-time
       * @description When it succeeded.
       */
      delivered_at: string | null;
      /**
       * Format: date-time
       * @description When it was queued.
       */
      created_at: string;
    };
    WebhookCreateRequest: {
      /** @description https (http where the operator allows it), no credentials. */
      url: string;
      /** @description The event types sent to this endpoint (`webhook.test` is sent on request whatever they are). */
      event_types: (
        | 'push.created'
        | 'push.viewed'
        | 'push.view_refunded'
        | 'push.failed_passphrase'
        | 'push.expired'
        | 'push.file_downloaded'
        | 'email.delivery_failed'
        | 'request.answered'
        | 'request.closed'
      )[];
      /**
       * @description false: created disabled (listens to nothing until enabled).
       * @default true
       */
      enabled?: boolean;
    };
    WebhookUpdateRequest: {
      /** @description A new URL. */
      url?: string;
      /** @description The event types sent to this endpoint (`webhook.test` is sent on request whatever they are). */
      event_types?: (
        | 'push.created'
        | 'push.viewed'
        | 'push.view_refunded'
        | 'push.failed_passphrase'
        | 'push.expired'
        | 'push.file_downloaded'
        | 'email.delivery_failed'
        | 'request.answered'
        | 'request.closed'
      )[];
      /** @description Enable (again) or disable. */
      enabled?: boolean;
    };
    /** @description A new request. Integers also as integer strings, booleans also as words. */
    RequestInput: {
      /** @description The message shown to the responder: not blank (422), except in a multipart create that attaches files (`request[files][]`), where it may be empty (a request whose message is its files). */
      request: string;
      /** @description A label only you see. */
      name?: string;
      /** @description A note only you see. */
      note?: string;
      /** @description How long it stays open: the duration enum of `expire_after_duration`. */
      close_after_duration?: number | string;
      /** @description How long it stays open, in days (default 7). */
      expire_after_days?: number | string;
      /** @description Like `close_after_duration` (at most one of the three). */
      expire_after_duration?: number | string;
      /** @description Views of the answer push (default 1). */
      expire_after_views?: number | string;
      /** @description The answer push's window, from the answer (default: the request's window). */
      answer_expire_after_days?: number | string;
      /** @description The answer push can be deleted by its viewer. */
      deletable_by_viewer?: boolean | (0 | 1) | string;
      /** @description The answer push has a retrieval step. */
      retrieval_step?: boolean | (0 | 1) | string;
      /** @description The responder must give it to answer. */
      passphrase?: string;
      /** @description The responder may attach files (default false). */
      response_file_attachments?: boolean | (0 | 1) | string;
      /** @description Show your email to the responder (default false). */
      include_requestor?: boolean | (0 | 1) | string;
      /**
       * @description Who may answer.
       * @default anyone
       * @enum {string}
       */
      answerable_by?: 'anyone' | 'users' | 'emails';
      /** @description Comma-separated or an array, at most 5; required with `emails`, refused otherwise. */
      answerable_emails?: string | string[];
      /** @description Addresses the link is emailed to (instances that send email). */
      notify_emails_to?: string;
      /**
       * @description The language of those emails (and of the codes and notices about this request), spelled exactly as listed. Not given: the requester's language at creation (cookie or `Accept-Language`, among the offered languages), else the instance's default (I18N_DEFAULT_LANGUAGE).
       * @enum {string}
       */
      notify_emails_to_locale?: 'en' | 'de' | 'fr' | 'es' | 'it' | 'nl' | 'pt-BR' | 'pl';
      /** @description Email you when it is answered. */
      notify_owner_on_answer?: boolean | (0 | 1) | string;
      /** @description Downloads of each attachment by the responder (default 3). */
      attachment_downloads?: number | string;
      /** @description Attachments: multipart `request[files][]` parts only. */
      files?: unknown;
    };
    CreateRequestBody: {
      request: components['schemas']['RequestInput'];
    };
    ResponseInput: {
      /** @description The secret (text, an http(s) URL, or QR text); required unless files are attached (then optional text beside them). */
      payload?: string;
      /**
       * @description The kind of payload.
       * @default text
       * @enum {string}
       */
      kind?: 'text' | 'url' | 'qr';
      /** @description The request's passphrase, when it has one. */
      passphrase?: string;
      /** @description A listed address (`answerable_by: emails`). */
      email?: string;
      /** @description The one-time code sent to it. */
      code?: string;
      /** @description Files: multipart `response[files][]` parts only, where the request allows them. */
      files?: unknown;
    };
    RespondBody: {
      response: components['schemas']['ResponseInput'];
    };
    CodeBody: {
      /** @description A listed address. */
      email: string;
    };
    /** @description A request as its owner sees it (never the passphrase). */
    RequestView: {
      /** @description The request's token: the responder's link. */
      url_token: string;
      /**
       * Format: uri
       * @description The responder page, `<public URL>/respond/<url_token>`.
       */
      html_url: string;
      /**
       * Format: uri
       * @description `<public URL>/api/v2/requests/<url_token>.json`.
       */
      json_url: string;
      /**
       * @description open → answered, or closed.
       * @enum {string}
       */
      state: 'open' | 'answered' | 'closed';
      /** @description The message shown to the responder. */
      request: string;
      /** @description Your label ("" when none). */
      name: string;
      /** @description Your private note ("" when none). */
      note: string;
      /** @description A passphrase is set (never its value). */
      passphrase: boolean;
      /** @description The responder may attach files. */
      response_file_attachments: boolean;
      /** @description The responder sees the requester's email. */
      include_requestor: boolean;
      /**
       * @description Who may answer.
       * @enum {string}
       */
      answerable_by: 'anyone' | 'users' | 'emails';
      /** @description The addresses that may answer (lower-cased; empty unless `emails`). */
      answerable_emails: string[];
      /** @description The window as sent (duration enum), else null. */
      close_after_duration: number | null;
      /** @description The window in days as sent (or the default), else null. */
      expire_after_days: number | null;
      /** @description The window as `expire_after_duration`, else null. */
      expire_after_duration: number | null;
      /**
       * Format: date-time
       * @description When it closes unanswered.
       */
      close_after_at: string;
      /** @description Whole days until `close_after_at` (0 when closed). */
      days_remaining: number;
      /** @description Views of the answer push. */
      expire_after_views: number;
      /** @description The answer push has a retrieval step. */
      retrieval_step: boolean;
      /** @description The answer push can be deleted by its viewer. */
      deletable_by_viewer: boolean;
      /** @description The answer push's window, days from the answer. */
      answer_expire_after_days: number;
      /** @description You are emailed when it is answered. */
      notify_owner_on_answer: boolean;
      /** @description Your attachments (purged when the request closes). */
      files: {
        /**
         * Format: uuid
         * @description The attachment.
         */
        id: string;
        /** @description Its name as uploaded. */
        filename: string;
        /** @description Its declared type (downloads are always octet-stream). */
        content_type: string;
        /** @description Bytes. */
        size: number;
      }[];
      /**
       * Format: date-time
       * @description Creation time.
       */
      created_at: string;
      /**
       * Format: date-time
       * @description Last change.
       */
      updated_at: string;
      /**
       * Format: date-time
       * @description When it was answered.
       */
      answered_at: string | null;
      /**
       * Format: date-time
       * @description When it closed.
       */
      closed_at: string | null;
      /**
       * @description Why it closed.
       * @enum {string|null}
       */
      closed_reason: 'owner' | 'time' | null;
      /** @description null until answered. */
      answer: null | {
        /** @description The answer push's token. */
        url_token: string;
        /**
         * Format: uri
         * @description The answer push's page (retrieving it spends its views).
         */
        html_url: string;
        /**
         * Format: uri
         * @description The answer push in the API (`GET /pushes/{url_token}` spends a view).
         */
        json_url: string;
        /**
         * Format: date-time
         * @description When it was answered.
         */
        answered_at: string | null;
        /** @description How many files the answer carries. */
        files: number;
      };
    };
    /** @description What the responder sees. */
    ResponderView: {
      /** @description The message. */
      request: string;
      /** @description The requester's email when they chose to show it. */
      requestor: string | null;
      /** @description Answering needs the passphrase. */
      passphrase_required: boolean;
      /** @description Files may be attached. */
      response_file_attachments: boolean;
      /**
       * @description Who may answer.
       * @enum {string}
       */
      answerable_by: 'anyone' | 'users' | 'emails';
      /**
       * Format: date-time
       * @description When it closes.
       */
      close_after_at: string;
      /** @description The requester's attachments. */
      files: {
        /**
         * Format: uuid
         * @description The attachment.
         */
        id: string;
        /** @description Its name as uploaded. */
        filename: string;
        /** @description Its declared type (downloads are always octet-stream). */
        content_type: string;
        /** @description Bytes. */
        size: number;
        /** @description Downloads left. */
        downloads_left: number;
      }[];
      /** @description Upload limits. */
      limits: {
        /** @description Longest payload. */
        max_payload_bytes: number;
        /** @description Most files. */
        max_files: number;
        /** @description Largest file. */
        max_file_bytes: number;
        /** @description All files together. */
        max_total_bytes: number;
      };
    };
    /** @description An accepted answer (never the answer push’s token). */
    Answered: {
      /**
       * @description Always `answered`.
       * @constant
       */
      state: 'answered';
      /**
       * Format: date-time
       * @description When.
       */
      answered_at: string;
    };
    /** @description Always the same. */
    CodeSent: {
      /** @description The same message whatever the address. */
      message: string;
    };
    /** @description One page of the audit log, oldest first. */
    RequestAuditLog: {
      logs: {
        /**
         * @description What happened.
         * @enum {string}
         */
        kind:
          | 'creation'
          | 'link_opened'
          | 'failed_passphrase'
          | 'answer'
          | 'answer_refused'
          | 'close'
          | 'close_by_time'
          | 'attachment_download'
          | 'code_sent';
        /** @description Client IP. */
        ip: string | null;
        /** @description User agent. */
        user_agent: string | null;
        /** @description Referrer. */
        referrer: string | null;
        /**
         * Format: date-time
         * @description When.
         */
        created_at: string;
      }[];
      /** @description Entries not recorded past the audit cap. */
      dropped: number;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getVersion: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Version and features. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Version'];
        };
      };
    };
  };
  getOpenApi: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The document. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            openapi: '3.1.0';
            info: Record<string, never>;
            paths: Record<string, never>;
          };
        };
      };
    };
  };
  getDocs: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The HTML page. */
      200: {
        headers: {
          /** @description A strict policy: no scripts, inline styles only. */
          'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'";
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
    };
  };
  createPush: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the create safe to retry: send a new random key (a UUID) with each create and the same key with its retries. A retry of the same request (the same fields once parsed, whatever their order or spelling, and for a file push the same file names, sizes and bytes) answers 201 with the push the first create made, as it is now (it may have expired since), header `Idempotent-Replayed: true`, and creates nothing. The same key with another request → 422 `idempotency_key_reused`. Keys belong to the token's client, or to the client IP for anonymous creates (an anonymous caller's key must be at least 32 characters, so that others behind the same address cannot guess it), and are remembered after the first create for 24 hours by default (`PUSH_IDEMPOTENCY_TTL_SECONDS`); a create that failed leaves no key behind. A retry that arrives while the first create is still running waits for it. 1–255 visible ASCII characters (0x21–0x7E), else 400 `bad_request`. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    /** @description JSON `{"push": {…}}`, an HTML form with `push[payload]`, `push[expire_after_views]`, …, or `multipart/form-data` with the same fields and the files as repeated `push[files][]` parts (streamed to the object store; count, size per file and total size are limited: 422 for too many files, 413 for too large). A missing or non-object `push` → 400. */
    requestBody: {
      content: {
        /**
         * @example {
         *       "push": {
         *         "payload": "correct horse battery staple",
         *         "expire_after_days": 2,
         *         "expire_after_views": 3
         *       }
         *     }
         */
        'application/json': components['schemas']['CreatePushRequest'];
        'application/x-www-form-urlencoded': components['schemas']['CreatePushRequest'];
        'multipart/form-data': components['schemas']['CreatePushRequest'];
      };
    };
    responses: {
      /** @description The new push, with `name` and `note`; or, for a retry with the same `Idempotency-Key`, the push the first create made. */
      201: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          /** @description `true` when the answer is the push an earlier create with the same `Idempotency-Key` made. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OwnedPush'];
        };
      };
      /** @description Missing or non-object `push`, invalid JSON, a token outside the Authorization header, or a malformed `Idempotency-Key`. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks `pushes:write`. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The request body is over 16 MiB. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported body charset or content encoding. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A field out of range or of the wrong type (`validation_failed`, with `fields`), or an `Idempotency-Key` already used with another request (`idempotency_key_reused`). */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  listActivePushes: {
    parameters: {
      query?: {
        /** @description 50 items per page; outside 1–200 or not an integer → 400 `invalid_page`. */
        page?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of active pushes. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          /** @description RFC 8288 links to the `next` (only after a full page) and `prev` pages, when they exist. */
          Link?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OwnedPush'][];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  listExpiredPushes: {
    parameters: {
      query?: {
        /** @description 50 items per page; outside 1–200 or not an integer → 400 `invalid_page`. */
        page?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of expired pushes. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          /** @description RFC 8288 links to the `next` (only after a full page) and `prev` pages, when they exist. */
          Link?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OwnedPush'][];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  retrievePush: {
    parameters: {
      query?: {
        /** @description The passphrase, for existing clients. Prefer the header or the reveal operation: URLs get logged. */
        passphrase?: string;
      };
      header?: {
        /** @description The passphrase (used when the query parameter is absent). */
        'X-Passphrase'?: string;
      };
      path: {
        /** @description The push token (the `url_token` of the push). Tokens that cannot exist answer 404. */
        url_token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The push with its payload (null once expired). */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RetrievedPush'];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Missing or wrong passphrase (`passphrase_required`, with a `message` on how to send it), or an invalid token. */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unknown push token. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  expirePush: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The push token (the `url_token` of the push). Tokens that cannot exist answer 404. */
        url_token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The expired push (no payload). */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Push'];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Not deletable by viewers, and the caller is not the owner (`forbidden`), or is the owner with a token that lacks `pushes:write` (`insufficient_scope`). */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unknown push token. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  revealPush: {
    parameters: {
      query?: never;
      header?: {
        /** @description A reveal id, to make the reveal safe to retry: send a new random id (a UUID) with each reveal and the same id with its retries. A repeat with the same id (and the same passphrase) within `PUSH_REVEAL_RETRY_SECONDS` (120 s by default) answers with the same content, the push as it is now, without using another view, writing an audit entry or counting a metric. A repeat of the **last** view is answered so only where the operator enabled `PUSH_REVEAL_RETRY_LAST_VIEW`; otherwise it gets the expired answer. Ids are bound to the push, not to the caller: keep them secret. Without Redis the id is ignored (the reveal uses a view). `GET /pushes/{url_token}` ignores this header: every GET uses a view. 32–255 visible ASCII characters (0x21–0x7E), else 400 `bad_request`. */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description The push token (the `url_token` of the push). Tokens that cannot exist answer 404. */
        url_token: string;
      };
      cookie?: never;
    };
    /** @description The passphrase in the body keeps it out of URLs and logs. */
    requestBody?: {
      content: {
        'application/json': components['schemas']['RevealRequest'];
        'application/x-www-form-urlencoded': components['schemas']['RevealRequest'];
      };
    };
    responses: {
      /** @description The push with its payload (null once expired). */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RetrievedPush'];
        };
      };
      /** @description A malformed `Idempotency-Key` (reveal id). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Missing or wrong passphrase (`passphrase_required`, with a `message` on how to send it), or an invalid token. */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unknown push token. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The request body is over 16 MiB. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported body charset or content encoding. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description `passphrase` is not a string. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  previewPush: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The push token (the `url_token` of the push). Tokens that cannot exist answer 404. */
        url_token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The `html_url` of the push. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Preview'];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unknown push token. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  getPushAudit: {
    parameters: {
      query?: {
        /** @description 50 items per page; outside 1–200 or not an integer → 400 `invalid_page`. */
        page?: number;
      };
      header?: never;
      path: {
        /** @description The push token (the `url_token` of the push). Tokens that cannot exist answer 404. */
        url_token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of the audit log. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          /** @description RFC 8288 links to the `next` (only after a full page) and `prev` pages, when they exist. */
          Link?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AuditLog'];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unknown push token. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  downloadFile: {
    parameters: {
      query: {
        /** @description The push the link was issued for. */
        push: string;
        /** @description The counted view the link is bound to. */
        view: string;
        /** @description Expiry of the link, in seconds since the epoch. */
        expires: string;
        /** @description The signature of the link. */
        sig: string;
      };
      header?: never;
      path: {
        /** @description The file (from the link). */
        file_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file, streamed. */
      200: {
        headers: {
          /** @description `attachment` with the file name (RFC 6266, `filename*` for non-ASCII names). */
          'Content-Disposition': string;
          /** @description Always `sandbox; default-src 'none'`. */
          'Content-Security-Policy': "sandbox; default-src 'none'";
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/octet-stream': string;
        };
      };
      /** @description The link is invalid, used up or expired. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The database or the object store is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  downloadAllFiles: {
    parameters: {
      query: {
        /** @description The push the links were issued for. */
        push: string;
        /** @description The counted view the links are bound to. */
        view: string;
        /** @description Expiry of the links, in seconds since the epoch. */
        expires: string;
        /** @description Each file as `<file_id>.<sig>` (its own link's `sig`), once; at most 100. */
        file: string[];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The zip, streamed; names inside are unique ("a (2).txt" for a second "a.txt"). */
      200: {
        headers: {
          /** @description Always `attachment; filename=files.zip`. */
          'Content-Disposition': 'attachment; filename=files.zip';
          /** @description Always `sandbox; default-src 'none'`. */
          'Content-Security-Policy': "sandbox; default-src 'none'";
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/zip': string;
        };
      };
      /** @description No file of the link can be downloaded now. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The database or the object store is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  listWebhooks: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The endpoints. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Webhook'][];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  createWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description A JSON object. */
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookCreateRequest'];
      };
    };
    responses: {
      /** @description The endpoint and its secret. */
      201: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookWithSecret'];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported body charset or content encoding. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Validation failed; `fields` names every bad field. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  getWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The endpoint (another owner’s answers 404). */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The endpoint. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Webhook'];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No such webhook (or delivery) of yours. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  deleteWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The endpoint (another owner’s answers 404). */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The deleted endpoint. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Webhook'];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No such webhook (or delivery) of yours. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  updateWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The endpoint (another owner’s answers 404). */
        id: string;
      };
      cookie?: never;
    };
    /** @description A JSON object. */
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookUpdateRequest'];
      };
    };
    responses: {
      /** @description The endpoint. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Webhook'];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No such webhook (or delivery) of yours. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported body charset or content encoding. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Validation failed; `fields` names every bad field. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  rotateWebhookSecret: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The endpoint (another owner’s answers 404). */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The endpoint and its new secret. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookWithSecret'];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No such webhook (or delivery) of yours. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  testWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The endpoint (another owner’s answers 404). */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The queued delivery. */
      202: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookDelivery'];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No such webhook (or delivery) of yours. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  listWebhookDeliveries: {
    parameters: {
      query?: {
        /** @description 50 items per page; outside 1–200 or not an integer → 400 `invalid_page`. */
        page?: number;
      };
      header?: never;
      path: {
        /** @description The endpoint (another owner’s answers 404). */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookDelivery'][];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No such webhook (or delivery) of yours. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  getWebhookDelivery: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The endpoint (another owner’s answers 404). */
        id: string;
        /** @description The delivery (its `webhook-id`). */
        delivery_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The delivery. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookDelivery'];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No such webhook (or delivery) of yours. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  replayWebhookDelivery: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The endpoint (another owner’s answers 404). */
        id: string;
        /** @description The delivery (its `webhook-id`). */
        delivery_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The delivery, due now. */
      202: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookDelivery'];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No such webhook (or delivery) of yours. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  listRequests: {
    parameters: {
      query?: {
        /** @description 50 items per page; outside 1–200 or not an integer → 400 `invalid_page`. */
        page?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          /** @description RFC 8288 links to the `next` (only after a full page) and `prev` pages, when they exist. */
          Link?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RequestView'][];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  createRequest: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description The request: JSON, form fields `request[…]`, or multipart with `request[files][]`. */
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateRequestBody'];
        'application/x-www-form-urlencoded': components['schemas']['CreateRequestBody'];
        'multipart/form-data': components['schemas']['CreateRequestBody'];
      };
    };
    responses: {
      /** @description The request. */
      201: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RequestView'];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The request body is over 16 MiB. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported body charset or content encoding. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Validation failed; `fields` names every bad field. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  listActiveRequests: {
    parameters: {
      query?: {
        /** @description 50 items per page; outside 1–200 or not an integer → 400 `invalid_page`. */
        page?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          /** @description RFC 8288 links to the `next` (only after a full page) and `prev` pages, when they exist. */
          Link?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RequestView'][];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  listOpenRequests: {
    parameters: {
      query?: {
        /** @description 50 items per page; outside 1–200 or not an integer → 400 `invalid_page`. */
        page?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          /** @description RFC 8288 links to the `next` (only after a full page) and `prev` pages, when they exist. */
          Link?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RequestView'][];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  listAnsweredRequests: {
    parameters: {
      query?: {
        /** @description 50 items per page; outside 1–200 or not an integer → 400 `invalid_page`. */
        page?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          /** @description RFC 8288 links to the `next` (only after a full page) and `prev` pages, when they exist. */
          Link?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RequestView'][];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  listReadyRequests: {
    parameters: {
      query?: {
        /** @description 50 items per page; outside 1–200 or not an integer → 400 `invalid_page`. */
        page?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          /** @description RFC 8288 links to the `next` (only after a full page) and `prev` pages, when they exist. */
          Link?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RequestView'][];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  listClosedRequests: {
    parameters: {
      query?: {
        /** @description 50 items per page; outside 1–200 or not an integer → 400 `invalid_page`. */
        page?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          /** @description RFC 8288 links to the `next` (only after a full page) and `prev` pages, when they exist. */
          Link?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RequestView'][];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  getRequest: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The request token (its `url_token`). */
        url_token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The request. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RequestView'];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unknown request token. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  closeRequest: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The request token (its `url_token`). */
        url_token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The closed request. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RequestView'];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unknown request token. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  previewRequest: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The request token (its `url_token`). */
        url_token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The link. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Preview'];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unknown request token. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  getRequestAudit: {
    parameters: {
      query?: {
        /** @description 50 items per page; outside 1–200 or not an integer → 400 `invalid_page`. */
        page?: number;
      };
      header?: never;
      path: {
        /** @description The request token (its `url_token`). */
        url_token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          /** @description RFC 8288 links to the `next` (only after a full page) and `prev` pages, when they exist. */
          Link?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RequestAuditLog'];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The token lacks the scope, or the push belongs to someone else. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unknown request token. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  viewRequest: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The request token (its `url_token`). */
        url_token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The responder view. */
      200: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ResponderView'];
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unknown, closed or past its window (indistinguishable). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The request was already answered. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  answerRequest: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The request token (its `url_token`). */
        url_token: string;
      };
      cookie?: never;
    };
    /** @description The answer: JSON, form fields `response[…]`, or multipart with `response[files][]`. */
    requestBody: {
      content: {
        'application/json': components['schemas']['RespondBody'];
        'application/x-www-form-urlencoded': components['schemas']['RespondBody'];
        'multipart/form-data': components['schemas']['RespondBody'];
      };
    };
    responses: {
      /** @description Answered. */
      201: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Answered'];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Passphrase missing or wrong, a user is needed, or an invalid token. */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A client token where a person is needed (`forbidden`), or no valid code (`code_required`). */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unknown, closed or past its window (indistinguishable). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The request was already answered. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The request body is over 16 MiB. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported body charset or content encoding. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Validation failed; `fields` names every bad field. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  answerRequestPatch: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The request token (its `url_token`). */
        url_token: string;
      };
      cookie?: never;
    };
    /** @description The answer: JSON, form fields `response[…]`, or multipart with `response[files][]`. */
    requestBody: {
      content: {
        'application/json': components['schemas']['RespondBody'];
        'application/x-www-form-urlencoded': components['schemas']['RespondBody'];
        'multipart/form-data': components['schemas']['RespondBody'];
      };
    };
    responses: {
      /** @description Answered. */
      201: {
        headers: {
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Answered'];
        };
      };
      /** @description Malformed request: invalid JSON, or an access token outside the Authorization header. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Passphrase missing or wrong, a user is needed, or an invalid token. */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A client token where a person is needed (`forbidden`), or no valid code (`code_required`). */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unknown, closed or past its window (indistinguishable). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The request was already answered. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The request body is over 16 MiB. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unsupported body charset or content encoding. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Validation failed; `fields` names every bad field. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description A dependency this request needs (auth service, database, Redis) is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
  downloadRequestFile: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The request's token (the responder's link). */
        url_token: string;
        /** @description The attachment (`files[].id` of the responder's view). */
        file_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file, streamed and decrypted. */
      200: {
        headers: {
          /** @description `attachment` with the file name (RFC 6266, `filename*` for non-ASCII names). */
          'Content-Disposition': string;
          /** @description Always `sandbox; default-src 'none'`. */
          'Content-Security-Policy': "sandbox; default-src 'none'";
          /** @description Always `no-store`. */
          'Cache-Control': 'no-store';
          [name: string]: unknown;
        };
        content: {
          'application/octet-stream': string;
        };
      };
      /** @description No, invalid or expired token where one is needed, or legacy headers that do not match it (`WWW-Authenticate: Bearer`). */
      401: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The request is answerable by users, and this is a client token. */
      403: {
        headers: {
          /** @description RFC 6750 Bearer challenge, on token problems (absent for passphrase and ownership errors). */
          'WWW-Authenticate'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Unknown, closed or past its window, or not one of its attachments. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The request was answered. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description This file was downloaded as many times as the request allows. */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description Rate limited; retry after `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      /** @description The database or the object store is unavailable; retry after `Retry-After` seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorBody'];
        };
      };
    };
  };
}
