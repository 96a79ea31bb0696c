import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import { DependencyDown } from '../domain/errors';
import type { ObjectStore } from '../domain/ports/object-store';
import { createS3ObjectStore } from './object-store';

// The object store's deadlines against a stand-in S3 endpoint (node:http) that answers as slowly
// as each test needs: connect and request deadlines cut a store that does not answer; a download
// that makes progress is never cut, however long it takes; one that stalls is, after the idle time.

let server: Server;
let endpoint: string;
let handler: (req: IncomingMessage, res: ServerResponse) => void;
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((req, res) => handler(req, res));
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

const stores: ObjectStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

function store(requestTimeoutMs: number): ObjectStore {
  const s = createS3ObjectStore({
    endpoint,
    region: 'us-east-1',
    bucket: 'b',
    credentials: { accessKeyId: 'k', secretAccessKey: 's' },
    forcePathStyle: true,
    checksums: 'when_required',
    partSize: 5 * 1024 * 1024,
    queueSize: 1,
    connectTimeoutMs: 300,
    requestTimeoutMs,
  });
  stores.push(s);
  return s;
}

async function readAll(body: Readable): Promise<number> {
  let n = 0;
  for await (const chunk of body) n += (chunk as Buffer).length;
  return n;
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('createS3ObjectStore deadlines', () => {
  it('gives up on a store that accepts and never answers: DependencyDown after one request deadline (no retry after a timeout)', async () => {
    let received = 0;
    handler = () => {
      received += 1; // never answers
    };
    const started = Date.now();
    const err = await failure(store(400).check());
    const elapsed = Date.now() - started;
    expect(err).toBeInstanceOf(DependencyDown);
    expect(elapsed).toBeGreaterThanOrEqual(350);
    // No retry after a timeout: the store saw one request, and no other comes after the failure
    // (counted, not timed: a busy machine stretches the elapsed time, not the count).
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(received).toBe(1);
  });

  it('retries once at once a request whose connection the store closed (a reused keep-alive socket)', async () => {
    let calls = 0;
    handler = (req, res) => {
      calls += 1;
      if (calls === 1) {
        req.socket.destroy(); // no answer at all: "socket hang up" / ECONNRESET
        return;
      }
      res.writeHead(200).end();
    };
    await expect(store(2000).check()).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });

  it('never aborts the request that stores the object: abort() waits for it, so a deletion after it is final', async () => {
    let answered = false;
    let received!: () => void;
    const putReceived = new Promise<void>((r) => (received = r));
    handler = (req, res) => {
      req.resume();
      req.on('end', () => {
        received();
        // The store has the whole body and commits it, however the client feels about it.
        setTimeout(() => {
          answered = true;
          res.writeHead(200, { ETag: '"e"' }).end();
        }, 300);
      });
    };
    const upload = store(2000).upload('k', Readable.from([Buffer.from('secret bytes')]));
    await putReceived;
    await upload.abort();
    // Before, abort() cut the PUT at once and the store committed the object after the caller had
    // already deleted it (seen with s3rver: an object left with no upload intent to sweep it).
    expect(answered).toBe(true);
    await expect(upload.done).resolves.toBeUndefined();
  });

  it('never cuts a download that makes progress, however much longer than the request deadline it takes', async () => {
    const chunks = 8;
    handler = (_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': String(chunks * 1024),
      });
      let sent = 0;
      const timer = setInterval(() => {
        res.write(Buffer.alloc(1024, 1));
        if (++sent === chunks) {
          clearInterval(timer);
          res.end();
        }
      }, 250); // 2 s in all, each gap well inside the 600 ms deadline
    };
    const started = Date.now();
    const body = await store(600).download('k');
    expect(await readAll(body!)).toBe(chunks * 1024);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
  });

  it('ends a download whose body stalls, after the idle deadline', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '4096' });
      res.write(Buffer.alloc(1024, 1)); // then nothing
    };
    const body = await store(500).download('k');
    const started = Date.now();
    const err = await failure(readAll(body!));
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).name).toBe('TimeoutError');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
