import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { createLogger } from '@secret-push/logger';
import { type LocalS3, captureLogs, startS3 } from '@secret-push/testing';
import { type Harness, harness, waitFor } from './support/helpers';

// The explicit regression table of hostile create bodies (a property-based suite lives elsewhere):
// each one against a real push service with a private s3rver, answered with a 4xx and the API's
// error body, leaving no push, file, upload intent or object, and writing no error-level log line.
jest.setTimeout(120_000);

const MIB = 1024 * 1024;
const logs = captureLogs();
let s3: LocalS3;
let h: Harness;

beforeAll(async () => {
  s3 = await startS3();
  h = await harness({
    env: {
      ...s3.env,
      PUSH_FILES_MAX_COUNT: '3',
      PUSH_FILES_MAX_FILE_BYTES: String(MIB),
      PUSH_FILES_MAX_TOTAL_BYTES: String(2 * MIB),
    },
    logger: createLogger({ name: 'push', level: 'trace' }, logs.stream),
  });
});
afterAll(async () => {
  await h.stop();
  await s3.close();
});

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** A POST with exactly these headers and bytes (sent in the given pieces; chunked when asked). */
function post(
  headers: Record<string, string>,
  pieces: (Buffer | string)[],
  options: { chunked?: boolean; path?: string; declaredLength?: number } = {},
): Promise<Answer> {
  const body = pieces.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p));
  const length = options.declaredLength ?? body.reduce((n, b) => n + b.length, 0);
  const url = new URL(h.push.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        agent: false, // one connection per request: a refused body never leaks into the next one
        path: options.path ?? '/api/v2/pushes',
        headers: options.chunked ? headers : { ...headers, 'content-length': String(length) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode!, body: JSON.parse(text) as Record<string, unknown> });
          req.destroy();
        });
      },
    );
    req.on('error', reject);
    const write = async () => {
      for (const b of body) {
        if (req.destroyed) return;
        if (!req.write(b)) await new Promise((r) => req.once('drain', r));
      }
      // A declared length longer than what is sent: wait for the answer instead of ending.
      if (options.declaredLength === undefined) req.end();
    };
    void write();
  });
}

/** Sends the head and part of a body with a longer Content-Length, then half-closes the socket. */
function truncated(head: string, sent: Buffer, declared: number): Promise<string> {
  const url = new URL(h.push.url);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(`${head}Content-Length: ${declared}\r\n\r\n`);
      socket.end(sent);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => {});
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}

const BOUNDARY = 'zz';
const multipart = (boundary = BOUNDARY) => ({ 'content-type': `multipart/form-data; boundary=${boundary}` });
const json = { 'content-type': 'application/json' };
const withToken = () => ({ authorization: `Bearer ${h.token}` });

/** One part; `disposition` replaces the whole Content-Disposition line when given. */
function part(
  name: string | undefined,
  value: Buffer | string,
  options: { filename?: string; type?: string; disposition?: string } = {},
): Buffer {
  const disposition =
    options.disposition ??
    `Content-Disposition: form-data${name === undefined ? '' : `; name="${name}"`}${
      options.filename === undefined ? '' : `; filename="${options.filename}"`
    }`;
  const type = options.type ? `Content-Type: ${options.type}\r\n` : '';
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\n${disposition}\r\n${type}\r\n`, 'latin1'),
    typeof value === 'string' ? Buffer.from(value, 'utf8') : value,
    Buffer.from('\r\n'),
  ]);
}
const file = (data: Buffer | string, name = 'push[files][]', filename = 'a.bin') =>
  part(name, data, { filename, type: 'application/octet-stream' });
const form = (parts: Buffer[], close = true) =>
  Buffer.concat([...parts, Buffer.from(close ? `--${BOUNDARY}--\r\n` : '')]);

const rowCounts = async () =>
  (
    await sql<{ pushes: string; files: string; intents: string }>`
      select (select count(*) from push) as pushes, (select count(*) from push_file) as files,
             (select count(*) from upload_intent) as intents`.execute(h.push.db)
  ).rows[0]!;

/** Log records written since `offset` (characters of the captured text). */
const recordsSince = (offset: number) =>
  logs
    .text()
    .slice(offset)
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { level: string; msg: string; req?: { id?: string } });

interface HostileCase {
  status: number;
  code: string;
  /** For 422: the field the answer names. */
  field?: string;
  send: (headers: Record<string, string>) => Promise<Answer>;
}

const a = (n: number, c = 'a') => c.repeat(n);

const CASES: Record<string, HostileCase> = {
  // ---- malformed multipart
  'garbage under a multipart boundary': {
    status: 400,
    code: 'bad_request',
    send: (hd) => post({ ...hd, ...multipart() }, ['this is not a form at all']),
  },
  'a form without its closing boundary': {
    status: 400,
    code: 'bad_request',
    send: (hd) => post({ ...hd, ...multipart() }, [form([part('push[payload]', 'x')], false)]),
  },
  'a file part cut off (no closing boundary)': {
    status: 400,
    code: 'bad_request',
    send: (hd) =>
      post({ ...hd, ...withToken(), ...multipart() }, [
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="push[files][]"; filename="a.bin"\r\n\r\n`,
        Buffer.alloc(200_000, 7),
      ]),
  },
  'a boundary other than the body uses': {
    status: 400,
    code: 'bad_request',
    send: (hd) => post({ ...hd, ...multipart('aa') }, [form([part('push[payload]', 'x')])]),
  },
  'multipart without a boundary': {
    status: 400,
    code: 'bad_request',
    send: (hd) =>
      post({ ...hd, 'content-type': 'multipart/form-data' }, [form([part('push[payload]', 'x')])]),
  },
  'multipart with an empty boundary': {
    status: 400,
    code: 'bad_request',
    send: (hd) =>
      post({ ...hd, 'content-type': 'multipart/form-data; boundary=' }, [form([part('push[payload]', 'x')])]),
  },
  'a malformed part header': {
    status: 400,
    code: 'bad_request',
    send: (hd) =>
      post({ ...hd, ...multipart() }, [
        form([part('push[payload]', 'x', { disposition: 'Content-Disposition form-data' })]),
      ]),
  },
  'a field part without a name': {
    status: 400,
    code: 'bad_request',
    send: (hd) => post({ ...hd, ...multipart() }, [form([part(undefined, 'x')])]),
  },
  'a file part without a name': {
    status: 400,
    code: 'bad_request',
    send: (hd) =>
      post({ ...hd, ...withToken(), ...multipart() }, [form([part(undefined, 'x', { filename: 'a.txt' })])]),
  },
  // Found by the hostile-input suite: the refused field destroyed the parser while the file's
  // upload intent was being recorded, and the file part's stream then never ended (a hang).
  'a refused field, then a file part that the form never closes (chunked)': {
    status: 422,
    code: 'validation_failed',
    field: 'files',
    send: (hd) =>
      post(
        { ...hd, ...withToken(), ...multipart(), 'transfer-encoding': 'chunked' },
        [
          form(
            [
              part('push[payload]', 'x'),
              part('push[files]', 'x'),
              file('y'.repeat(2000), 'push[files]', 'a.txt'),
            ],
            false,
          ),
        ],
        { chunked: true },
      ),
  },
  'a name with a NUL character (text at rest cannot hold it)': {
    status: 422,
    code: 'validation_failed',
    field: 'name',
    send: (hd) => post({ ...hd, ...json }, [JSON.stringify({ push: { payload: 'x', name: 'a\u0000b' } })]),
  },
  'a payload that is not UTF-8': {
    status: 400,
    code: 'bad_request',
    send: (hd) =>
      post({ ...hd, ...multipart() }, [form([part('push[payload]', Buffer.from([0x41, 0xff, 0xfe, 0x42]))])]),
  },
  'a file name that is not UTF-8': {
    status: 400,
    code: 'bad_request',
    send: (hd) =>
      post({ ...hd, ...withToken(), ...multipart() }, [form([file('x', undefined, 'a\xff.bin')])]),
  },
  'a field in a charset that cannot be read': {
    status: 415,
    code: 'unsupported_media_type',
    send: (hd) =>
      post({ ...hd, ...multipart() }, [
        form([part('push[payload]', 'x', { type: 'text/plain; charset=x-no-such-charset' })]),
      ]),
  },
  'a compressed form': {
    status: 415,
    code: 'unsupported_media_type',
    send: (hd) =>
      post({ ...hd, ...multipart(), 'content-encoding': 'gzip' }, [
        gzipSync(form([part('push[payload]', 'x')])),
      ]),
  },
  'multipart/mixed': {
    status: 415,
    code: 'unsupported_media_type',
    send: (hd) =>
      post({ ...hd, 'content-type': `multipart/mixed; boundary=${BOUNDARY}` }, [
        form([part('push[payload]', 'x')]),
      ]),
  },
  'garbage sent chunked': {
    status: 400,
    code: 'bad_request',
    send: (hd) =>
      post({ ...hd, ...multipart(), 'transfer-encoding': 'chunked' }, ['--zz\r\n', 'garbage', '\r\n--z'], {
        chunked: true,
      }),
  },

  // ---- unexpected fields and parts
  'text where files go': {
    status: 422,
    code: 'validation_failed',
    field: 'files',
    send: (hd) =>
      post({ ...hd, ...withToken(), ...multipart() }, [
        form([part('push[payload]', 'x'), part('push[files][]', '/etc/passwd')]),
      ]),
  },
  'a file under another name': {
    status: 422,
    code: 'validation_failed',
    field: 'files',
    send: (hd) => post({ ...hd, ...withToken(), ...multipart() }, [form([file('x', 'push[other]')])]),
  },
  'push as a plain field': {
    status: 400,
    code: 'bad_request',
    send: (hd) => post({ ...hd, ...multipart() }, [form([part('push', 'x')])]),
  },
  'an access token in the form': {
    status: 400,
    code: 'bad_request',
    send: (hd) =>
      post({ ...hd, ...multipart() }, [form([part('push[payload]', 'x'), part('access_token', 'abc')])]),
  },
  'a field name over 100 characters': {
    status: 413,
    code: 'payload_too_large',
    send: (hd) => post({ ...hd, ...multipart() }, [form([part(`push[${a(100, 'n')}]`, 'x')])]),
  },
  'a field name nested too deep': {
    status: 400,
    code: 'bad_request',
    send: (hd) =>
      post({ ...hd, ...multipart() }, [form([part('push[payload]', 'x'), part('push[a][b][c][d][e]', 'x')])]),
  },
  'a field name with a huge array index': {
    status: 400,
    code: 'bad_request',
    send: (hd) =>
      post({ ...hd, ...multipart() }, [
        form([part('push[payload]', 'x'), part('push[name][99999999]', 'x')]),
      ]),
  },

  // ---- multipart limits
  'a name field over 64 KiB': {
    status: 413,
    code: 'payload_too_large',
    send: (hd) =>
      post({ ...hd, ...multipart() }, [
        form([part('push[payload]', 'x'), part('push[name]', a(64 * 1024 + 1))]),
      ]),
  },
  'an unknown field over 64 KiB': {
    status: 413,
    code: 'payload_too_large',
    send: (hd) => post({ ...hd, ...multipart() }, [form([part('junk', a(MIB))])]),
  },
  'a payload field over 4 MiB': {
    status: 413,
    code: 'payload_too_large',
    send: (hd) => post({ ...hd, ...multipart() }, [form([part('push[payload]', a(4 * MIB + 1))])]),
  },
  'fields over 16 MiB together': {
    status: 413,
    code: 'payload_too_large',
    send: (hd) =>
      post({ ...hd, ...multipart() }, [
        form(Array.from({ length: 5 }, () => part('push[payload]', a(4 * MIB)))),
      ]),
  },
  'more than 20 fields': {
    status: 413,
    code: 'payload_too_large',
    send: (hd) =>
      post({ ...hd, ...multipart() }, [form(Array.from({ length: 21 }, (_, i) => part(`push[f${i}]`, 'x')))]),
  },
  'more parts than fields and files together': {
    status: 413,
    code: 'payload_too_large',
    send: (hd) =>
      post({ ...hd, ...multipart() }, [
        form(Array.from({ length: 30 }, () => part('x', 'x', { disposition: 'X-Nothing: here' }))),
      ]),
  },
  'a declared length over the form bound': {
    status: 413,
    code: 'payload_too_large',
    send: (hd) =>
      post({ ...hd, ...withToken(), ...multipart() }, [form([part('push[payload]', 'x')])], {
        declaredLength: 64 * 1024 * MIB,
      }),
  },
  'more files than PUSH_FILES_MAX_COUNT': {
    status: 422,
    code: 'validation_failed',
    field: 'files',
    send: (hd) =>
      post({ ...hd, ...withToken(), ...multipart() }, [form([0, 1, 2, 3].map((i) => file(`f${i}`)))]),
  },
  'a file over PUSH_FILES_MAX_FILE_BYTES': {
    status: 413,
    code: 'payload_too_large',
    send: (hd) => post({ ...hd, ...withToken(), ...multipart() }, [form([file(Buffer.alloc(MIB + 1, 1))])]),
  },
  'files from an anonymous caller': {
    status: 401,
    code: 'unauthorized',
    send: (hd) => post({ ...hd, ...multipart() }, [form([file('x')])]),
  },

  // ---- bounds of the fields themselves (code points)
  'a form payload over 1,048,576 code points': {
    status: 422,
    code: 'validation_failed',
    field: 'payload',
    send: (hd) => post({ ...hd, ...multipart() }, [form([part('push[payload]', a(1_048_577))])]),
  },
  'a file push whose payload is over the text bound': {
    status: 422,
    code: 'validation_failed',
    field: 'payload',
    send: (hd) =>
      post({ ...hd, ...withToken(), ...multipart() }, [
        form([
          part('push[kind]', 'file'),
          part('push[payload]', a(1_048_577)),
          file(Buffer.alloc(300_000, 3)),
        ]),
      ]),
  },
  'a JSON file push whose payload is over the text bound': {
    status: 422,
    code: 'validation_failed',
    field: 'payload',
    send: (hd) =>
      post({ ...hd, ...withToken(), ...json }, [
        JSON.stringify({ push: { kind: 'file', payload: a(1_048_577) } }),
      ]),
  },
  'a JSON payload of 16 million characters': {
    status: 422,
    code: 'validation_failed',
    field: 'payload',
    send: (hd) => post({ ...hd, ...json }, [`{"push":{"payload":"${a(16_000_000)}"}}`]),
  },
  'a URL payload over the text bound': {
    status: 422,
    code: 'validation_failed',
    field: 'payload',
    send: (hd) =>
      post({ ...hd, ...json }, [
        JSON.stringify({ push: { kind: 'url', payload: `https://example.test/${a(1_048_577)}` } }),
      ]),
  },
  'a name of 1025 astral characters': {
    status: 422,
    code: 'validation_failed',
    field: 'name',
    send: (hd) =>
      post({ ...hd, ...json }, [JSON.stringify({ push: { payload: 'x', name: '😀'.repeat(1025) } })]),
  },
  'a passphrase of 1025 characters in a form': {
    status: 422,
    code: 'validation_failed',
    field: 'passphrase',
    send: (hd) =>
      post({ ...hd, ...multipart() }, [
        form([part('push[payload]', 'x'), part('push[passphrase]', a(1025))]),
      ]),
  },
  'a 1 MiB boolean word': {
    status: 422,
    code: 'validation_failed',
    field: 'retrieval_step',
    send: (hd) =>
      post({ ...hd, ...json }, [JSON.stringify({ push: { payload: 'x', retrieval_step: a(MIB) } })]),
  },

  // ---- JSON and urlencoded bodies
  'JSON declared latin1': {
    status: 415,
    code: 'unsupported_media_type',
    send: (hd) =>
      post({ ...hd, 'content-type': 'application/json; charset=latin1' }, ['{"push":{"payload":"x"}}']),
  },
  'JSON declared and sent as UTF-16': {
    status: 415,
    code: 'unsupported_media_type',
    send: (hd) =>
      post({ ...hd, 'content-type': 'application/json; charset=utf-16' }, [
        Buffer.from('\ufeff{"push":{"payload":"x"}}', 'utf16le'),
      ]),
  },
  'JSON with bytes that are not UTF-8': {
    status: 400,
    code: 'bad_request',
    send: (hd) =>
      post({ ...hd, ...json }, [
        Buffer.concat([Buffer.from('{"push":{"payload":"a'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}')]),
      ]),
  },
  'truncated JSON': {
    status: 400,
    code: 'bad_request',
    send: (hd) => post({ ...hd, ...json }, ['{"push":{"payload":"abc']),
  },
  'JSON over 16 MiB': {
    status: 413,
    code: 'payload_too_large',
    send: (hd) => post({ ...hd, ...json }, [`{"push":{"payload":"${a(16 * MIB)}"}}`]),
  },
  'JSON nested 100,000 deep': {
    status: 422,
    code: 'validation_failed',
    field: 'payload',
    send: (hd) => post({ ...hd, ...json }, [`{"push":{"payload":${a(100_000, '[')}${a(100_000, ']')}}}`]),
  },
  'gzip that is not gzip': {
    status: 400,
    code: 'bad_request',
    send: (hd) => post({ ...hd, ...json, 'content-encoding': 'gzip' }, ['not gzip at all']),
  },
  'an unknown Content-Encoding': {
    status: 415,
    code: 'unsupported_media_type',
    send: (hd) => post({ ...hd, ...json, 'content-encoding': 'zz-nope' }, ['{"push":{"payload":"x"}}']),
  },
  'a form declared UTF-16': {
    status: 415,
    code: 'unsupported_media_type',
    send: (hd) =>
      post({ ...hd, 'content-type': 'application/x-www-form-urlencoded; charset=utf-16' }, [
        'push[payload]=x',
      ]),
  },
  'a form with 2000 parameters': {
    status: 413,
    code: 'payload_too_large',
    send: (hd) =>
      post({ ...hd, 'content-type': 'application/x-www-form-urlencoded' }, [
        Array.from({ length: 2000 }, (_, i) => `push[f${i}]=x`).join('&'),
      ]),
  },
  'a form nested 50 deep': {
    status: 400,
    code: 'bad_request',
    send: (hd) =>
      post({ ...hd, 'content-type': 'application/x-www-form-urlencoded' }, [
        `push[payload]=x&push${a(50, '[a]')}=x`,
      ]),
  },
  'a reveal body declared UTF-16': {
    status: 415,
    code: 'unsupported_media_type',
    send: (hd) =>
      post({ ...hd, 'content-type': 'application/json; charset=utf-16' }, ['{}'], {
        path: '/api/v2/pushes/AAAAAAAAAAAAAAAAAAAAAA/reveal',
      }),
  },
};

describe('hostile create bodies', () => {
  let n = 0;
  it.each(Object.entries(CASES))('%s', async (_name, c) => {
    const id = `hostile-${++n}`;
    const before = await rowCounts();
    const keysBefore = await s3.listKeys();
    const offset = logs.text().length;

    const res = await c.send({ 'x-request-id': id });

    expect({ status: res.status, code: res.body.code }).toEqual({ status: c.status, code: c.code });
    expect(res.body).toMatchObject({ error: expect.any(String), request_id: id });
    if (c.field) expect(Object.keys(res.body.fields as object)).toContain(c.field);
    // Nothing stored, nothing left: the answer comes after the cleanup.
    expect(await rowCounts()).toEqual(before);
    expect(await s3.listKeys()).toEqual(keysBefore);
    // The request's own log line has been written (the HTTP logger logs on close), and no line at error.
    await waitFor(async () => Promise.resolve(recordsSince(offset).some((r) => r.req?.id === id)), 5000);
    const loud = recordsSince(offset).filter((r) => r.level === 'error' || r.level === 'fatal');
    expect(loud).toEqual([]);
  });
});

describe('bodies that end before their Content-Length', () => {
  it.each([
    ['JSON', 'application/json', Buffer.from('{"push":{"payload":"abcdef')],
    [
      'a form with a file',
      `multipart/form-data; boundary=${BOUNDARY}`,
      Buffer.concat([
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="push[files][]"; filename="a.bin"\r\n\r\n`,
        ),
        Buffer.alloc(300_000, 5),
      ]),
    ],
  ])('%s: nothing is stored and no error is logged but the abort itself', async (_name, type, sent) => {
    const before = await rowCounts();
    const keysBefore = await s3.listKeys();
    const offset = logs.text().length;
    const head =
      `POST /api/v2/pushes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.token}\r\n` +
      `Content-Type: ${type}\r\nX-Request-Id: cut-${type.length}\r\n`;
    const answer = await truncated(head, sent, sent.length + 1000);
    // The connection is closed before or after a 400; never a 500.
    expect(answer).not.toMatch(/^HTTP\/1\.1 5/);
    await waitFor(async () => (await rowCounts()).intents === before.intents, 10_000);
    expect(await rowCounts()).toEqual(before);
    await waitFor(async () => (await s3.listKeys()).length === keysBefore.length, 10_000);
    // The HTTP logger reports the abort itself (packages/logger); nothing else is at error.
    const loud = recordsSince(offset).filter(
      (r) => (r.level === 'error' || r.level === 'fatal') && r.msg !== 'request aborted',
    );
    expect(loud).toEqual([]);
  });
});

describe('well-formed bodies at the bounds', () => {
  const retrieve = async (token: string) => {
    const res = await fetch(`${h.push.url}/api/v2/pushes/${token}`);
    return (await res.json()) as { payload: string };
  };

  it('takes a form payload of 1,048,576 four-byte code points (a 4 MiB field) and names of 1024 astral characters', async () => {
    const payload = '😀'.repeat(1_048_576);
    const name = '𝒳'.repeat(1024);
    const res = await post({ ...withToken(), ...multipart() }, [
      form([
        part('push[payload]', payload),
        part('push[name]', name),
        part('push[passphrase]', '🔑'.repeat(1024)),
      ]),
    ]);
    expect(res.status).toBe(201);
    expect(res.body.name).toBe(name);
    const viaJson = await post(json, [JSON.stringify({ push: { payload: 'x', name, note: name } })]);
    expect(viaJson.status).toBe(201);
  });

  it('reads fields by the charset their part declares', async () => {
    const res = await post(multipart(), [
      form([
        part('push[payload]', 'café ✓', { type: 'text/plain; charset=utf-8' }),
        part('push[name]', Buffer.from([0x63, 0x61, 0x66, 0xe9]), { type: 'text/plain; charset=iso-8859-1' }),
      ]),
    ]);
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('café');
    expect((await retrieve(res.body.url_token as string)).payload).toBe('café ✓');
  });

  it('stores a file push with 20 fields, a payload and files up to their limits', async () => {
    const keysBefore = await s3.listKeys();
    const fields = Array.from({ length: 18 }, (_, i) => part(`push[extra${i}]`, a(64 * 1024)));
    const res = await post({ ...withToken(), ...multipart() }, [
      form([
        part('push[payload]', 'see attached'),
        part('push[expire_after_views]', '2'),
        ...fields,
        file(Buffer.alloc(MIB, 1), 'push[files][]', 'one.bin'),
        file(Buffer.alloc(MIB, 2), 'push[files][]', 'two.bin'),
      ]),
    ]);
    expect(res.status).toBe(201);
    expect(res.body.kind).toBe('file');
    expect((await s3.listKeys()).length).toBe(keysBefore.length + 2);
    expect((await rowCounts()).intents).toBe('0');
  });
});
