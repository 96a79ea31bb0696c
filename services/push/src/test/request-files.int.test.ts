import { createHash, randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { sql } from 'kysely';
import { type TestAuth, startAuth } from '@secret-push/auth/testing';
import { type LocalS3, startS3 } from '@secret-push/testing';
import { createUserTokenService } from '../domain/user-tokens';
import { createUserRepository } from '../storage/user.repository';
import { type TestPush, startPush, startTestWorker } from '../testing';
import { bearer, waitFor } from './support/helpers';

// Files in requests (issue 28) against a real S3-compatible server (a private s3rver), a real
// auth service, PostgreSQL and Redis: the responder's answer files (anonymous, although file
// pushes need authentication here), the total cap of a request, the requester's attachments and
// their download count, the purge on close, and the Password Pusher CLI's multipart create.
jest.setTimeout(60_000);

const MIB = 1024 * 1024;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface FileIn {
  name: string;
  data: Buffer;
  type?: string;
}

let auth: TestAuth;
let s3: LocalS3;
let push: TestPush;
let token: string;

beforeAll(async () => {
  auth = await startAuth();
  s3 = await startS3();
  push = await startPush(auth, {
    env: {
      ...s3.env,
      PUSH_FILES_MAX_FILE_BYTES: String(2 * MIB),
      PUSH_FILES_MAX_TOTAL_BYTES: String(8 * MIB),
      // Smaller than the push total: this is the bound of an answer's (and attachments') files.
      PUSH_REQUESTS_MAX_TOTAL_FILE_BYTES: String(3 * MIB),
    },
  });
  token = await auth.token(await auth.createClient('pushes:read pushes:write'));
});
afterAll(async () => {
  await push.stop();
  await s3.close();
  await auth.stop();
});

/** POST /requests as JSON; the RequestView of the 201. */
async function createRequest(fields: Record<string, unknown>): Promise<RequestView> {
  const res = await request(push.url)
    .post('/api/v2/requests')
    .set(bearer(token))
    .send({ request: { request: 'Please send the key', ...fields } });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as RequestView;
}

/** POST /requests as multipart, with `request[files][]` parts. */
function createWithFiles(fields: Record<string, string>, files: FileIn[]) {
  const req = request(push.url).post('/api/v2/requests').set(bearer(token));
  for (const [k, v] of Object.entries({ request: 'Please send the key', ...fields })) {
    void req.field(`request[${k}]`, v);
  }
  for (const f of files) {
    void req.attach('request[files][]', f.data, {
      filename: f.name,
      contentType: f.type ?? 'application/pdf',
    });
  }
  return req;
}

/** POST /requests/:t/respond as multipart, anonymously, with `response[files][]` parts. */
function respondWithFiles(urlToken: string, files: FileIn[], fields: Record<string, string> = {}) {
  const req = request(push.url).post(`/api/v2/requests/${urlToken}/respond`);
  for (const [k, v] of Object.entries(fields)) void req.field(`response[${k}]`, v);
  for (const f of files) {
    void req.attach('response[files][]', f.data, {
      filename: f.name,
      contentType: f.type ?? 'application/octet-stream',
    });
  }
  return req;
}

/** GETs a path or an absolute URL of this server, with the body as a Buffer. */
function download(pathOrUrl: string) {
  const u = new URL(pathOrUrl, push.url);
  return request(`${u.protocol}//${u.host}`)
    .get(u.pathname + u.search)
    .buffer(true)
    .parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });
}

interface RequestView {
  url_token: string;
  html_url: string;
  state: string;
  files: { id: string; filename: string; content_type: string; size: number }[];
  answer: null | { url_token: string; files: number };
}

const ownerView = async (urlToken: string) => {
  const res = await request(push.url).get(`/api/v2/requests/${urlToken}`).set(bearer(token));
  expect(res.status).toBe(200);
  return res.body as RequestView;
};

const requestIdOf = async (urlToken: string) =>
  (
    await sql<{ id: string }>`
      select id from request where token_hash = sha256(convert_to(${urlToken}, 'UTF8'))`.execute(push.db)
  ).rows[0]!.id;

const counts = async () =>
  (
    await sql<{ pushes: string; push_files: string; request_files: string; intents: string }>`
      select (select count(*) from push) as pushes, (select count(*) from push_file) as push_files,
             (select count(*) from request_file) as request_files,
             (select count(*) from upload_intent) as intents`.execute(push.db)
  ).rows[0]!;

/** Every object in the bucket settles back to `before` (a refused upload's clean-up ends before its answer). */
const keysSettle = async (before: string[]) => {
  await waitFor(async () => (await s3.listKeys()).length === before.length, 3000);
  expect((await s3.listKeys()).sort()).toEqual([...before].sort());
};

describe('answer files', () => {
  it('stores an anonymous answer of two files as the answer push, which the owner downloads byte for byte', async () => {
    const created = await createRequest({ response_file_attachments: true, expire_after_views: 2 });
    const files = [
      { name: 'id_ed25519', data: randomBytes(1_200_000) },
      { name: 'notes.txt', data: Buffer.from('the passphrase is in the vault\n'), type: 'text/plain' },
    ];
    // Anonymous, although this instance's file pushes need authentication; no payload with files.
    const anonymousFilePush = await request(push.url)
      .post('/api/v2/pushes')
      .attach('push[files][]', Buffer.from('x'), 'x.txt');
    expect(anonymousFilePush.status).toBe(401);
    const res = await respondWithFiles(created.url_token, files);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ state: 'answered', answered_at: expect.any(String) });

    const view = await ownerView(created.url_token);
    expect(view.state).toBe('answered');
    expect(view.answer).toMatchObject({ files: 2 });
    const answerToken = view.answer!.url_token;
    const answerId = (
      await sql<{ answer_push_id: string }>`
        select answer_push_id from request where id = ${await requestIdOf(created.url_token)}`.execute(
        push.db,
      )
    ).rows[0]!.answer_push_id;
    // Stored encrypted under the answer push, like a file push's files.
    const keys = await s3.listKeys(`files/${answerId}/`);
    expect(keys).toHaveLength(2);

    const retrieved = await request(push.url).get(`/api/v2/pushes/${answerToken}`).set(bearer(token));
    expect(retrieved.status).toBe(200);
    expect(retrieved.body.kind).toBe('file');
    const out = retrieved.body.files as { filename: string; size: number; url: string }[];
    expect(out.map((f) => [f.filename, f.size])).toEqual([
      ['id_ed25519', 1_200_000],
      ['notes.txt', files[1]!.data.length],
    ]);
    for (const [i, f] of out.entries()) {
      const got = await download(f.url);
      expect(got.status).toBe(200);
      expect(sha256(got.body as Buffer)).toBe(sha256(files[i]!.data));
    }
  });

  it('refuses files (422) where the request did not ask for them, leaving nothing behind', async () => {
    const created = await createRequest({});
    const before = await counts();
    const keysBefore = await s3.listKeys();
    const res = await respondWithFiles(created.url_token, [{ name: 'a.bin', data: randomBytes(300_000) }], {
      payload: 'and a file',
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.fields).toEqual({ files: [expect.stringMatching(/does not accept files/)] });
    await keysSettle(keysBefore);
    expect(await counts()).toEqual(before);
    expect((await ownerView(created.url_token)).state).toBe('open');
  });

  it('holds the files of one answer to PUSH_REQUESTS_MAX_TOTAL_FILE_BYTES (413), leaving nothing behind', async () => {
    const created = await createRequest({ response_file_attachments: true });
    const before = await counts();
    const keysBefore = await s3.listKeys();
    const two = [0, 1].map((i) => ({ name: `part${i}.bin`, data: randomBytes(2 * MIB - 100) }));
    const res = await respondWithFiles(created.url_token, two);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      code: 'payload_too_large',
      error: expect.stringMatching(/together exceed 3 MiB/),
    });
    await keysSettle(keysBefore);
    expect(await counts()).toEqual(before);
    expect((await ownerView(created.url_token)).state).toBe('open');
  });

  it('takes one of two parallel file answers (201) and refuses the other (409), whose objects are deleted', async () => {
    const created = await createRequest({ response_file_attachments: true });
    const keysBefore = await s3.listKeys();
    const answers = await Promise.all(
      ['first', 'second'].map((who) =>
        respondWithFiles(created.url_token, [
          { name: `${who}-1.bin`, data: randomBytes(700_000) },
          { name: `${who}-2.bin`, data: randomBytes(500_000) },
        ]),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.status === 409)!.body.code).toBe('already_answered');
    const requestId = await requestIdOf(created.url_token);
    const { answer_push_id: answerId } = (
      await sql<{
        answer_push_id: string;
      }>`select answer_push_id from request where id = ${requestId}`.execute(push.db)
    ).rows[0]!;
    // Only the answer push's two objects were added; the refused answer's are gone, its intents too.
    await waitFor(async () => (await s3.listKeys()).length === keysBefore.length + 2, 3000);
    expect((await s3.listKeys(`files/${answerId}/`)).length).toBe(2);
    expect((await counts()).intents).toBe('0');
  });
});

describe('requester attachments', () => {
  const template = { name: 'template.pdf', data: randomBytes(600_000), type: 'application/pdf' };

  it('lists them in both views and lets the responder download each as many times as allowed (then 410)', async () => {
    const res = await createWithFiles({ attachment_downloads: '2' }, [template]);
    expect(res.status).toBe(201);
    const created = res.body as RequestView;
    expect(created.files).toEqual([
      { id: expect.any(String), filename: 'template.pdf', content_type: 'application/pdf', size: 600_000 },
    ]);
    const fileId = created.files[0]!.id;
    const responder = async () =>
      (await request(push.url).get(`/api/v2/requests/${created.url_token}/respond`)).body as {
        files: { id: string; downloads_left: number }[];
      };
    expect((await responder()).files).toEqual([
      {
        id: fileId,
        filename: 'template.pdf',
        content_type: 'application/pdf',
        size: 600_000,
        downloads_left: 2,
      },
    ]);

    const path = `/api/v2/requests/${created.url_token}/files/${fileId}`;
    for (let i = 0; i < 2; i++) {
      const got = await download(path);
      expect(got.status).toBe(200);
      expect(sha256(got.body as Buffer)).toBe(sha256(template.data));
      expect(got.headers['content-type']).toBe('application/octet-stream');
      expect(got.headers['content-disposition']).toBe('attachment; filename=template.pdf');
      expect(got.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
      expect(got.headers['cache-control']).toBe('no-store');
      expect(got.headers['x-content-type-options']).toBe('nosniff');
    }
    const spent = await request(push.url).get(path);
    expect(spent.status).toBe(410);
    expect(spent.body.code).toBe('gone');
    expect((await responder()).files[0]!.downloads_left).toBe(0);
    const unknown = await request(push.url).get(
      `/api/v2/requests/${created.url_token}/files/${randomUUID()}`,
    );
    expect(unknown.status).toBe(404);

    const audit = await request(push.url)
      .get(`/api/v2/requests/${created.url_token}/audit`)
      .set(bearer(token));
    const kinds = (audit.body.logs as { kind: string }[]).map((l) => l.kind);
    expect(kinds.filter((k) => k === 'attachment_download')).toHaveLength(2);
  });

  it('counts parallel downloads atomically: never more than allowed', async () => {
    const res = await createWithFiles({ attachment_downloads: '3' }, [template]);
    const created = res.body as RequestView;
    const path = `/api/v2/requests/${created.url_token}/files/${created.files[0]!.id}`;
    const got = await Promise.all(Array.from({ length: 6 }, () => download(path)));
    expect(got.map((g) => g.status).sort()).toEqual([200, 200, 200, 410, 410, 410]);
  });

  it('purges them when the owner closes the request (objects and rows gone, downloads 404)', async () => {
    const res = await createWithFiles({}, [
      template,
      { name: 'b.txt', data: Buffer.from('b'), type: 'text/plain' },
    ]);
    expect(res.status).toBe(201);
    const created = res.body as RequestView;
    const requestId = await requestIdOf(created.url_token);
    expect(await s3.listKeys(`files/${requestId}/`)).toHaveLength(2);
    const closed = await request(push.url).delete(`/api/v2/requests/${created.url_token}`).set(bearer(token));
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ state: 'closed', closed_reason: 'owner', files: [] });
    await waitFor(async () => (await s3.listKeys(`files/${requestId}/`)).length === 0, 5000);
    const { rows } = await sql<{ n: string; purged: boolean }>`
      select (select count(*) from request_file where request_id = ${requestId}) as n,
             (select files_purged from request where id = ${requestId}) as purged`.execute(push.db);
    expect(rows[0]).toEqual({ n: '0', purged: true });
    const gone = await request(push.url).get(
      `/api/v2/requests/${created.url_token}/files/${created.files[0]!.id}`,
    );
    expect(gone.status).toBe(404);
  });

  it('leaves attachments that a close made due to the worker when they were not purged at once', async () => {
    const res = await createWithFiles({}, [template]);
    const requestId = await requestIdOf((res.body as RequestView).url_token);
    // What closing by time does (the worker's close statement): the files become due.
    await sql`update request set files_purge_after = now() where id = ${requestId}`.execute(push.db);
    const worker = await startTestWorker(push);
    try {
      await waitFor(async () => (await s3.listKeys(`files/${requestId}/`)).length === 0, 10_000);
      await waitFor(
        async () =>
          (
            await sql<{
              purged: boolean;
            }>`select files_purged as purged from request where id = ${requestId}`.execute(push.db)
          ).rows[0]!.purged,
        5000,
      );
    } finally {
      await worker.close();
    }
  });

  it('holds attachments to the instance file limits and the request total (413), leaving nothing behind', async () => {
    const before = await counts();
    const keysBefore = await s3.listKeys();
    const res = await createWithFiles(
      {},
      [0, 1].map((i) => ({ name: `big${i}.bin`, data: randomBytes(2 * MIB - 1) })),
    );
    expect(res.status).toBe(413);
    await keysSettle(keysBefore);
    const after = await counts();
    expect(after.request_files).toBe(before.request_files);
    expect(after.intents).toBe(before.intents);
  });
});

describe('the Password Pusher CLI (pwpush request --attach-file)', () => {
  /**
   * The body python-requests builds for `requests.post(url, data=flat, files={'request[files][]':
   * fh})`: the flattened `request[…]` fields first (Python booleans as `True`/`False`, numbers
   * as text), then the file part named by the file's base name, without a Content-Type.
   */
  function pwpushMultipart(fields: Record<string, string>, file: { name: string; data: Buffer }) {
    const boundary = randomUUID().replaceAll('-', '');
    const parts: Buffer[] = [];
    for (const [name, value] of Object.entries(fields)) {
      parts.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
      );
    }
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="request[files][]"; filename="${file.name}"\r\n\r\n`,
      ),
      file.data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    );
    return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
  }

  it('creates the request with its attachment (201) and prints the preview url', async () => {
    const users = createUserTokenService({ store: createUserRepository(push.db) });
    const user = await users.upsertUser({
      issuer: 'https://idp.example',
      subject: `pwpush-request-${randomBytes(4).toString('hex')}`,
      email: 'requester@example.org',
      emailVerified: true,
    });
    const personal = (
      await users.createToken(user.id, { name: 'pwpush cli', scopes: ['pushes:read', 'pushes:write'] })
    ).value;
    const headers = {
      Authorization: `Bearer ${personal}`,
      'X-User-Email': 'requester@example.org',
      'X-User-Token': personal,
      'User-Agent': 'pwpush-cli/0.17.0',
    };
    const file = { name: 'template.pdf', data: randomBytes(50_000) };
    // `pwpush request "Send me the signed contract" --attach-file ./template.pdf --days 7 --views 2
    //  --note ticket-42 --name contract --deletable --no-retrieval-step`
    const { body, contentType } = pwpushMultipart(
      {
        'request[request]': 'Send me the signed contract',
        'request[expire_after_views]': '2',
        'request[note]': 'ticket-42',
        'request[name]': 'contract',
        'request[deletable_by_viewer]': 'True',
        'request[retrieval_step]': 'False',
        'request[expire_after_duration]': '12',
      },
      file,
    );
    const created = await request(push.url)
      .post('/api/v2/requests')
      .set(headers)
      .set('Content-Type', contentType)
      .send(body);
    expect(created.status).toBe(201);
    const urlToken = created.body.url_token as string;
    expect(created.body).toMatchObject({
      name: 'contract',
      note: 'ticket-42',
      expire_after_views: 2,
      deletable_by_viewer: true,
      retrieval_step: false,
      expire_after_duration: 12,
      // The CLI's part has no Content-Type: RFC 7578's default, text/plain, as for a push's files.
      files: [{ filename: 'template.pdf', content_type: 'text/plain', size: 50_000 }],
    });
    const preview = await request(push.url).get(`/api/v2/requests/${urlToken}/preview`).set(headers);
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({ url: created.body.html_url });
    expect(preview.body.url).toMatch(new RegExp(`^https?://[^/]+/respond/${urlToken}$`));
    const got = await download(`/api/v2/requests/${urlToken}/files/${created.body.files[0].id as string}`);
    expect(got.status).toBe(200);
    expect(sha256(got.body as Buffer)).toBe(sha256(file.data));
  });
});
