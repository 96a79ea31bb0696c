import type { RequestAdmin } from './client-types.ts';
import { type BodyOf, formBody } from './create-push.ts';
import { paged } from './pages.ts';
import { addressList, retrievePush } from './pushes.ts';
import { type Api, apiUrlOf, getJson, json } from './request.ts';
import type {
  CreateRequestInput,
  RequestAuditEntry,
  RequestAuditLog,
  RequestList,
  RequestListState,
  RequestView,
  RespondInput,
  RespondResult,
  ResponderView,
} from './request-types.ts';
import type { CallOptions, RetryPolicy } from './transport.ts';
import type { Preview } from './types.ts';
import { attachmentDownload } from './request-files.ts';

/*
 * `client.requests` (issue 28): the owner's calls (create, get, preview, audit, close, the lists,
 * the answer) and the responder's (view, respond, requestCode, downloadAttachment). A request is
 * named by its url_token or by one of its links on the client's own origin (`…/respond/TOKEN`,
 * `…/requests/TOKEN`, `…/api/v2/requests/TOKEN.json`); anything else is a TypeError, thrown before
 * anything is sent.
 *
 * What a repeat after a failure could do decides which calls are repeated (transport.ts): reads,
 * `view` (it spends nothing) and `close` (closing a closed request changes nothing) are; `create`
 * (a second request), `respond` (a repeat after a lost answer would only meet `already_answered`)
 * and `requestCode` (a second email) never; a download only where it used nothing.
 */

const TOKEN = /^[A-Za-z0-9_-]+$/;
const LIST_STATES: readonly RequestListState[] = ['active', 'open', 'answered', 'ready', 'closed'];

/** The url_token of a request given by token or link; a TypeError for anything else. */
export function requestToken(api: Api, linkOrToken: string): string {
  if (typeof linkOrToken !== 'string') throw new TypeError('not a request token');
  const trimmed = linkOrToken.trim();
  if (TOKEN.test(trimmed)) return trimmed;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new TypeError('not a request token');
  }
  if (url.origin !== api.apiOrigin) throw new TypeError(`The request link is not on ${api.apiOrigin}`);
  const match = /\/(?:respond|requests|api\/v2\/requests)\/([A-Za-z0-9_-]+?)(?:\.json)?\/?$/.exec(
    url.pathname,
  );
  if (!match?.[1] || LIST_STATES.includes(match[1] as RequestListState)) {
    throw new TypeError('not a request token');
  }
  return match[1];
}

const requestPath = (api: Api, linkOrToken: string) => `/requests/${requestToken(api, linkOrToken)}`;

/** Sends `body` (JSON, or a built body) with `method` to `path`, and reads the JSON answer. */
async function send<T>(
  api: Api,
  method: 'POST' | 'DELETE',
  path: string,
  retry: RetryPolicy,
  call: CallOptions,
  body?: unknown,
  built?: { body: BodyOf; replayable: boolean },
): Promise<T> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const res = await api.transport.send({
    ...call,
    method,
    url: apiUrlOf(api, path),
    retry,
    authenticate: true,
    ...(text !== undefined && {
      body: () => ({ body: text, headers: { 'content-type': 'application/json' } }),
    }),
    ...(built && { body: built.body, replayable: built.replayable }),
  });
  return json<T>(res);
}

/** A list (or comma-separated string) of addresses as the API takes it. */
const addresses = (v: string | readonly string[] | undefined) =>
  v === undefined ? undefined : addressList(v);

/** `POST /requests`: JSON, or multipart when there are files (streamed, with progress). */
async function createRequest(
  api: Api,
  input: CreateRequestInput,
  call: CallOptions & { onProgress?: (bytesSent: number) => void } = {},
): Promise<RequestView> {
  const { files, ...rest } = input;
  const { onProgress, ...callOptions } = call;
  const fields = {
    ...rest,
    answerable_emails: addresses(rest.answerable_emails),
    notify_emails_to: addresses(rest.notify_emails_to),
  };
  if (!files || files.length === 0) {
    return send<RequestView>(api, 'POST', '/requests', 'never', callOptions, { request: fields });
  }
  const form = await formBody('request', fields, files, onProgress);
  const made = await send<RequestView>(api, 'POST', '/requests', 'never', callOptions, undefined, form);
  if (form.sentWhole !== undefined) onProgress?.(form.sentWhole);
  return made;
}

/** `POST /requests/:t/respond`: JSON for text alone, multipart with files. */
async function respond(
  api: Api,
  linkOrToken: string,
  input: RespondInput,
  call: CallOptions & { onProgress?: (bytesSent: number) => void } = {},
): Promise<RespondResult> {
  const path = `${requestPath(api, linkOrToken)}/respond`;
  const { files, ...fields } = input;
  const { onProgress, ...callOptions } = call;
  if (!files || files.length === 0) {
    if (!fields.payload) throw new TypeError('An answer needs a payload or files');
    return send<RespondResult>(api, 'POST', path, 'never', callOptions, { response: fields });
  }
  const form = await formBody('response', fields, files, onProgress);
  const done = await send<RespondResult>(api, 'POST', path, 'never', callOptions, undefined, form);
  if (form.sentWhole !== undefined) onProgress?.(form.sentWhole);
  return done;
}

/** The `client.requests` of a client. */
export function requestAdmin(api: Api): RequestAdmin {
  const auditPage = async (t: string, options: CallOptions & { page?: number } = {}) => {
    const { page, ...rest } = options;
    return getJson<RequestAuditLog>(api, `${requestPath(api, t)}/audit`, rest, { page: page ?? 1 });
  };
  return {
    create: (input, options) => createRequest(api, input, options),
    get: async (t, options) => getJson<RequestView>(api, requestPath(api, t), options),
    preview: async (t, options) => getJson<Preview>(api, `${requestPath(api, t)}/preview`, options),
    audit: auditPage,
    auditEntries(t, options = {}) {
      const pages = paged<RequestAuditEntry>(
        api,
        `${requestPath(api, t)}/audit`,
        options,
        (body) => (body as RequestAuditLog).logs,
      );
      return {
        async *[Symbol.asyncIterator]() {
          for await (const page of pages) yield* page;
        },
      };
    },
    close: async (t, options = {}) => send<RequestView>(api, 'DELETE', requestPath(api, t), 'safe', options),
    list(state = 'active', options = {}): RequestList {
      if (!LIST_STATES.includes(state)) throw new TypeError(`not a list of requests: ${String(state)}`);
      const pages = () => paged<RequestView>(api, `/requests/${state}`, options, (b) => b as RequestView[]);
      return {
        pages,
        async *[Symbol.asyncIterator]() {
          for await (const page of pages()) yield* page;
        },
      };
    },
    async answer(t, options = {}) {
      const { expired, ...call } = options;
      const request = await getJson<RequestView>(api, requestPath(api, t), call);
      if (!request.answer) return null;
      return retrievePush(api, request.answer.url_token, { ...call, ...(expired && { expired }) });
    },
    view: async (t, options) => getJson<ResponderView>(api, `${requestPath(api, t)}/respond`, options),
    respond: (t, input, options) => respond(api, t, input, options),
    requestCode: async (t, email, options = {}) =>
      send<{ message: string }>(api, 'POST', `${requestPath(api, t)}/code`, 'never', options, { email }),
    downloadAttachment: async (t, fileId, options) =>
      attachmentDownload(api, requestPath(api, t), fileId, options),
  };
}
