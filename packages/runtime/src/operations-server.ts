import type { Server, ServerResponse } from 'node:http';
import {
  type HttpServerLimits,
  OPERATIONS_HTTP_LIMITS,
  closeHttpServer,
  createHttpServer,
  listening,
} from './http-server';
import {
  JSON_CONTENT_TYPE,
  type OperationsDeps,
  type OperationsResponse,
  operationsResponse,
} from './operations';

export interface OperationsServer {
  /** Base URL, with the real port when port 0 was asked for. */
  url: string;
  server: Server;
  /** Stops accepting and waits for the requests in flight. */
  close(): Promise<void>;
}

const NOT_FOUND: OperationsResponse = {
  status: 404,
  contentType: JSON_CONTENT_TYPE,
  body: JSON.stringify({ error: 'Not found.', code: 'not_found' }),
};

const FAILED: OperationsResponse = {
  status: 500,
  contentType: JSON_CONTENT_TYPE,
  body: JSON.stringify({ error: 'Internal server error.', code: 'internal_error' }),
};

const send = (res: ServerResponse, answer: OperationsResponse) => {
  res.writeHead(answer.status, { 'content-type': answer.contentType }).end(answer.body);
};

/**
 * `/healthz`, `/readyz` and `/metrics` on a port of their own (node:http): the worker's
 * only port, and the API processes' metrics port (never routed by the Ingress). Every other path
 * is 404 `{"error":"Not found.","code":"not_found"}`.
 */
export async function startOperationsServer(
  options: OperationsDeps & { host: string; port: number; limits?: HttpServerLimits },
): Promise<OperationsServer> {
  const server = createHttpServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0]!;
    const answer = operationsResponse(path, options);
    if (!answer) return send(res, NOT_FOUND);
    answer.then(
      (a) => send(res, a),
      () => send(res, FAILED),
    );
  }, options.limits ?? OPERATIONS_HTTP_LIMITS);
  server.listen(options.port, options.host);
  const url = await listening(server, options.host);
  return { url, server, close: () => closeHttpServer(server) };
}
