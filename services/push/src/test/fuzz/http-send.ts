import { Agent, type IncomingHttpHeaders, request } from 'node:http';

/*
 * The hostile-input suite's HTTP client: one request exactly as generated (raw header pairs in
 * order, duplicates allowed, a body of any bytes, chunked or with Content-Length) over a keep-alive
 * connection, with a deadline. Anything that is not an HTTP answer within the deadline (a hang, a
 * reset, a closed connection) is reported as `error` instead of a status.
 */

export interface HttpRequest {
  method: string;
  /** Path and query exactly as they go on the request line (already percent-encoded as wanted). */
  target: string;
  /** Header pairs in order; duplicates allowed. `Host` is added first unless given. */
  headers: readonly (readonly [string, string])[];
  body?: Buffer;
  /** Send the body with `Transfer-Encoding: chunked` instead of `Content-Length`. */
  chunked?: boolean;
}

export interface HttpResult {
  /** 0 when no HTTP answer arrived. */
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** `timeout`, or the transport error (ECONNRESET, …) when no complete answer arrived. */
  error?: string;
  ms: number;
}

/** Answers larger than this are read to the end but not kept (downloads, the docs page). */
const KEEP_BYTES = 256 * 1024;

export interface Sender {
  /** Sends `req`; no complete answer within `deadlineMs` (default: the sender's) is `timeout`. */
  send(req: HttpRequest, deadlineMs?: number): Promise<HttpResult>;
  close(): void;
}

/** A sender for one service at `baseUrl` (http://127.0.0.1:port), one connection at a time. */
export function createSender(baseUrl: string, timeoutMs: number): Sender {
  const url = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const hostHeader = url.host;

  const send = (req: HttpRequest, deadlineMs = timeoutMs): Promise<HttpResult> =>
    new Promise((resolve) => {
      const started = performance.now();
      const flat: string[] = [];
      if (!req.headers.some(([k]) => k.toLowerCase() === 'host')) flat.push('Host', hostHeader);
      for (const [k, v] of req.headers) flat.push(k, v);
      const body = req.body;
      const framed = req.headers.some(([k]) => /^(content-length|transfer-encoding)$/i.test(k));
      if (body && !framed) {
        // Explicit framing: without it Node sends a GET or DELETE body unframed, and the server
        // would read it as the next request on the connection.
        if (req.chunked) flat.push('Transfer-Encoding', 'chunked');
        else flat.push('Content-Length', String(body.length));
      }
      let settled = false;
      const finish = (result: Omit<HttpResult, 'ms'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, ms: performance.now() - started });
      };
      let clientRequest: ReturnType<typeof request>;
      try {
        clientRequest = request({
          host: url.hostname,
          port: url.port,
          method: req.method,
          path: req.target,
          headers: flat,
          agent,
        });
      } catch (err) {
        // Node's client refuses to put this on the wire (a character it may not send): a bug of
        // the generators, reported as such rather than as an answer of the service.
        finish({ status: 0, headers: {}, body: Buffer.alloc(0), error: `client: ${(err as Error).message}` });
        return;
      }
      const timer = setTimeout(() => {
        finish({ status: 0, headers: {}, body: Buffer.alloc(0), error: 'timeout' });
        clientRequest.destroy();
      }, deadlineMs);
      clientRequest.on('response', (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (c: Buffer) => {
          if (kept < KEEP_BYTES) {
            chunks.push(c);
            kept += c.length;
          }
        });
        res.on('end', () =>
          finish({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', (err) =>
          finish({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            error: `response: ${err.message}`,
          }),
        );
        res.on('aborted', () =>
          finish({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            error: 'response aborted',
          }),
        );
      });
      clientRequest.on('error', (err: NodeJS.ErrnoException) => {
        finish({ status: 0, headers: {}, body: Buffer.alloc(0), error: err.code ?? err.message });
      });
      if (body && body.length > 0) clientRequest.end(body);
      else clientRequest.end();
    });

  return {
    send,
    close: () => agent.destroy(),
  };
}
