import { type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { type HttpLoggerOptions, createHttpLogger, pathWithoutQuery } from './http-logger';
import { createLogger } from './logger';

/** One request line as the HTTP logger writes it. */
interface LogLine {
  level: string;
  msg: string;
  req: { id: string; method: string; path: string; ip?: string };
  res: { statusCode: number };
  responseTime: number;
}

function capture() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString('utf8'));
      cb();
    },
  });
  const records = () =>
    chunks
      .join('')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as LogLine);
  return { stream, text: () => chunks.join(''), records };
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Harness {
  url: string;
  logs: ReturnType<typeof capture>;
  /** Waits until `n` log lines were written (the line is written on the response's 'close'). */
  lines(n: number): Promise<LogLine[]>;
  close(): Promise<void>;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => {
      s.closeAllConnections();
      return new Promise((r) => s.close(r));
    }),
  );
});

async function serve(handler: Handler, options: HttpLoggerOptions = {}, level = 'debug'): Promise<Harness> {
  const logs = capture();
  const httpLogger = createHttpLogger(createLogger({ name: 'http', level }, logs.stream), options);
  const server = createServer((req, res) => httpLogger(req, res, () => handler(req, res)));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    logs,
    async lines(n) {
      const deadline = Date.now() + 2000;
      while (logs.records().length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      return logs.records();
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

const ok: Handler = (_req, res) => {
  res.end('ok');
};

describe('pathWithoutQuery', () => {
  it('drops the query string and nothing else', () => {
    expect(pathWithoutQuery('/a/b?x=1&y=2')).toBe('/a/b');
    expect(pathWithoutQuery('/a/b?')).toBe('/a/b');
    expect(pathWithoutQuery('/a/b')).toBe('/a/b');
    expect(pathWithoutQuery('/?passphrase=x')).toBe('/');
    expect(pathWithoutQuery(undefined)).toBe('');
    expect(pathWithoutQuery('')).toBe('');
  });
});

describe('createHttpLogger', () => {
  it('logs method, masked path, status and time: never headers, query strings or the raw path', async () => {
    const h = await serve(ok, { maskPath: (p) => p.replace(/^\/p\/[^/.]+/, '/p/:url_token') });
    const res = await fetch(`${h.url}/p/tok3nSecret.json?passphrase=qs-pass-Ab12&token=qs-token-Cd34`, {
      headers: {
        Authorization: 'Bearer hdr-bearer-Ef56',
        Cookie: 'sid=hdr-cookie-Gh78',
        'X-Passphrase': 'hdr-pass-Ij90',
        'User-Agent': 'ua-Kl12',
      },
    });
    expect(res.status).toBe(200);
    const [line] = await h.lines(1);
    expect(line).toMatchObject({
      level: 'debug',
      msg: 'request completed',
      req: { method: 'GET', path: '/p/:url_token.json', ip: '127.0.0.1' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(Object.keys(line!.req).sort()).toEqual(['id', 'ip', 'method', 'path']);
    expect(Object.keys(line!.res)).toEqual(['statusCode']);
    expect(h.logs.text()).not.toMatch(/tok3nSecret|qs-pass|qs-token|passphrase|hdr-|ua-Kl12|Bearer/);
  });

  it('logs the path as the client asked for it (originalUrl), not as a router rewrote req.url', async () => {
    const h = await serve((req, res) => {
      (req as { originalUrl?: string }).originalUrl = req.url;
      req.url = '/rewritten';
      res.end();
    });
    await fetch(`${h.url}/api/v2/pushes?page=2`);
    const [line] = await h.lines(1);
    expect(line!.req.path).toBe('/api/v2/pushes');
  });

  it('reuses a well-formed X-Request-Id, replaces a malformed one, and exposes it as req.id', async () => {
    const seen: unknown[] = [];
    const h = await serve((req, res) => {
      seen.push((req as { id?: unknown }).id);
      res.end();
    });
    const given = await fetch(h.url, { headers: { 'X-Request-Id': 'abc-123.x:y_z' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123.x:y_z');
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    for (const bad of ['has space', 'a'.repeat(129), '<script>', '']) {
      const res = await fetch(h.url, { headers: { 'X-Request-Id': bad } });
      expect(res.headers.get('x-request-id')).toMatch(uuid);
    }
    const none = await fetch(h.url);
    const generated = none.headers.get('x-request-id');
    expect(generated).toMatch(uuid);
    const lines = await h.lines(6);
    expect(seen[0]).toBe('abc-123.x:y_z');
    expect(seen[5]).toBe(generated);
    expect(lines.map((l) => l.req.id)).toEqual(seen);
    expect(h.logs.text()).not.toMatch(/has space|<script>|aaaaaaaa/);
  });

  it('logs 5xx answers at error, slow ones at info, the rest at debug', async () => {
    const h = await serve(
      (req, res) => {
        if (req.url === '/boom') res.statusCode = 503;
        if (req.url === '/missing') res.statusCode = 404;
        if (req.url === '/slow') setTimeout(() => res.end(), 80);
        else res.end();
      },
      { slowMs: 50 },
    );
    await fetch(`${h.url}/boom`);
    await fetch(`${h.url}/slow`);
    await fetch(`${h.url}/missing`);
    const lines = await h.lines(3);
    expect(lines.map((l) => [l.req.path, l.level, l.msg, l.res.statusCode])).toEqual([
      ['/boom', 'error', 'request completed', 503],
      ['/slow', 'info', 'slow request', 200],
      ['/missing', 'debug', 'request completed', 404],
    ]);
    expect(lines[1]!.responseTime).toBeGreaterThanOrEqual(50);
  });

  it('writes nothing for ordinary requests at level info', async () => {
    const h = await serve(
      (req, res) => {
        res.statusCode = req.url === '/fail' ? 500 : 200;
        res.end();
      },
      {},
      'info',
    );
    await fetch(`${h.url}/fine`);
    await fetch(`${h.url}/fail`);
    const lines = await h.lines(1);
    await new Promise((r) => setTimeout(r, 50));
    expect(lines.map((l) => l.req.path)).toEqual(['/fail']);
    expect(h.logs.records()).toHaveLength(1);
  });

  it('logs an aborted request at error', async () => {
    let arrived!: () => void;
    const arrival = new Promise<void>((r) => (arrived = r));
    const h = await serve(() => arrived()); // never answers
    const req = request(`${h.url}/hangs?x=secret-q`);
    req.on('error', () => {});
    req.end();
    await arrival;
    req.destroy();
    const [line] = await h.lines(1);
    expect(line).toMatchObject({ level: 'error', msg: 'request aborted', req: { path: '/hangs' } });
    expect(h.logs.text()).not.toContain('secret-q');
  });

  it('never logs ignored paths, with or without a query string, but still sets the request id', async () => {
    const h = await serve(ok, { ignorePaths: ['/healthz', '/metrics'] });
    const res = await fetch(`${h.url}/healthz`);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    await fetch(`${h.url}/metrics?x=1`);
    await fetch(`${h.url}/healthz/deep`);
    const lines = await h.lines(1);
    await new Promise((r) => setTimeout(r, 50));
    expect(lines.map((l) => l.req.path)).toEqual(['/healthz/deep']);
    expect(h.logs.records()).toHaveLength(1);
  });

  it('works without next (as called from Koa) and calls next once when given', () => {
    const logs = capture();
    const httpLogger = createHttpLogger(createLogger({ name: 'http', level: 'debug' }, logs.stream));
    const headers: Record<string, unknown> = {};
    const res = {
      setHeader: (k: string, v: unknown) => (headers[k] = v),
      once: jest.fn(),
    } as unknown as ServerResponse;
    const req = { headers: {}, url: '/x', socket: {} } as IncomingMessage;
    expect(() => httpLogger(req, res)).not.toThrow();
    const next = jest.fn();
    httpLogger(req, res, next);
    expect(next).toHaveBeenCalledTimes(1);
    expect(headers['X-Request-Id']).toEqual(expect.any(String));
  });
});
