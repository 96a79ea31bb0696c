import { once } from 'node:events';
import {
  type IncomingMessage,
  type RequestListener,
  type ServerResponse,
  STATUS_CODES,
  type Server,
  createServer,
} from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';

/**
 * What a client may cost a server before it is cut off, enforced by Node on every connection.
 * Each service reads its own values from its configuration (docs/configuration.md).
 */
export interface HttpServerLimits {
  /** The request line and headers must be complete within this (Node `headersTimeout`; 408). */
  headersTimeoutMs: number;
  /**
   * The whole request, headers and body, must be received within this (Node `requestTimeout`;
   * 408). It bounds a body that trickles in just fast enough to dodge the idle timeout. 0: none.
   */
  requestTimeoutMs: number;
  /**
   * A socket with no traffic in either direction for this long is destroyed (`server.timeout`):
   * a request body that stalls, a client that stops reading a download. Not a deadline for a
   * transfer that makes progress, however long it takes.
   */
  idleTimeoutMs: number;
  /**
   * How long an idle keep-alive connection is kept open between requests (Node
   * `keepAliveTimeout`). Must be above the reverse proxy's upstream keep-alive timeout (60 s for
   * ingress-nginx), so that the proxy, not us, closes idle connections: otherwise it may send a
   * request on a connection we are closing at that moment, and its client gets a 502.
   */
  keepAliveTimeoutMs: number;
  /** Largest request line plus headers, in bytes (Node `maxHeaderSize`); larger: 431. */
  maxHeaderBytes: number;
}

/** For a port that only serves operations endpoints (no bodies, small headers). */
export const OPERATIONS_HTTP_LIMITS: HttpServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 10_000,
  idleTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
  maxHeaderBytes: 16 * 1024,
};

/**
 * Node checks headersTimeout and requestTimeout every `connectionsCheckingInterval` (30 s by
 * default), which would let a 10 s limit run to 40 s: check at a quarter of the shortest one
 * (between 250 ms and 5 s).
 */
const checkingInterval = (limits: HttpServerLimits) => {
  const shortest = Math.min(limits.headersTimeoutMs || Infinity, limits.requestTimeoutMs || Infinity);
  return Math.max(250, Math.min(5000, Math.floor(shortest / 4)));
};

/**
 * The one way every process creates its HTTP server: `handler` (an Express app, a Koa callback, a
 * plain listener) behind the limits of `limits`. Not listening yet.
 */
export function createHttpServer(handler: RequestListener, limits: HttpServerLimits): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      maxHeaderSize: limits.maxHeaderBytes,
      connectionsCheckingInterval: checkingInterval(limits),
    },
    handler,
  );
  // After the handler (which stays the first 'request' listener, as the server's own).
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (res.writableFinished) drainUnread(req);
    else res.once('finish', () => drainUnread(req));
  });
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // Without a 'timeout' listener, Node destroys the idle socket.
  server.setTimeout(limits.idleTimeoutMs);
  server.on('clientError', refuseAndLinger);
  return server;
}

/**
 * A request answered before its body was read to the end, by a handler that began reading it and
 * stopped (a body parser over its limit pauses the request and leaves it so: oidc-provider's does;
 * Express's body-parser reads the rest itself). Node drains only bodies nobody began to read; this
 * one would stay paused, and the next request on the keep-alive connection — a client's, or
 * another person's through a proxy's pooled upstream connection — would never be read: a hang.
 * The rest is read and dropped, as Node and body-parser do, within the request and idle timeouts
 * (closing instead would race a client that already reuses the connection for its next request).
 */
function drainUnread(req: IncomingMessage): void {
  if (req.complete || req.destroyed) return;
  req.removeAllListeners('data');
  // The answer is sent: a client that goes away meanwhile is no one's error.
  req.on('error', () => {});
  req.resume();
}

/** How long a refused connection keeps reading (and dropping) what its client still sends. */
const LINGER_MS = 2000;

/**
 * A request Node refuses before any handler sees it (headers too large: 431; not complete in time:
 * 408; not HTTP: 400). Node's own answer destroys the socket at once, and a socket closed with
 * unread data is reset: a client still sending its body then gets ECONNRESET instead of the
 * answer (seen with oversized headers and a 600 KB body). Here the answer is sent and the write
 * side closed, and what the client still sends is read and dropped until it closes too, for
 * LINGER_MS at most.
 */
function refuseAndLinger(err: NodeJS.ErrnoException, socket: Duplex): void {
  const status =
    err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  // As Node does: no answer where a response of this connection has begun (it would corrupt it).
  const inFlight = (socket as Duplex & { _httpMessage?: { _headerSent?: boolean } })._httpMessage;
  if (!socket.writable || inFlight?._headerSent || err.code === 'ECONNRESET' || err.code === 'EPIPE') {
    socket.destroy();
    return;
  }
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.on('data', () => {});
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/** Waits until `server` listens; returns its base URL (with the real port when 0 was asked). */
export async function listening(server: Server, host: string): Promise<string> {
  if (!server.listening) await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return `http://${host}:${port}`;
}

/** Stops accepting, lets in-flight requests finish, and drops idle keep-alive connections. */
export function closeHttpServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  return closed;
}
