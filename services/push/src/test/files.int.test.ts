import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import request from 'supertest';
import { sql } from 'kysely';
import { type TestAuth, startAuth } from '@secret-push/auth/testing';
import { type LocalS3, startS3 } from '@secret-push/testing';
import { type TestPush, startPush, startTestWorker } from '../testing';
import { bearer, waitFor } from './support/helpers';

// File pushes against a real S3-compatible server (a private s3rver per file), a real auth
// service, PostgreSQL and Redis; the purge tests run the real worker.
jest.setTimeout(60_000);

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface FileIn {
  name: string;
  data: Buffer;
  type?: string;
}
interface FileOut {
  filename: string;
  content_type: string;
  size: number;
  url: string;
}

let auth: TestAuth;
let s3: LocalS3;
let push: TestPush;
let token: string;

const fileEnv = (extra: Record<string, string> = {}) => ({
  ...s3.env,
  PUSH_FILES_MAX_FILE_BYTES: String(2 * 1024 * 1024),
  PUSH_FILES_MAX_TOTAL_BYTES: String(5 * 1024 * 1024),
  ...extra,
});

beforeAll(async () => {
  auth = await startAuth();
  s3 = await startS3();
  push = await startPush(auth, { env: fileEnv({ PUSH_FILES_GRACE_SECONDS: '3' }) });
  token = await auth.token(await auth.createClient('pushes:read pushes:write'));
});
afterAll(async () => {
  await push.stop();
  await s3.close();
  await auth.stop();
});

function upload(target: TestPush, files: FileIn[], fields: Record<string, string> = {}, tokenToUse?: string) {
  const req = request(target.url).post('/api/v2/pushes');
  if (tokenToUse !== undefined) void req.set(bearer(tokenToUse));
  for (const [k, v] of Object.entries(fields)) void req.field(`push[${k}]`, v);
  for (const f of files) {
    void req.attach('push[files][]', f.data, {
      filename: f.name,
      contentType: f.type ?? 'application/octet-stream',
    });
  }
  return req;
}

async function createFilePush(files: FileIn[], fields: Record<string, string> = {}): Promise<string> {
  const res = await upload(push, files, fields, token);
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { url_token: string }).url_token;
}

async function retrieve(
  urlToken: string,
): Promise<{ files: FileOut[]; expired: boolean; views_remaining: number }> {
  const res = await request(push.url).get(`/api/v2/pushes/${urlToken}`);
  expect(res.status).toBe(200);
  return res.body as { files: FileOut[]; expired: boolean; views_remaining: number };
}

/** GETs a download link (absolute URL from the API), with the body as a Buffer. */
function download(url: string) {
  const u = new URL(url);
  return request(`${u.protocol}//${u.host}`)
    .get(u.pathname + u.search)
    .buffer(true)
    .parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });
}

const rowCounts = async (db: TestPush['db']) =>
  (
    await sql<{ pushes: string; files: string; intents: string }>`
      select (select count(*) from push) as pushes, (select count(*) from push_file) as files,
             (select count(*) from upload_intent) as intents`.execute(db)
  ).rows[0]!;

const pushIdOf = async (urlToken: string) =>
  (
    await sql<{
      id: string;
    }>`select id from push where token_hash = sha256(convert_to(${urlToken}, 'UTF8'))`.execute(push.db)
  ).rows[0]!.id;

describe('file pushes', () => {
  it('reports file attachments enabled and requiring authentication in /version', async () => {
    const res = await request(push.url).get('/api/v2/version');
    expect(res.body.features.pushes.file_attachments).toEqual({
      enabled: true,
      requires_authentication: true,
    });
  });

  it('documents multipart create and the download links in the OpenAPI document', async () => {
    const doc = (await request(push.url).get('/api/v2/openapi.json')).body;
    expect(Object.keys(doc.paths['/pushes'].post.requestBody.content)).toContain('multipart/form-data');
    expect(Object.keys(doc.paths['/files/{file_id}'].get.responses).sort()).toEqual([
      '200',
      '404',
      '429',
      '503',
    ]);
    expect(Object.keys(doc.components.schemas.PushFile.properties).sort()).toEqual([
      'content_type',
      'filename',
      'size',
      'url',
    ]);
  });

  it('stores three files encrypted and streams each back through its link, byte for byte', async () => {
    const files = [
      { name: 'a.bin', data: randomBytes(1_500_000), type: 'application/octet-stream' },
      { name: 'b.txt', data: Buffer.from('hello files\n'), type: 'text/plain' },
      { name: 'empty.dat', data: Buffer.alloc(0) },
    ];
    const urlToken = await createFilePush(files, { payload: 'see attached', expire_after_views: '2' });
    const pushId = await pushIdOf(urlToken);
    const keys = await s3.listKeys(`files/${pushId}/`);
    expect(keys).toHaveLength(3);
    // Encrypted at rest: the stored object is not the file.
    const stored = await s3.client.send(
      new (await import('@aws-sdk/client-s3')).GetObjectCommand({ Bucket: s3.bucket, Key: keys[0]! }),
    );
    const storedBytes = Buffer.from(await stored.Body!.transformToByteArray());
    expect(storedBytes.includes(files[1]!.data)).toBe(false);
    expect(storedBytes.includes(files[0]!.data.subarray(0, 64))).toBe(false);

    const body = await retrieve(urlToken);
    expect(body.files.map((f) => [f.filename, f.content_type, f.size])).toEqual([
      ['a.bin', 'application/octet-stream', 1_500_000],
      ['b.txt', 'text/plain', 12],
      ['empty.dat', 'application/octet-stream', 0],
    ]);
    for (const [i, f] of body.files.entries()) {
      const res = await download(f.url);
      expect(res.status).toBe(200);
      expect(sha256(res.body as Buffer)).toBe(sha256(files[i]!.data));
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename=/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const { rows } = await sql<{ n: string }>`
      select count(*) as n from audit_entry where push_id = ${pushId} and kind = 'file_download'`.execute(
      push.db,
    );
    expect(rows[0]!.n).toBe('3');
  });

  it('refuses 11 files (422) and an oversized file (413), leaving nothing in the bucket or the database', async () => {
    const before = await rowCounts(push.db);
    const keysBefore = await s3.listKeys();
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.txt`, data: randomBytes(10_000) }));
    const tooMany = await upload(push, eleven, {}, token);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.fields).toEqual({ files: ['You can only attach up to 10 files per push.'] });

    const big = await upload(
      push,
      [
        { name: 'ok.bin', data: randomBytes(1000) },
        { name: 'big.bin', data: randomBytes(2 * 1024 * 1024 + 1) },
      ],
      {},
      token,
    );
    expect(big.status).toBe(413);
    expect(big.body.error).toMatch(/exceeds the limit of 2 MiB/);

    const total = await upload(
      push,
      [0, 1, 2].map((i) => ({ name: `t${i}.bin`, data: randomBytes(2 * 1024 * 1024 - 10) })),
      {},
      token,
    );
    expect(total.status).toBe(413);
    expect(total.body.error).toMatch(/together exceed 5 MiB/);

    const badField = await request(push.url)
      .post('/api/v2/pushes')
      .set(bearer(token))
      .attach('push[other]', Buffer.from('x'), 'x.txt');
    expect(badField.status).toBe(422);

    await waitFor(async () => (await s3.listKeys()).length === keysBefore.length, 3000);
    expect(await rowCounts(push.db)).toEqual(before);
  });

  it('needs authentication (401 before anything is stored) and a file kind for files', async () => {
    const keysBefore = await s3.listKeys();
    const anonymous = await upload(push, [{ name: 'a.txt', data: Buffer.from('x') }]);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer/);
    const textWithFiles = await upload(
      push,
      [{ name: 'a.txt', data: Buffer.from('x') }],
      { kind: 'text', payload: 'p' },
      token,
    );
    expect(textWithFiles.status).toBe(422);
    const jsonFiles = await request(push.url)
      .post('/api/v2/pushes')
      .set(bearer(token))
      .send({ push: { files: ['not a file'] } });
    expect(jsonFiles.status).toBe(422);
    await waitFor(async () => (await s3.listKeys()).length === keysBefore.length, 3000);
  });

  it('stores and serves hostile file names safely', async () => {
    const names = [
      '../../etc/passwd',
      'C:\\Windows\\evil.exe',
      'résumé 📄.pdf',
      'quote"d\'.txt',
      '<script>alert(1)</script>.html',
    ];
    const urlToken = await createFilePush(
      names.map((name) => ({ name, data: Buffer.from(name), type: 'text/html' })),
    );
    const body = await retrieve(urlToken);
    expect(body.files.map((f) => f.filename)).toEqual([
      'passwd',
      'evil.exe',
      'résumé 📄.pdf',
      'quote"d\'.txt',
      'script>.html',
    ]);
    for (const f of body.files) {
      const res = await download(f.url);
      expect(res.status).toBe(200);
      const cd = res.headers['content-disposition'] as string;
      expect(cd).toMatch(/^attachment;/);
      expect(cd).not.toMatch(/[\r\n]/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBeDefined();
    }
    const unicode = await download(body.files[2]!.url);
    expect(unicode.headers['content-disposition']).toContain(
      "filename*=UTF-8''r%C3%A9sum%C3%A9%20%F0%9F%93%84.pdf",
    );
  });

  it('serves every file as a sandboxed download, whatever its type; the type stays in the retrieve JSON', async () => {
    const files = [
      { name: 'app.js', data: Buffer.from('alert(document.cookie)'), type: 'text/javascript' },
      { name: 'page.html', data: Buffer.from('<script>alert(1)</script>'), type: 'text/html' },
      { name: 'style.css', data: Buffer.from('body{}'), type: 'text/css' },
      { name: 'image.svg', data: Buffer.from('<svg onload="alert(1)"/>'), type: 'image/svg+xml' },
    ];
    const body = await retrieve(await createFilePush(files));
    expect(body.files.map((f) => f.content_type)).toEqual([
      'text/javascript',
      'text/html',
      'text/css',
      'image/svg+xml',
    ]);
    for (const [i, f] of body.files.entries()) {
      const res = await download(f.url);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['content-disposition']).toBe(`attachment; filename=${files[i]!.name}`);
      expect(res.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.body).toEqual(files[i]!.data);
    }
  });

  it('neutralises bidirectional and invisible characters in file names (retrieve JSON and download)', async () => {
    const body = await retrieve(
      await createFilePush([
        { name: 'invoice\u202efdp.exe', data: Buffer.from('x') },
        { name: '\u2066report\u2069\u200b.pdf\u200f', data: Buffer.from('y') },
      ]),
    );
    expect(body.files.map((f) => f.filename)).toEqual(['invoicefdp.exe', 'report.pdf']);
    for (const f of body.files) {
      const cd = (await download(f.url)).headers['content-disposition'] as string;
      expect(cd).toMatch(/^attachment; filename=(invoicefdp\.exe|report\.pdf)$/);
    }
  });

  it('refuses a link for another file or push, a forged or expired one, and a fourth download under one view', async () => {
    const one = await createFilePush([{ name: 'one.txt', data: Buffer.from('one') }], {
      expire_after_views: '1',
    });
    const two = await createFilePush(
      [
        { name: 'two-a.txt', data: Buffer.from('two a') },
        { name: 'two-b.txt', data: Buffer.from('two b') },
      ],
      { expire_after_views: '3' },
    );
    const [linkOne] = (await retrieve(one)).files;
    const [linkA, linkB] = (await retrieve(two)).files;
    const swap = (link: string, from: URL) => {
      const u = new URL(link);
      return `${u.origin}${from.pathname}${u.search}`;
    };
    // Another file's path under this link's signature, and another push's signature.
    expect((await download(swap(linkA!.url, new URL(linkB!.url)))).status).toBe(404);
    expect((await download(swap(linkOne!.url, new URL(linkA!.url)))).status).toBe(404);
    const forged = new URL(linkA!.url);
    forged.searchParams.set('expires', String(Number(forged.searchParams.get('expires')) + 3600));
    expect((await download(forged.toString())).status).toBe(404);
    const past = new URL(linkA!.url);
    past.searchParams.set('expires', '1000');
    expect((await download(past.toString())).status).toBe(404);

    // A one-view push: its single view allows three downloads, never more.
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await download(linkOne!.url)).status);
    expect(statuses).toEqual([200, 200, 200, 404, 404]);
    const again = await retrieve(one);
    expect(again.expired).toBe(true);
    expect(again.files).toEqual([]);

    // Concurrent downloads under one view: exactly three succeed.
    const parallel = await Promise.all(Array.from({ length: 8 }, () => download(linkB!.url)));
    expect(parallel.filter((r) => r.status === 200)).toHaveLength(3);
    const body = await download(linkB!.url);
    expect(body.status).toBe(404);
    expect(body.body.toString()).toContain('invalid, used up or expired');
  });

  it('keeps files downloadable for the grace period after the last view, then the worker purges them', async () => {
    const worker = await startTestWorker(push);
    try {
      const urlToken = await createFilePush([{ name: 'g.txt', data: Buffer.from('grace') }], {
        expire_after_views: '1',
      });
      const pushId = await pushIdOf(urlToken);
      const [link] = (await retrieve(urlToken)).files;
      expect(await s3.listKeys(`files/${pushId}/`)).toHaveLength(1);
      expect((await download(link!.url)).status).toBe(200);
      const purgeRow = async () =>
        (
          await sql<{ files_purged: boolean; n: string }>`
            select files_purged, (select count(*) from push_file where push_id = ${pushId}) as n from push where id = ${pushId}`.execute(
            push.db,
          )
        ).rows[0];
      // The purge deletes the objects, then records it on the row: wait for both.
      await waitFor(
        async () =>
          (await s3.listKeys(`files/${pushId}/`)).length === 0 && (await purgeRow())?.files_purged === true,
        10_000,
      );
      expect((await download(link!.url)).status).toBe(404);
      expect((await rowCounts(push.db)).files).not.toBe(undefined);
      expect(await purgeRow()).toEqual({ files_purged: true, n: '0' });
    } finally {
      await worker.close();
    }
  });

  it('purges at once on DELETE (also during the grace period) and on time expiry', async () => {
    const worker = await startTestWorker(push);
    try {
      const deleted = await createFilePush([{ name: 'd.txt', data: Buffer.from('d') }]);
      const deletedId = await pushIdOf(deleted);
      const [link] = (await retrieve(deleted)).files;
      expect((await request(push.url).delete(`/api/v2/pushes/${deleted}`).set(bearer(token))).status).toBe(
        200,
      );
      expect((await download(link!.url)).status).toBe(404);
      await waitFor(async () => (await s3.listKeys(`files/${deletedId}/`)).length === 0, 5000);

      const graced = await createFilePush([{ name: 'g.txt', data: Buffer.from('g') }], {
        expire_after_views: '1',
      });
      const gracedId = await pushIdOf(graced);
      await retrieve(graced); // the last view: a grace period starts (3 s here); make it an hour
      await sql`update push set files_purge_after = now() + interval '1 hour' where id = ${gracedId}`.execute(
        push.db,
      );
      await sleep(500);
      expect(await s3.listKeys(`files/${gracedId}/`)).toHaveLength(1);
      expect((await request(push.url).delete(`/api/v2/pushes/${graced}`).set(bearer(token))).status).toBe(
        200,
      );
      await waitFor(async () => (await s3.listKeys(`files/${gracedId}/`)).length === 0, 5000);

      const timed = await createFilePush([{ name: 't.txt', data: Buffer.from('t') }]);
      const timedId = await pushIdOf(timed);
      await sql`update push set expires_at = now() where id = ${timedId}`.execute(push.db);
      expect((await retrieve(timed)).expired).toBe(true); // the read path expires it
      await waitFor(async () => (await s3.listKeys(`files/${timedId}/`)).length === 0, 5000);
    } finally {
      await worker.close();
    }
  });

  it('a purge that falls due during the grace period happens within a tick', async () => {
    const worker = await startTestWorker(push);
    try {
      const urlToken = await createFilePush([{ name: 'g.txt', data: Buffer.from('grace') }], {
        expire_after_views: '1',
      });
      const pushId = await pushIdOf(urlToken);
      await retrieve(urlToken); // the last view: the grace period starts
      // The grace period ends one second from now (by the database's clock).
      await sql`update push set files_purge_after = now() + interval '1 second' where id = ${pushId}`.execute(
        push.db,
      );
      const dueAt = Date.now() + 1000;
      await sleep(500);
      expect(await s3.listKeys(`files/${pushId}/`)).toHaveLength(1);
      await waitFor(async () => (await s3.listKeys(`files/${pushId}/`)).length === 0, 5000);
      // A tick is 250 ms; the bound leaves room for a loaded machine, not for a minute's sweep.
      expect(Date.now() - dueAt).toBeLessThan(1500);
    } finally {
      await worker.close();
    }
  });

  it('a tick purges what is due with no job for it; the sweep deletes objects of uploads a crash left behind', async () => {
    const urlToken = await createFilePush([{ name: 'lost.txt', data: Buffer.from('lost') }]);
    const pushId = await pushIdOf(urlToken);
    // Expired with its purge due while no worker ran …
    await sql`update push set expired = true, expired_on = now(), payload_sealed = null, note_sealed = null,
              passphrase_hash = null, files_purge_after = now() where id = ${pushId}`.execute(push.db);
    // … and an object whose upload never committed (a crash after streaming).
    await s3.client.send(
      new (await import('@aws-sdk/client-s3')).PutObjectCommand({
        Bucket: s3.bucket,
        Key: 'files/crashed/x',
        Body: 'x',
      }),
    );
    await sql`insert into upload_intent (object_key, push_id, created_at)
              values ('files/crashed/x', gen_random_uuid(), now() - interval '7 hours')`.execute(push.db);
    const worker = await startTestWorker(push, { PUSH_SWEEP_INTERVAL_SECONDS: '1' });
    try {
      await waitFor(
        async () =>
          (await s3.listKeys(`files/${pushId}/`)).length === 0 &&
          (await s3.listKeys('files/crashed/')).length === 0 &&
          // the sweep deletes objects first, then commits the intents' removal
          (await rowCounts(push.db)).intents === '0',
        10_000,
      );
      expect((await rowCounts(push.db)).intents).toBe('0');
    } finally {
      await worker.close();
    }
  });
});

describe('file pushes with the object store down (a private s3rver)', () => {
  it('answers 503 to a create, leaving no push row and no object; stays ready, reporting the store down', async () => {
    const privateS3 = await startS3();
    const target = await startPush(auth, {
      env: { ...privateS3.env, PUSH_S3_ENDPOINT: privateS3.endpoint },
    });
    try {
      await privateS3.stop();
      const res = await upload(target, [{ name: 'a.bin', data: randomBytes(100_000) }], {}, token);
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('dependency_unavailable');
      expect((await rowCounts(target.db)).pushes).toBe('0');
      // Text pushes and everything else still work: the process stays in the Service; the store's
      // state is in the body and in push_dependency_up (the alert's source).
      const ready = await request(target.url).get('/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body.checks.object_store).toBe('unavailable');
      expect((await request(target.metricsUrl).get('/metrics')).text).toContain(
        'push_dependency_up{dependency="object_store"} 0',
      );
      await privateS3.start();
      expect(await privateS3.listKeys()).toEqual([]);
      expect((await request(target.url).get('/readyz')).body.checks.object_store).toBe('ok');
      expect((await request(target.metricsUrl).get('/metrics')).text).toContain(
        'push_dependency_up{dependency="object_store"} 1',
      );
    } finally {
      await target.stop();
      await privateS3.close();
    }
  });
});

describe('a client that goes away mid-upload', () => {
  it('leaves no object, no intent and no push, and the service goes on', async () => {
    const target = await startPush(auth, {
      env: { ...s3.env, PUSH_S3_PART_SIZE_MIB: '5', PUSH_FILES_MAX_FILE_BYTES: String(64 * 1024 * 1024) },
    });
    try {
      const keysBefore = await s3.listKeys();
      const boundary = 'x-boundary-x';
      const url = new URL(target.url);
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: '/api/v2/pushes',
        headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      req.on('error', () => {});
      req.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="push[files][]"; filename="big.bin"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      );
      // More than two 5 MiB parts, so the store upload is a multipart one when the client leaves.
      for (let i = 0; i < 12; i++) req.write(randomBytes(1024 * 1024));
      await waitFor(
        async () =>
          Number(
            (await sql<{ n: string }>`select count(*) as n from upload_intent`.execute(target.db)).rows[0]!.n,
          ) === 1,
        5000,
      );
      await sleep(300);
      req.destroy();
      await waitFor(async () => (await rowCounts(target.db)).intents === '0', 10_000);
      expect(await rowCounts(target.db)).toEqual({ pushes: '0', files: '0', intents: '0' });
      expect(await s3.listKeys()).toEqual(keysBefore);
      const after = await upload(target, [{ name: 'ok.txt', data: Buffer.from('ok') }], {}, token);
      expect(after.status).toBe(201);
    } finally {
      await target.stop();
    }
  });
});
