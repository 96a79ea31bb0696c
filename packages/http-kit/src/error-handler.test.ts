import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { createHttpLogger, createLogger } from '@secret-push/logger';
import { ERROR_CODES, HttpError, errorHandler, notFoundHandler } from './index';

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
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { stream, text: () => chunks.join(''), records };
}

const logs = capture();
let server: Server;
let base: string;

beforeAll(async () => {
  const logger = createLogger({ name: 'http-kit-test', level: 'warn' }, logs.stream);
  const app = express();
  app.use(createHttpLogger(createLogger({ name: 'http', level: 'silent' })));
  const api = express.Router();
  api.get('/pushes/:url_token', () => {
    throw new HttpError(404, 'not_found', 'That push does not exist.');
  });
  api.get('/gone', () => {
    throw new HttpError(404, 'not_found', 'Expired.', {
      headers: { 'Cache-Control': 'no-store' },
      extra: { expired: true, deleted: false },
    });
  });
  api.post('/pushes', express.json({ limit: '1kb' }), () => {
    throw HttpError.validation({ expire_after_days: ['must be at most 90'], payload: ['is required'] });
  });
  api.post(
    '/verified',
    express.json({
      verify: () => {
        throw Object.assign(new Error('not UTF-8'), { status: 400, type: 'encoding.invalid' });
      },
    }),
    () => {
      throw new Error('unreachable');
    },
  );
  api.post('/form', express.urlencoded({ extended: true, parameterLimit: 2 }), (_req, res) => {
    res.json({});
  });
  api.get('/empty-validation', () => {
    throw HttpError.validation({});
  });
  api.get('/redis', () => {
    throw HttpError.unavailable('rate limiter', new Error('connect ECONNREFUSED 127.0.0.1:6379'));
  });
  api.get('/crash/:url_token', () => {
    throw new Error('relation "push" does not exist; password=hunter2');
  });
  api.get('/async-crash', async () => {
    await Promise.resolve();
    throw new TypeError('Cannot read properties of undefined (reading "secret_key")');
  });
  api.get('/thrown-string', () => {
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    throw 'a string with internals';
  });
  api.get('/after-headers', (_req, res, next) => {
    res.status(200).write('partial');
    next(new Error('failed mid-stream'));
  });
  api.get('/bad-status', (_req, _res, next) => {
    next(Object.assign(new Error('odd'), { status: 418 }));
  });
  app.use('/api/v2', api);
  // A router with its own error handler: it still knows its mount path (see the route test).
  const mounted = express.Router();
  mounted.get('/crash/:url_token', () => {
    throw new Error('boom');
  });
  mounted.use(errorHandler(logger));
  app.use('/mounted', mounted);
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function call(path: string, init?: RequestInit) {
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    body: JSON.parse(text) as Record<string, unknown>,
  };
}

describe('errorHandler', () => {
  it('renders an HttpError as {error, code, request_id} with its status', async () => {
    const res = await call('/api/v2/pushes/abc', { headers: { 'X-Request-Id': 'req-1' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({ error: 'That push does not exist.', code: 'not_found', request_id: 'req-1' });
  });

  it('uses the request id set by the HTTP logger when the client sent none', async () => {
    const res = await call('/api/v2/pushes/abc');
    expect(res.body.request_id).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
    expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
  });

  it('adds the error headers and extra members', async () => {
    const res = await call('/api/v2/gone');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      error: 'Expired.',
      code: 'not_found',
      request_id: expect.any(String),
      expired: true,
      deleted: false,
    });
  });

  it('answers 422 validation_failed with the field map and the first problem in the message', async () => {
    const res = await call('/api/v2/pushes', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: 'Validation failed: expire_after_days must be at most 90',
      code: 'validation_failed',
      request_id: expect.any(String),
      fields: { expire_after_days: ['must be at most 90'], payload: ['is required'] },
    });
    const empty = await call('/api/v2/empty-validation');
    expect(empty.body).toMatchObject({ error: 'Validation failed: invalid input', fields: {} });
  });

  it('answers 503 dependency_unavailable with Retry-After, naming the dependency but not the cause', async () => {
    const res = await call('/api/v2/redis');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.body).toEqual({
      error: 'The rate limiter is unavailable. Please retry shortly.',
      code: 'dependency_unavailable',
      request_id: expect.any(String),
    });
    expect(res.text).not.toContain('ECONNREFUSED');
  });

  it.each(['/api/v2/crash/t0kenSecret', '/api/v2/async-crash', '/api/v2/thrown-string'])(
    'turns an unknown error (%s) into a 500 internal_error without leaking its message',
    async (path) => {
      const res = await call(path, { headers: { 'X-Request-Id': `unknown-${path.length}` } });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        error: 'Internal server error.',
        code: 'internal_error',
        request_id: `unknown-${path.length}`,
      });
      expect(res.text).not.toMatch(/relation|hunter2|secret_key|internals|stack/);
    },
  );

  it('logs unknown errors with the request id and the route pattern, never the raw path', async () => {
    await call('/api/v2/crash/t0kenSecret', { headers: { 'X-Request-Id': 'log-me' } });
    const line = logs.records().find((r) => r.request_id === 'log-me');
    expect(line).toMatchObject({ level: 'error', msg: 'unhandled error' });
    expect(line?.route).toMatch(/\/crash\/:url_token$/);
    expect(line).toMatchObject({ err: { message: expect.stringContaining('relation "push"') } });
    expect(JSON.stringify(line)).not.toContain('t0kenSecret');
  });

  // Express resets req.baseUrl when an error leaves a router: only a handler mounted in the router
  // knows the mount path, so the service mounts one there (services/push/src/app.ts does).
  it('logs the full route pattern, mount path included, when mounted in the router', async () => {
    await call('/mounted/crash/t0kenSecret', { headers: { 'X-Request-Id': 'full-route' } });
    const line = logs.records().find((r) => r.request_id === 'full-route');
    expect(line?.route).toBe('/mounted/crash/:url_token');
  });

  it('logs HttpErrors of 5xx at warn with their cause, and 4xx not at all', async () => {
    await call('/api/v2/redis', { headers: { 'X-Request-Id': 'warn-me' } });
    await call('/api/v2/pushes/abc', { headers: { 'X-Request-Id': 'quiet-4xx' } });
    expect(logs.records().find((r) => r.request_id === 'warn-me')).toMatchObject({
      level: 'warn',
      code: 'dependency_unavailable',
      cause: 'connect ECONNREFUSED 127.0.0.1:6379',
    });
    expect(logs.records().find((r) => r.request_id === 'quiet-4xx')).toBeUndefined();
  });

  it('maps body-parser failures: bad JSON to 400, too large to 413, bad charset to 415', async () => {
    const post = (body: string, type = 'application/json') =>
      call('/api/v2/pushes', { method: 'POST', headers: { 'Content-Type': type }, body });
    expect(await post('{"payload":')).toMatchObject({
      status: 400,
      body: { code: 'bad_request', error: 'The request body is not valid JSON.' },
    });
    expect(await post(JSON.stringify({ payload: 'x'.repeat(2000) }))).toMatchObject({
      status: 413,
      body: { code: 'payload_too_large' },
    });
    expect(await post('{}', 'application/json; charset=ebcdic')).toMatchObject({
      status: 415,
      body: { code: 'unsupported_media_type' },
    });
  });

  it('maps a verify that found bytes not in the charset to 400, and too many form parameters to 413', async () => {
    expect(
      await call('/api/v2/verified', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'verify-400' },
        body: '{}',
      }),
    ).toMatchObject({
      status: 400,
      body: { code: 'bad_request', error: 'The request body is not valid UTF-8.' },
    });
    expect(
      await call('/api/v2/form', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Request-Id': 'params-413' },
        body: 'a=1&b=2&c=3',
      }),
    ).toMatchObject({ status: 413, body: { code: 'payload_too_large' } });
    expect(
      logs.records().filter((r) => ['verify-400', 'params-413'].includes(r.request_id as string)),
    ).toEqual([]);
  });

  it('keeps other 4xx statuses of framework errors as bad_request', async () => {
    expect(await call('/api/v2/bad-status')).toMatchObject({
      status: 418,
      body: { code: 'bad_request', error: 'Malformed request.' },
    });
  });

  it('drops the connection when the response had already started', async () => {
    await expect(fetch(`${base}/api/v2/after-headers`).then((r) => r.text())).rejects.toThrow();
  });
});

describe('notFoundHandler', () => {
  it('answers 404 not_found as JSON for any unmatched route and method', async () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['DELETE', '/api/v2/pushes'],
      ['GET', '/api/v2/unknown?passphrase=x'],
    ] as const) {
      const res = await call(path, { method, headers: { 'X-Request-Id': 'nf' } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Not found.', code: 'not_found', request_id: 'nf' });
    }
  });
});

describe('HttpError', () => {
  it('is an Error carrying status, code, message and cause', () => {
    const cause = new Error('low-level');
    const err = new HttpError(429, 'rate_limited', 'Too many requests.', {
      headers: { 'Retry-After': '30' },
      cause,
    });
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({
      name: 'HttpError',
      status: 429,
      code: 'rate_limited',
      message: 'Too many requests.',
    });
    expect(err.cause).toBe(cause);
    expect(new HttpError(400, 'bad_request', 'x').cause).toBeUndefined();
    expect(HttpError.unavailable('database', cause)).toMatchObject({
      status: 503,
      options: { headers: { 'Retry-After': '5' } },
      cause,
    });
  });

  it('has a fixed set of unique error codes', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    expect(ERROR_CODES).toEqual(
      expect.arrayContaining(['not_found', 'validation_failed', 'dependency_unavailable', 'internal_error']),
    );
  });
});
