import { randomBytes } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { Route, TcpProxy } from './proxy';

/*
 * The suite's HTTP client: one new connection per request (so the round-robin proxy routes every
 * request on its own and can say which replica got it), a hard client-side timeout, no retries,
 * the latency measured until the last byte of the body.
 */

export interface Sent {
  status?: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** A connection error, a reset, or `client timeout`; absent when a whole answer arrived. */
  error?: string;
  ms: number;
  /** Which upstream of `proxy` the request's connection went to. */
  route?: Route;
}

export interface Request {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

export function send(
  port: number,
  r: Request,
  options: { timeoutMs: number; proxy?: TcpProxy },
): Promise<Sent> {
  return new Promise((resolve) => {
    const started = performance.now();
    let localPort: number | undefined;
    let settled = false;
    const finish = (x: { status?: number; headers?: IncomingHttpHeaders; body?: Buffer; error?: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const route = options.proxy && localPort !== undefined ? options.proxy.takeRoute(localPort) : undefined;
      resolve({
        headers: {},
        body: Buffer.alloc(0),
        ...x,
        ms: Math.round(performance.now() - started),
        ...(route ? { route } : {}),
      });
    };
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: r.method,
      path: r.path,
      agent: false,
      headers: {
        connection: 'close',
        ...r.headers,
        ...(r.body ? { 'content-length': String(r.body.length) } : {}),
      },
    });
    req.on('socket', (socket) => {
      socket.once('connect', () => {
        localPort = socket.localPort;
      });
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        finish(
          res.complete
            ? { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }
            : { status: res.statusCode, headers: res.headers, error: 'answer cut short' },
        ),
      );
      res.on('error', (e: NodeJS.ErrnoException) =>
        finish({
          status: res.statusCode,
          headers: res.headers,
          error: `answer cut short: ${e.code ?? e.message}`,
        }),
      );
    });
    req.on('error', (e: NodeJS.ErrnoException) => finish({ error: e.code ?? e.message }));
    const timer = setTimeout(() => {
      finish({ error: 'client timeout' });
      req.destroy();
    }, options.timeoutMs);
    req.end(r.body);
  });
}

export function json(sent: Sent): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(sent.body.toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export const jsonBody = (value: unknown): Buffer => Buffer.from(JSON.stringify(value), 'utf8');

/** A multipart/form-data body: text fields, then files. */
export function multipart(
  fields: Record<string, string>,
  files: { field: string; name: string; data: Buffer }[],
): { body: Buffer; contentType: string } {
  const boundary = `----faults${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
