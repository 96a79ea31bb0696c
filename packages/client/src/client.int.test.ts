import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ClientCredentials, TestAuth } from '@secret-push/auth/testing';
import { type TestPush, type TestStack, startStack } from '@secret-push/push/testing';
import {
  InsecureUrlError,
  NotFoundError,
  PushExpiredError,
  SecretPushError,
  UnauthorizedError,
  createClient,
  type OwnedPush,
  type SecretPushClient,
} from './index.ts';

// The SDK against the real services in-process: an auth service (access tokens live 6 s, so a
// token expires during the run), a push API with a private s3rver for files, PostgreSQL and Redis.
// Test files of this package run as ES modules, where Jest has no `jest` global: timeouts are
// given per hook and test.
const TIMEOUT = 60_000;

const TOKEN_TTL_SECONDS = 6;

let stack: TestStack;
let auth: TestAuth;
let push: TestPush;
let credentials: ClientCredentials;
let dir: string;

beforeAll(async () => {
  stack = await startStack({ authEnv: { AUTH_ACCESS_TOKEN_TTL: String(TOKEN_TTL_SECONDS) } });
  ({ auth, push, credentials } = stack);
  dir = mkdtempSync(join(tmpdir(), 'sptest-client-'));
}, TIMEOUT);
afterAll(async () => {
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, TIMEOUT);

/** A fetch that counts the requests to the token endpoint, and can change requests on the wire. */
function countingFetch(rewrite?: (url: string, init: RequestInit) => RequestInit) {
  const counts = { token: 0, api: 0 };
  const wrapped: typeof fetch = async (input, init = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.endsWith('/connect/token')) counts.token++;
    else counts.api++;
    return fetch(input, rewrite ? rewrite(url, init) : init);
  };
  return { counts, fetch: wrapped };
}

const tokenAuth = () => ({
  clientId: credentials.client_id,
  clientSecret: credentials.client_secret,
  tokenUrl: `${auth.issuer}/connect/token`,
});

const newClient = (f?: typeof fetch): SecretPushClient =>
  createClient({ baseUrl: push.url, auth: tokenAuth(), ...(f ? { fetch: f } : {}) });

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

describe('every call against the real services', () => {
  test(
    'version needs no token',
    async () => {
      const anonymous = createClient({ baseUrl: push.url });
      const v = await anonymous.version();
      expect(v.api_version).toBe('2.1');
      expect(v.features.pushes.file_attachments.enabled).toBe(true);
    },
    TIMEOUT,
  );

  test(
    'create, retrieve, preview, audit and expire a text push',
    async () => {
      const client = newClient();
      const created = await client.create({ payload: 'correct horse', expire_after_views: 3, name: 'n1' });
      expect(created.kind).toBe('text');
      expect(created.name).toBe('n1');
      expect(created).not.toHaveProperty('payload');

      const preview = await client.preview(created.url_token);
      expect(preview.url).toBe(created.html_url);

      const retrieved = await client.retrieve(created.url_token);
      expect(retrieved.payload).toBe('correct horse');
      expect(retrieved.views_remaining).toBe(2);

      const log = await client.audit(created.url_token);
      expect(log.logs.map((e) => e.kind)).toEqual(['creation', 'view']);
      const entries = [];
      for await (const entry of client.auditEntries(created.url_token)) entries.push(entry.kind);
      expect(entries).toEqual(['creation', 'view']);

      const expired = await client.expire(created.url_token);
      expect(expired.expired).toBe(true);
      expect(expired.deleted).toBe(true);

      await expect(client.retrieve(created.url_token)).rejects.toBeInstanceOf(PushExpiredError);
      const raw = await client.retrieve(created.url_token, { expired: 'return' });
      expect(raw).toMatchObject({ expired: true, payload: null, files: [] });
    },
    TIMEOUT,
  );

  test(
    'url and qr pushes; the last view returns the payload',
    async () => {
      const client = newClient();
      const url = await client.create({
        kind: 'url',
        payload: 'https://example.com/x',
        expire_after_views: 1,
      });
      expect(url.kind).toBe('url');
      const got = await client.retrieve(url.url_token);
      expect(got).toMatchObject({ payload: 'https://example.com/x', expired: true, views_remaining: 0 });
      const qr = await client.create({ kind: 'qr', payload: 'WIFI:S:net;;' });
      expect((await client.retrieve(qr.url_token)).payload).toBe('WIFI:S:net;;');
    },
    TIMEOUT,
  );

  test(
    'a reveal repeated with the same reveal id returns the same secret and spends one view',
    async () => {
      const client = newClient();
      const created = await client.create({
        payload: 'said once',
        passphrase: 'open sesame',
        expire_after_views: 3,
      });
      const revealId = randomUUID();
      const first = await client.retrieve(created.url_token, { passphrase: 'open sesame', revealId });
      const again = await client.retrieve(created.url_token, { passphrase: 'open sesame', revealId });
      expect([first.payload, again.payload]).toEqual(['said once', 'said once']);
      expect(again.views_remaining).toBe(first.views_remaining);
      expect(first.views_remaining).toBe(2);
      // Each call without an id of its own gets a new one: another view.
      const other = await client.retrieve(created.url_token, { passphrase: 'open sesame' });
      expect(other.views_remaining).toBe(1);
      const log = await client.audit(created.url_token);
      expect(log.logs.map((e) => e.kind)).toEqual(['creation', 'view', 'view']);
    },
    TIMEOUT,
  );

  test(
    'a passphrase is sent in the body of POST …/reveal, never in the URL',
    async () => {
      const seen: string[] = [];
      const { fetch: f } = countingFetch((url, init) => {
        seen.push(`${init.method ?? 'GET'} ${url}`);
        return init;
      });
      const client = newClient(f);
      const created = await client.create({ payload: 'behind a passphrase', passphrase: 'open sesame' });
      await expect(client.retrieve(created.url_token)).rejects.toMatchObject({
        status: 401,
        code: 'passphrase_required',
        kind: 'passphrase_required',
      });
      const got = await client.retrieve(created.url_token, { passphrase: 'open sesame' });
      expect(got.payload).toBe('behind a passphrase');
      expect(seen.some((s) => s.includes('sesame'))).toBe(false);
      expect(seen).toContain(`POST ${push.url}/api/v2/pushes/${created.url_token}/reveal`);
    },
    TIMEOUT,
  );

  test(
    'typed errors: not found, unauthorized, validation',
    async () => {
      const client = newClient();
      const notFound = await client.retrieve('AAAAAAAAAAAAAAAAAAAAAA').catch((e: unknown) => e);
      expect(notFound).toBeInstanceOf(NotFoundError);
      expect(notFound).toMatchObject({ status: 404, code: 'not_found', kind: 'not_found' });
      expect((notFound as SecretPushError).requestId).toMatch(/.+/);

      const anonymous = createClient({ baseUrl: push.url });
      const unauthorized = await (async () => {
        for await (const p of anonymous.active()) return p;
        return undefined;
      })().catch((e: unknown) => e);
      expect(unauthorized).toBeInstanceOf(UnauthorizedError);
      expect(unauthorized).toMatchObject({ status: 401, code: 'unauthorized' });

      const invalid = await client
        .create({ payload: 'x', expire_after_views: 1000 })
        .catch((e: unknown) => e);
      expect(invalid).toMatchObject({ status: 422, kind: 'validation' });
      expect((invalid as SecretPushError).fields).toHaveProperty('expire_after_views');
    },
    TIMEOUT,
  );

  test(
    'a static token works too',
    async () => {
      const token = await auth.token(credentials);
      const client = createClient({ baseUrl: push.url, auth: { token } });
      const created = await client.create({ payload: 'static' });
      expect((await client.preview(created.url_token)).url).toBe(created.html_url);
    },
    TIMEOUT,
  );
});

describe('lists', () => {
  test(
    'the active list is iterated across pages; the expired list too',
    async () => {
      const other = await auth.createClient('pushes:read pushes:write', 'lister');
      const client = createClient({
        baseUrl: push.url,
        auth: {
          clientId: other.client_id,
          clientSecret: other.client_secret,
          tokenUrl: `${auth.issuer}/connect/token`,
        },
      });
      const created: OwnedPush[] = [];
      for (let i = 0; i < 53; i++) created.push(await client.create({ payload: `p${i}`, name: `p${i}` }));
      await client.expire(created[0]!.url_token);

      const pages: number[] = [];
      for await (const page of client.active().pages()) pages.push(page.length);
      expect(pages).toEqual([50, 2]);

      const tokens: string[] = [];
      for await (const p of client.active()) tokens.push(p.url_token);
      expect(tokens).toHaveLength(52);
      expect(new Set(tokens)).toEqual(new Set(created.slice(1).map((p) => p.url_token)));

      const expired: string[] = [];
      for await (const p of client.expired()) expired.push(p.url_token);
      expect(expired).toEqual([created[0]!.url_token]);
    },
    TIMEOUT,
  );
});

describe('files', () => {
  test(
    'a file pushed from a path downloads with the same SHA-256',
    async () => {
      const data = randomBytes(3 * 1024 * 1024 + 17);
      const path = join(dir, 'secret.bin');
      writeFileSync(path, data);
      const client = newClient();
      const progress: number[] = [];
      const created = await client.create(
        { files: [{ path, contentType: 'application/octet-stream' }], payload: 'see the file' },
        { onProgress: (n) => progress.push(n) },
      );
      expect(created.kind).toBe('file');
      expect(progress.length).toBeGreaterThan(10);
      expect(progress.at(-1)).toBeGreaterThan(data.length);

      const got = await client.retrieve(created.url_token);
      expect(got.payload).toBe('see the file');
      expect(got.files).toHaveLength(1);
      expect(got.files[0]).toMatchObject({ filename: 'secret.bin', size: data.length });

      const received: number[] = [];
      const download = await client.downloadNode(got.files[0]!, { onProgress: (n) => received.push(n) });
      expect(download.filename).toBe('secret.bin');
      const bytes = await readAll(download.body);
      expect(sha256(bytes)).toBe(sha256(data));
      expect(received.at(-1)).toBe(data.length);
      expect(download.size).toBe(data.length);

      // Through node:http (no fetch of the caller's own): a link not good any more is a typed error;
      // with a fetch of the caller's own, the same through it.
      // A character changed inside the token: its last character also carries unused bits, so
      // changing that one may name the same token (base64url: 43 characters for 32 bytes).
      const url = got.files[0]!.url;
      const forged = `${url.slice(0, -6)}${url.at(-6) === 'A' ? 'B' : 'A'}${url.slice(-5)}`;
      await expect(client.downloadNode(forged)).rejects.toBeInstanceOf(NotFoundError);
      const { counts, fetch: f } = countingFetch();
      await expect(newClient(f).downloadNode(forged)).rejects.toBeInstanceOf(NotFoundError);
      expect(counts.api).toBe(1);
      await expect(client.downloadNode('https://elsewhere.example/files/x')).rejects.toThrow(TypeError);
    },
    TIMEOUT,
  );

  test(
    'files from a Blob and from a Readable; downloads as web streams',
    async () => {
      const blobData = randomBytes(100_000);
      const streamData = randomBytes(200_000);
      const client = newClient();
      const created = await client.create({
        files: [
          new File([blobData], 'a.bin', { type: 'application/octet-stream' }),
          {
            stream: Readable.from([streamData.subarray(0, 70_000), streamData.subarray(70_000)]),
            filename: 'b.bin',
          },
        ],
      });
      const got = await client.retrieve(created.url_token);
      expect(got.files.map((f) => f.filename)).toEqual(['a.bin', 'b.bin']);
      const a = await client.download(got.files[0]!);
      expect(sha256(await readAll(a.body))).toBe(sha256(blobData));
      const b = await client.download(got.files[1]!.url);
      expect(sha256(await readAll(b.body))).toBe(sha256(streamData));
    },
    TIMEOUT,
  );
});

describe('the token cache', () => {
  test(
    '100 concurrent calls with a cold cache make exactly one token request',
    async () => {
      const created = await newClient().create({ payload: 'shared' });
      const { counts, fetch: f } = countingFetch();
      const client = newClient(f);
      const previews = await Promise.all(
        Array.from({ length: 100 }, () => client.preview(created.url_token)),
      );
      expect(previews.every((p) => p.url === created.html_url)).toBe(true);
      expect(counts).toEqual({ token: 1, api: 100 });
    },
    TIMEOUT,
  );

  test(
    'a token that expires during the run is replaced',
    async () => {
      const { counts, fetch: f } = countingFetch();
      const client = newClient(f);
      const created = await client.create({ payload: 'long run' });
      expect(counts.token).toBe(1);
      await new Promise((r) => setTimeout(r, TOKEN_TTL_SECONDS * 1000));
      expect((await client.preview(created.url_token)).url).toBe(created.html_url);
      for await (const p of client.active()) expect(p).toHaveProperty('url_token');
      expect(counts.token).toBe(2);
    },
    TIMEOUT,
  );

  test(
    'a 401 invalid_token makes one refresh and one repeat of the call',
    async () => {
      let spoil = true;
      const { counts, fetch: f } = countingFetch((url, init) => {
        if (!spoil || url.endsWith('/connect/token')) return init;
        spoil = false;
        // The first API call carries a well-formed token the auth service never issued.
        const headers = new Headers(init.headers);
        headers.set('authorization', `Bearer ${'x'.repeat(43)}`);
        return { ...init, headers };
      });
      const client = newClient(f);
      const created = await client.create({ payload: 'after a refresh' });
      expect(created.kind).toBe('text');
      expect(counts).toEqual({ token: 2, api: 2 });
    },
    TIMEOUT,
  );

  test(
    'accessToken gives the cached token with its expiry and scope; fresh fetches a new one',
    async () => {
      const { counts, fetch: f } = countingFetch();
      const client = newClient(f);
      const before = Date.now();
      const first = await client.accessToken();
      await client.preview((await client.create({ payload: 'token reuse' })).url_token);
      const again = await client.accessToken();
      expect(again).toEqual(first);
      expect(counts.token).toBe(1);
      expect(first.scope).toBe('pushes:read pushes:write');
      expect(first.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + TOKEN_TTL_SECONDS * 1000 - 1000);
      expect(first.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + TOKEN_TTL_SECONDS * 1000);
      const fresh = await client.accessToken({ fresh: true });
      expect(fresh.token).not.toBe(first.token);
      expect(counts.token).toBe(2);
      // The new token is the one the next call sends.
      expect((await client.active().pages()[Symbol.asyncIterator]().next()).done).toBe(false);
      expect(counts.token).toBe(2);

      const stat = createClient({ baseUrl: push.url, auth: { token: 'given' } });
      expect(await stat.accessToken()).toEqual({ token: 'given' });
      const anonymous = createClient({ baseUrl: push.url });
      await expect(anonymous.accessToken()).rejects.toThrow(TypeError);
    },
    TIMEOUT,
  );

  test(
    'a create is retried through the 503s of an auth service restart, and makes one push',
    async () => {
      // A token the push API has never seen: it must ask the auth service about it, which is down.
      // Client credentials, not a fixed token: this stack's tokens live 6 s, which a slow restart
      // under load outlasts; the SDK then renews it from the restarted service, as a client would.
      const { counts, fetch: f } = countingFetch();
      const client = createClient({ baseUrl: push.url, auth: tokenAuth(), fetch: f });
      await client.accessToken();
      expect(counts.token).toBe(1);
      const name = `restart-${Date.now()}`;
      await auth.stopServer();
      const creating = client.create({ payload: 'through a restart', name });
      try {
        await new Promise((r) => setTimeout(r, 1000));
        // The first attempt has had its 503 (Retry-After: 5) by now.
        expect(counts.api).toBe(1);
      } finally {
        await auth.startServer();
      }
      const created = await creating;
      expect(created.name).toBe(name);
      // One repeat after the restart (more when the restart is slow under load): one push in all.
      expect(counts.api).toBeGreaterThanOrEqual(2);
      const mine: OwnedPush[] = [];
      for await (const p of client.active()) if (p.name === name) mine.push(p);
      expect(mine.map((p) => p.url_token)).toEqual([created.url_token]);
    },
    TIMEOUT,
  );

  test(
    'a bad client secret is an UnauthorizedError from the token endpoint',
    async () => {
      const client = createClient({ baseUrl: push.url, auth: { ...tokenAuth(), clientSecret: 'wrong' } });
      const err = await client.create({ payload: 'x' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UnauthorizedError);
      expect(err).toMatchObject({ status: 401, code: 'invalid_client' });
    },
    TIMEOUT,
  );
});

describe('plain http', () => {
  test(
    'an http:// URL off this machine is refused before anything is sent; allowInsecureHttp allows it',
    async () => {
      const sent: string[] = [];
      // What is meant for push.example.test goes to the real push service.
      const onLoopback = ((input: string | URL | Request, init?: RequestInit) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        sent.push(url.host);
        const real = new URL(push.url);
        url.protocol = real.protocol;
        url.host = real.host;
        return fetch(url, init);
      }) as typeof fetch;
      const remote = 'http://push.example.test';
      expect(() => createClient({ baseUrl: remote, fetch: onLoopback })).toThrow(InsecureUrlError);
      expect(() => createClient({ baseUrl: `${remote}/api/v2`, fetch: onLoopback })).toThrow(
        /^Refusing http:\/\/push\.example\.test: a plain http:\/\/ URL sends secrets unencrypted\. Use https:\/\/, or set allowInsecureHttp: true/,
      );
      expect(() =>
        createClient({
          baseUrl: push.url,
          auth: { ...tokenAuth(), tokenUrl: 'http://auth.example.test/connect/token' },
          fetch: onLoopback,
        }),
      ).toThrow(InsecureUrlError);
      expect(sent).toEqual([]);

      const allowed = createClient({ baseUrl: remote, fetch: onLoopback, allowInsecureHttp: true });
      expect((await allowed.version()).api_version).toMatch(/^2\./);
      expect(sent).toEqual(['push.example.test']);

      for (const url of [
        'https://push.example.test',
        'http://localhost:1',
        'http://app.localhost:1',
        'http://127.0.0.2:1',
        'http://[::1]:1',
      ]) {
        expect(() => createClient({ baseUrl: url })).not.toThrow();
      }
      for (const url of [
        'http://10.0.0.1',
        'http://localhost.example.test',
        'http://[::2]',
        'http://127.0.0.1.nip.io',
      ]) {
        expect(() => createClient({ baseUrl: url })).toThrow(InsecureUrlError);
      }
    },
    TIMEOUT,
  );
});
