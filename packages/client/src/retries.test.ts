import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ConnectionError,
  RateLimitedError,
  SecretPushError,
  UnavailableError,
  createClient,
} from './index.ts';

// The retry rules, against small local HTTP servers that stand in for the push API and answer
// each request as the test says (the real services cannot be made to fail on cue).

interface StandIn {
  url: string;
  requests: { method: string; url: string; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

type Answer = (req: IncomingMessage, res: ServerResponse, n: number) => void;

async function standIn(answers: Answer[]): Promise<StandIn> {
  const requests: StandIn['requests'] = [];
  const server = createServer((req, res) => {
    const n = requests.length;
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    // Reads the whole request first, as the API does.
    req.resume();
    req.on('end', () => (answers[Math.min(n, answers.length - 1)] ?? drop)(req, res, n));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Answer =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
const error = (status: number, code: string, headers: Record<string, string> = {}) =>
  json(status, { error: `a ${code}`, code, request_id: 'req-1' }, headers);
/** Reads the request, then destroys the socket without answering. */
const drop: Answer = (req) => req.socket.destroy();
const never: Answer = () => undefined;

const VERSION = { application_version: '1', api_version: '2.1', edition: 'oss', features: {} };
const PUSH = { url_token: 'abcdefghijklmnopqrstuv', kind: 'text', payload: 'x', files: [], expired: false };

let servers: StandIn[] = [];
async function start(answers: Answer[]) {
  const s = await standIn(answers);
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

test('a 503 with Retry-After is waited out and retried', async () => {
  const s = await start([error(503, 'dependency_unavailable', { 'retry-after': '1' }), json(200, VERSION)]);
  const client = createClient({ baseUrl: s.url });
  const started = Date.now();
  expect((await client.version()).api_version).toBe('2.1');
  expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  expect(s.requests).toHaveLength(2);
});

test('429 is retried with backoff up to `retries`, then thrown with retryAfter', async () => {
  const s = await start([error(429, 'rate_limited', { 'retry-after': '0' })]);
  const client = createClient({ baseUrl: s.url, retries: 2 });
  const err = await client.preview('abcdefghijklmnopqrstuv').catch((e: unknown) => e);
  expect(err).toBeInstanceOf(RateLimitedError);
  expect(err).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 0, requestId: 'req-1' });
  expect(s.requests).toHaveLength(3);
});

test('a Retry-After longer than maxRetryDelayMs fails at once', async () => {
  const s = await start([error(503, 'dependency_unavailable', { 'retry-after': '120' })]);
  const client = createClient({ baseUrl: s.url, maxRetryDelayMs: 5000 });
  const err = await client.version().catch((e: unknown) => e);
  expect(err).toBeInstanceOf(UnavailableError);
  expect(err).toMatchObject({ kind: 'unavailable', retryAfter: 120 });
  expect(s.requests).toHaveLength(1);
});

test('a retrieve is not repeated after a connection drop: exactly one request', async () => {
  const s = await start([drop, json(200, PUSH)]);
  const client = createClient({ baseUrl: s.url, auth: { token: 't'.repeat(40) } });
  const err = await client.retrieve(PUSH.url_token).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ConnectionError);
  expect(err).toMatchObject({ status: 0, code: 'connection_error', kind: 'network' });
  expect(s.requests).toHaveLength(1);
});

test('a retrieve is not repeated after 502 or 504, nor after a 503 of another code', async () => {
  for (const answer of [error(502, 'bad_gateway'), error(504, 'gateway_timeout'), error(503, 'other')]) {
    const s = await start([answer, json(200, PUSH)]);
    const client = createClient({ baseUrl: s.url });
    await expect(client.retrieve(PUSH.url_token)).rejects.toBeInstanceOf(UnavailableError);
    expect(s.requests).toHaveLength(1);
  }
});

test('a retrieve is repeated after a 503 dependency_unavailable (nothing was claimed)', async () => {
  const s = await start([error(503, 'dependency_unavailable', { 'retry-after': '0' }), json(200, PUSH)]);
  const client = createClient({ baseUrl: s.url });
  expect((await client.retrieve(PUSH.url_token, { passphrase: 'p' })).payload).toBe('x');
  expect(s.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
  expect(s.requests[0]!.url).toBe(`/api/v2/pushes/${PUSH.url_token}/reveal`);
});

test('safe calls are repeated after a connection drop', async () => {
  const s = await start([drop, drop, json(200, { url: 'http://x/p/abc' })]);
  const client = createClient({ baseUrl: s.url });
  expect((await client.preview(PUSH.url_token)).url).toBe('http://x/p/abc');
  expect(s.requests).toHaveLength(3);
});

test('a create sends an Idempotency-Key and is repeated with the same key', async () => {
  const s = await start([drop, json(201, { ...PUSH, name: '', note: '' })]);
  const client = createClient({ baseUrl: s.url });
  await client.create({ payload: 'x' });
  expect(s.requests).toHaveLength(2);
  const keys = s.requests.map((r) => r.headers['idempotency-key']);
  expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  expect(keys[1]).toBe(keys[0]);
  // A new create gets a new key.
  await client.create({ payload: 'y' });
  expect(s.requests[2]!.headers['idempotency-key']).not.toBe(keys[0]);
});

test('a create from a caller’s stream is not repeated (the stream was read)', async () => {
  const s = await start([error(503, 'dependency_unavailable', { 'retry-after': '0' })]);
  const client = createClient({ baseUrl: s.url, auth: { token: 't'.repeat(40) } });
  const stream = new Blob(['file body']).stream();
  await expect(client.create({ files: [{ stream, filename: 'a.txt' }] })).rejects.toBeInstanceOf(
    UnavailableError,
  );
  expect(s.requests).toHaveLength(1);
});

test('timeoutMs bounds a call; an AbortSignal aborts it with its reason', async () => {
  const s = await start([never]);
  const client = createClient({ baseUrl: s.url, timeoutMs: 200 });
  await expect(client.version()).rejects.toMatchObject({ code: 'timeout', kind: 'timeout' });
  const controller = new AbortController();
  const pending = client.version({ signal: controller.signal, timeoutMs: 10_000 });
  setTimeout(() => controller.abort(new Error('stopped by the caller')), 50);
  await expect(pending).rejects.toThrow('stopped by the caller');
});

test('error messages name the request without its push token or file id', async () => {
  const silent = await start([never]);
  const slow = createClient({ baseUrl: silent.url, timeoutMs: 200, retries: 0 });
  const timedOut = (await slow.retrieve(PUSH.url_token).catch((e: unknown) => e)) as SecretPushError;
  expect(timedOut.message).toBe('GET /api/v2/pushes/… timed out after 200 ms');

  const dropping = await start([drop]);
  const client = createClient({ baseUrl: dropping.url, retries: 0 });
  const messages = await Promise.all(
    [
      client.preview(PUSH.url_token),
      client.retrieve(PUSH.url_token, { passphrase: 'p' }),
      client.download(`${dropping.url}/api/v2/files/file-id-Xy12?push=${PUSH.url_token}&sig=sig-Zw34`),
      client.active().pages()[Symbol.asyncIterator]().next(),
    ].map((p) =>
      p.then(
        () => 'no error',
        (e: unknown) => (e as Error).message,
      ),
    ),
  );
  expect(messages).toEqual([
    'GET /api/v2/pushes/…/preview failed: no answer from the server',
    'POST /api/v2/pushes/…/reveal failed: no answer from the server',
    'GET /api/v2/files/… failed: no answer from the server',
    'GET /api/v2/pushes/active failed: no answer from the server',
  ]);
  for (const m of messages) expect(m).not.toMatch(/abcdefghij|Xy12|Zw34/);
});
