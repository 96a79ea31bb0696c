import { type Sent, basic, json, jsonBody, multipart, send } from './http-client';
import type { TcpProxy } from './proxy';

/* The API calls of the load, the probes and the final check, against a proxy or one replica. */

export interface Endpoint {
  port: number;
  /** Set when `port` is a proxy's: the answer then carries its route. */
  proxy?: TcpProxy;
  /** Sent with every request (an X-Request-Id, which the services log). */
  headers?: Record<string, string>;
}

/** `to`, with an X-Request-Id on its requests. */
export const tagged = (to: Endpoint, requestId: string): Endpoint => ({
  ...to,
  headers: { ...to.headers, 'x-request-id': requestId },
});

export const viaProxy = (proxy: TcpProxy): Endpoint => ({ port: proxy.port, proxy });
export const direct = (port: number): Endpoint => ({ port });

const bearer = (token: string | undefined): Record<string, string> =>
  token ? { authorization: `Bearer ${token}` } : {};

export function createText(
  to: Endpoint,
  push: { payload: string; views: number; passphrase?: string },
  token: string | undefined,
  timeoutMs: number,
): Promise<Sent> {
  return send(
    to.port,
    {
      method: 'POST',
      path: '/api/v2/pushes',
      headers: { ...to.headers, 'content-type': 'application/json', ...bearer(token) },
      body: jsonBody({
        push: {
          payload: push.payload,
          expire_after_views: push.views,
          expire_after_days: 1,
          ...(push.passphrase ? { passphrase: push.passphrase } : {}),
        },
      }),
    },
    { timeoutMs, proxy: to.proxy },
  );
}

export function createFile(
  to: Endpoint,
  push: { payload: string; views: number; file: { name: string; data: Buffer } },
  token: string,
  timeoutMs: number,
): Promise<Sent> {
  const form = multipart(
    {
      'push[kind]': 'file',
      'push[payload]': push.payload,
      'push[expire_after_views]': String(push.views),
      'push[expire_after_days]': '1',
    },
    [{ field: 'push[files][]', name: push.file.name, data: push.file.data }],
  );
  return send(
    to.port,
    {
      method: 'POST',
      path: '/api/v2/pushes',
      headers: { ...to.headers, 'content-type': form.contentType, ...bearer(token) },
      body: form.body,
    },
    { timeoutMs, proxy: to.proxy },
  );
}

/** A retrieve: GET, or with a passphrase GET + X-Passphrase or POST …/reveal. */
export function retrieve(
  to: Endpoint,
  urlToken: string,
  passphrase: { value: string; via: 'header' | 'reveal' } | undefined,
  timeoutMs: number,
): Promise<Sent> {
  const path = `/api/v2/pushes/${urlToken}`;
  if (passphrase?.via === 'reveal') {
    return send(
      to.port,
      {
        method: 'POST',
        path: `${path}/reveal`,
        headers: { ...to.headers, 'content-type': 'application/json' },
        body: jsonBody({ passphrase: passphrase.value }),
      },
      { timeoutMs, proxy: to.proxy },
    );
  }
  return send(
    to.port,
    {
      method: 'GET',
      path,
      headers: { ...to.headers, ...(passphrase ? { 'x-passphrase': passphrase.value } : {}) },
    },
    { timeoutMs, proxy: to.proxy },
  );
}

/** A download link (absolute, under the public URL) sent to `to` instead. */
export function download(to: Endpoint, link: string, timeoutMs: number): Promise<Sent> {
  const u = new URL(link);
  return send(
    to.port,
    { method: 'GET', path: `${u.pathname}${u.search}`, headers: { ...to.headers } },
    { timeoutMs, proxy: to.proxy },
  );
}

export function requestToken(
  to: Endpoint,
  client: { client_id: string; client_secret: string },
  timeoutMs: number,
): Promise<Sent> {
  return send(
    to.port,
    {
      method: 'POST',
      path: '/connect/token',
      headers: {
        ...to.headers,
        authorization: basic(client.client_id, client.client_secret),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: Buffer.from('grant_type=client_credentials'),
    },
    { timeoutMs, proxy: to.proxy },
  );
}

/** A webhook endpoint of the token's principal (`POST /api/v2/webhooks`). */
export function createWebhook(
  to: Endpoint,
  endpoint: { url: string; eventTypes: readonly string[] },
  token: string,
  timeoutMs: number,
): Promise<Sent> {
  return send(
    to.port,
    {
      method: 'POST',
      path: '/api/v2/webhooks',
      headers: { ...to.headers, 'content-type': 'application/json', ...bearer(token) },
      body: jsonBody({ url: endpoint.url, event_types: endpoint.eventTypes }),
    },
    { timeoutMs, proxy: to.proxy },
  );
}

export const urlTokenOf = (sent: Sent): string | undefined => {
  const t = json(sent)?.url_token;
  return typeof t === 'string' ? t : undefined;
};

export interface Retrieved {
  payload: string | null;
  expired: boolean;
  files: { url: string; size: number; filename: string }[];
}

export function retrievedOf(sent: Sent): Retrieved | undefined {
  const b = json(sent);
  if (!b || !('payload' in b)) return undefined;
  const files = Array.isArray(b.files) ? (b.files as { url: string; size: number; filename: string }[]) : [];
  return {
    payload: typeof b.payload === 'string' ? b.payload : null,
    expired: b.expired === true,
    files,
  };
}

/** A request (issue 28) of the token's principal: `POST /api/v2/requests`. */
export function createRequest(
  to: Endpoint,
  message: string,
  token: string,
  timeoutMs: number,
  options: { files?: boolean } = {},
): Promise<Sent> {
  return send(
    to.port,
    {
      method: 'POST',
      path: '/api/v2/requests',
      headers: { ...to.headers, 'content-type': 'application/json', ...bearer(token) },
      body: jsonBody({
        request: {
          request: message,
          expire_after_days: 1,
          ...(options.files ? { response_file_attachments: true } : {}),
        },
      }),
    },
    { timeoutMs, proxy: to.proxy },
  );
}

/** An answer to a request, anonymous or with a token: `POST /api/v2/requests/:t/respond`. */
export function respond(
  to: Endpoint,
  urlToken: string,
  payload: string,
  token: string | undefined,
  timeoutMs: number,
): Promise<Sent> {
  return send(
    to.port,
    {
      method: 'POST',
      path: `/api/v2/requests/${urlToken}/respond`,
      headers: { ...to.headers, 'content-type': 'application/json', ...bearer(token) },
      body: jsonBody({ response: { payload } }),
    },
    { timeoutMs, proxy: to.proxy },
  );
}

/** An answer with a file (multipart `response[payload]` + `response[files][]`), anonymous or with a token. */
export function respondWithFile(
  to: Endpoint,
  urlToken: string,
  payload: string,
  file: { name: string; data: Buffer },
  token: string | undefined,
  timeoutMs: number,
): Promise<Sent> {
  const form = multipart({ 'response[payload]': payload }, [
    { field: 'response[files][]', name: file.name, data: file.data },
  ]);
  return send(
    to.port,
    {
      method: 'POST',
      path: `/api/v2/requests/${urlToken}/respond`,
      headers: { ...to.headers, 'content-type': form.contentType, ...bearer(token) },
      body: form.body,
    },
    { timeoutMs, proxy: to.proxy },
  );
}

/** The owner's view of a request (`GET /api/v2/requests/:t`). */
export function viewRequest(to: Endpoint, urlToken: string, token: string, timeoutMs: number): Promise<Sent> {
  return send(
    to.port,
    { method: 'GET', path: `/api/v2/requests/${urlToken}`, headers: { ...to.headers, ...bearer(token) } },
    { timeoutMs, proxy: to.proxy },
  );
}
