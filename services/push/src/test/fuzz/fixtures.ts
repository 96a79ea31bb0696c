import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type ClientCredentials, type TestAuth, startAuth } from '@secret-push/auth/testing';
import { createLogger } from '@secret-push/logger';
import { type LocalS3, freePort, startS3 } from '@secret-push/testing';
import { createUserTokenService } from '../../domain/user-tokens';
import { createUserRepository } from '../../storage/user.repository';
import { type TestPush, startPush } from '../../testing';
import { type Part, multipartBody } from './bodies.arbitraries';
import { type PagePoolSizes, type PagePools, makePagePools } from './page-fixtures';
import { type RequestPoolSizes, type RequestPools, makeRequestPools } from './request-fixtures';
import type { PersonalTokens, PushTokens } from './headers.arbitraries';
import { type HttpRequest, type Sender, createSender } from './http-send';
import { type Snapshotter, folderObjectCounter, snapshotter } from './row-counts';
import { type SignedIn, signInAs, webSignIn } from './web-session';

/*
 * The services under test, in-process as the integration tests run them: a real auth service,
 * a private s3rver and a push API with file pushes (signing people in with that auth service, one
 * person signed in: web-session.ts), against their own databases and Redis
 * prefixes. The general rate limits (push create, shared by the API and the web app's create
 * form, retrieve and invalid tokens, the auth service's failed client-authentication throttle)
 * and the passphrase attempt limits are raised so that inputs reach validation instead of 429.
 * The invalid-token limit counts every refused credential per address (access tokens, personal
 * tokens, legacy pairs) and gates the lookups of uncached ones: it is set to its maximum,
 * 1,000,000 a minute, far above what a run sends. The audit cap is raised so that every audited
 * refusal is stored. X-Forwarded-For is believed from the loopback address, so the header is live
 * input. Set-up creates the tokens (the auth service's access tokens, and two users with personal
 * API tokens, made through the push service's domain service as sign-in will) and the pushes that
 * the generators mix in: one pool per group of endpoints (sized from the number of inputs), so
 * that deletes and reveals of one group cannot expire the pushes another group needs to reach its
 * handler.
 */

/** The passphrase of the protected pushes of the pools (generators send it, or a wrong one). */
export const RIGHT_PASSPHRASE = 'open sesame';

/** Log lines of level warn and above, in order, so a 5xx can be matched with what was logged. */
export interface LogTap {
  stream: Writable;
  mark(): number;
  since(mark: number): string[];
}

function logTap(): LogTap {
  const lines: string[] = [];
  let offset = 0;
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(line);
      // Only the recent past is ever asked for.
      if (lines.length > 2000) {
        offset += 1000;
        lines.splice(0, 1000);
      }
      cb();
    },
  });
  return {
    stream,
    mark: () => offset + lines.length,
    since: (mark) => lines.slice(Math.max(0, mark - offset)),
  };
}

export interface Pools {
  /** GET /pushes/:t and POST …/reveal: text, url and qr pushes, some protected, mixed owners. */
  retrieve: string[];
  /**
   * Preview and audit (read-only): mostly the main client's pushes, some of another client, some of
   * the user of the personal tokens, some anonymous.
   */
  read: string[];
  /** DELETE /pushes/:t: some not deletable by viewers, mixed owners. */
  remove: string[];
  /** GET /p/:t and /p/:t/r (no view used). */
  pageGet: string[];
  /** POST /p/:t (a view each): enough views that the pool outlives the run. */
  pagePost: string[];
  /** POST /p/:t/delete. */
  pageDelete: string[];
}

export interface AuthFixture {
  /** A client with both scopes (token requests, revocation of its own tokens). */
  clientA: ClientCredentials;
  /** A client allowed pushes:read only. */
  clientB: ClientCredentials;
  /** The push service's resource-server client (the only one introspection answers). */
  resourceServer: ClientCredentials;
  /** Access tokens of clientA (introspection and revocation targets; never used on the push API). */
  tokensA: string[];
}

export interface Fixture {
  auth: TestAuth;
  push: TestPush;
  s3: LocalS3;
  pushSend: Sender;
  authSend: Sender;
  tokens: PushTokens;
  pools: Pools;
  /** Download links (path and query) good for many downloads, and the ids of their files. */
  links: string[];
  /** Webhook endpoints (of the main client, another client and the personal token's user) and a delivery of each. */
  webhooks: { ids: string[]; deliveries: string[] };
  /** Requests (issue 28): for the responder's routes, the owners' reads, and closes. */
  requests: RequestPools;
  /** The anonymous pages of issue 29: archive links, receipts, the responder's requests. */
  pages: PagePools;
  /** A person signed in to the web app (session cookie and CSRF token). */
  signedIn: SignedIn;
  authFixture: AuthFixture;
  logs: { push: LogTap; auth: LogTap };
  snap: Snapshotter;
  stop(): Promise<void>;
}

/** Per-file limits small enough that "too large" inputs are cheap to send. */
export const FILE_LIMITS = { maxFileBytes: 64 * 1024, maxTotalBytes: 256 * 1024, maxCount: 10 };

export interface PoolSizes {
  retrieve: number;
  read: number;
  remove: number;
  pageGet: number;
  pagePost: number;
  pageDelete: number;
  filePushes: number;
  requests: RequestPoolSizes;
  pages: PagePoolSizes;
}

const json = (o: unknown): Buffer => Buffer.from(JSON.stringify(o));

/**
 * Two users and their personal API tokens, made as the API's user-token tests make them (the
 * domain service over the push database): one with a verified email (tokens with both scopes,
 * `pushes:read` only, and a revoked one), one whose email is not verified.
 */
async function personalTokens(push: TestPush): Promise<PersonalTokens> {
  const users = createUserTokenService({ store: createUserRepository(push.db) });
  const verified = await users.upsertUser({
    issuer: 'https://idp.fuzz.test',
    subject: 'fuzz-person',
    email: 'Fuzz.Person@Example.test',
    emailVerified: true,
  });
  const unverified = await users.upsertUser({
    issuer: 'https://idp.fuzz.test',
    subject: 'fuzz-unverified',
    email: 'unverified@example.test',
    emailVerified: false,
  });
  const both = ['pushes:read', 'pushes:write'];
  const revoked = await users.createToken(verified.id, { name: 'fuzz revoked', scopes: both });
  await users.revokeToken(verified.id, revoked.token.id);
  return {
    readWrite: (await users.createToken(verified.id, { name: 'fuzz read write', scopes: both })).value,
    readOnly: (await users.createToken(verified.id, { name: 'fuzz read', scopes: ['pushes:read'] })).value,
    revoked: revoked.value,
    email: verified.email!,
    unverified: (await users.createToken(unverified.id, { name: 'fuzz unverified', scopes: both })).value,
    unverifiedEmail: unverified.email!,
  };
}

export async function startFixture(sizes: PoolSizes, timeoutMs: number): Promise<Fixture> {
  const logs = { push: logTap(), auth: logTap() };
  // The web app signs people in with the auth service (web-session.ts): its address is known first.
  const pushPort = await freePort();
  const pushUrl = `http://127.0.0.1:${pushPort}`;
  const auth = await startAuth({
    env: {
      AUTH_THROTTLE_MAX_PER_CLIENT_IP: '100000',
      AUTH_THROTTLE_MAX_PER_IP: '1000000',
      AUTH_APP_URL: `${pushUrl}/`,
    },
    logger: createLogger({ name: 'auth', level: 'warn' }, logs.auth.stream),
  });
  const web = await webSignIn(auth, pushUrl);
  // The s3rver's folder is ours, so that the row-count snapshot can count its objects.
  const s3Directory = mkdtempSync(join(tmpdir(), 'sptest-fuzz-s3-'));
  const s3 = await startS3({ directory: s3Directory });
  const push = await startPush(auth, {
    env: {
      ...s3.env,
      ...web.env,
      PUSH_PORT: String(pushPort),
      PUSH_RATE_LIMIT_CREATE_PER_MINUTE: '1000000',
      PUSH_RATE_LIMIT_RETRIEVE_PER_MINUTE: '1000000',
      PUSH_RATE_LIMIT_INVALID_TOKENS_PER_MINUTE: '1000000',
      PUSH_PASSPHRASE_ATTEMPTS_PER_PUSH: '1000',
      PUSH_PASSPHRASE_ATTEMPTS_PER_IP: '100000',
      PUSH_MAX_AUDIT_ENTRIES: '1000000',
      PUSH_TRUSTED_PROXIES: '127.0.0.1,::1',
      PUSH_FILES_MAX_FILE_BYTES: String(FILE_LIMITS.maxFileBytes),
      PUSH_FILES_MAX_TOTAL_BYTES: String(FILE_LIMITS.maxTotalBytes),
      PUSH_FILES_MAX_COUNT: String(FILE_LIMITS.maxCount),
      PUSH_FILES_DOWNLOADS_PER_VIEW: '100',
      PUSH_FILES_GRACE_SECONDS: '86400',
      // Email on (nothing is sent: no worker runs), without the daily cap or the per-user limit.
      PUSH_SMTP_URL: 'smtp://127.0.0.1:9',
      PUSH_MAIL_FROM: 'fuzz <no-reply@example.org>',
      PUSH_EMAIL_DAILY_LIMIT: '1000000',
      PUSH_RATE_LIMIT_NOTIFY_EMAILS_PER_MINUTE: '1000000',
      // Requests: the answers' limits (per caller, per request) raised like the retrieve's.
      PUSH_RATE_LIMIT_ANSWERS_PER_MINUTE: '1000000',
      PUSH_RATE_LIMIT_ANSWERS_PER_REQUEST_PER_MINUTE: '1000000',
    },
    logger: createLogger({ name: 'push', level: 'warn' }, logs.push.stream),
  });
  const pushSend = createSender(push.url, timeoutMs);
  const signedIn = await signInAs(push.url, auth, web.user);
  const authSend = createSender(auth.issuer, timeoutMs);

  const main = await auth.createClient('pushes:read pushes:write', 'fuzz main');
  const other = await auth.createClient('pushes:read pushes:write', 'fuzz other');
  const tokens: PushTokens = {
    readWrite: await auth.token(main),
    readOnly: await auth.token(main, 'pushes:read'),
    writeOnly: await auth.token(main, 'pushes:write'),
    otherClient: await auth.token(other),
    personal: await personalTokens(push),
  };

  const ok = async (req: HttpRequest, expected: number) => {
    const res = await pushSend.send(req);
    if (res.status !== expected) {
      throw new Error(
        `set-up ${req.method} ${req.target}: ${res.status} ${res.body.toString().slice(0, 300)}`,
      );
    }
    return JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
  };
  const create = async (fields: Record<string, unknown>, token?: string): Promise<string> => {
    const headers: [string, string][] = [['Content-Type', 'application/json']];
    if (token) headers.push(['Authorization', `Bearer ${token}`]);
    const body = await ok(
      { method: 'POST', target: '/api/v2/pushes', headers, body: json({ push: fields }) },
      201,
    );
    return body.url_token as string;
  };
  // The generators count on the personal token and the legacy pair being valid: a broken set-up
  // would only show as fewer 200s.
  const personalHeaders: [string, string][][] = [
    [['Authorization', `Bearer ${tokens.personal.readWrite}`]],
    [
      ['X-User-Email', tokens.personal.email],
      ['X-User-Token', tokens.personal.readWrite],
    ],
  ];
  for (const headers of personalHeaders) {
    await ok({ method: 'GET', target: '/api/v2/pushes/active', headers }, 200);
  }
  /** `n` pushes of varied kinds and owners; every `protectEvery`-th has the passphrase. */
  const pool = async (
    n: number,
    options: { protectEvery?: number; views?: number; notDeletableEvery?: number; kinds?: string[] } = {},
  ): Promise<string[]> => {
    const out: string[] = [];
    const kinds = options.kinds ?? ['text', 'text', 'text', 'url', 'qr'];
    for (let i = 0; i < n; i++) {
      const kind = kinds[i % kinds.length]!;
      // Mostly the main client's; else another client's, a user's (personal token), or anonymous.
      const owner =
        i % 5 === 4
          ? undefined
          : i % 10 === 8
            ? tokens.personal.readWrite
            : i % 5 === 3
              ? tokens.otherClient
              : tokens.readWrite;
      out.push(
        await create(
          {
            kind,
            payload: kind === 'url' ? `https://example.test/${i}` : `pool secret ${i}`,
            expire_after_views: options.views ?? 100,
            expire_after_days: 90,
            name: `pool ${i}`,
            note: `note ${i}`,
            retrieval_step: i % 2 === 0,
            ...(options.protectEvery && i % options.protectEvery === 1
              ? { passphrase: RIGHT_PASSPHRASE }
              : {}),
            ...(options.notDeletableEvery && i % options.notDeletableEvery === 2
              ? { deletable_by_viewer: false }
              : {}),
          },
          owner,
        ),
      );
    }
    return out;
  };

  const pools: Pools = {
    retrieve: await pool(sizes.retrieve, { protectEvery: 5 }),
    read: await pool(sizes.read, { protectEvery: 4 }),
    remove: await pool(sizes.remove, { notDeletableEvery: 3, protectEvery: 5 }),
    pageGet: await pool(sizes.pageGet, { protectEvery: 3 }),
    pagePost: await pool(sizes.pagePost, { protectEvery: 3, kinds: ['text', 'text', 'qr', 'url'] }),
    pageDelete: await pool(sizes.pageDelete, { notDeletableEvery: 3, protectEvery: 5 }),
  };

  // File pushes (two files each), each retrieved once: its links are good for 100 downloads each.
  const links: string[] = [];
  for (let i = 0; i < sizes.filePushes; i++) {
    const boundary = `setup${i}`;
    const parts: Part[] = [
      { name: 'push[payload]', data: Buffer.from(`files ${i}`) },
      { name: 'push[expire_after_views]', data: Buffer.from('100') },
      {
        name: 'push[files][]',
        filename: `a${i}.txt`,
        contentType: 'text/plain',
        data: Buffer.from(`file a ${i}\n`),
      },
      {
        name: 'push[files][]',
        filename: `b${i}.bin`,
        data: Buffer.alloc(70_000 % FILE_LIMITS.maxFileBytes, i),
      },
    ];
    const created = await ok(
      {
        method: 'POST',
        target: '/api/v2/pushes',
        headers: [
          ['Content-Type', `multipart/form-data; boundary=${boundary}`],
          ['Authorization', `Bearer ${tokens.readWrite}`],
        ],
        body: multipartBody(parts, boundary),
      },
      201,
    );
    const retrieved = await ok(
      { method: 'GET', target: `/api/v2/pushes/${created.url_token as string}`, headers: [] },
      200,
    );
    for (const f of retrieved.files as { url: string }[]) {
      const u = new URL(f.url);
      links.push(`${u.pathname}${u.search}`);
    }
  }

  // Webhook endpoints of three owners (never delivered: the suite runs no worker), with a test
  // delivery each, so that the webhook routes' inputs meet endpoints and deliveries that exist.
  const webhooks = { ids: [] as string[], deliveries: [] as string[] };
  for (const owner of [tokens.readWrite, tokens.readWrite, tokens.otherClient, tokens.personal.readWrite]) {
    const auth: [string, string] = ['Authorization', `Bearer ${owner}`];
    const made = await ok(
      {
        method: 'POST',
        target: '/api/v2/webhooks',
        headers: [['Content-Type', 'application/json'], auth],
        body: json({ url: 'https://hooks.example.test/fuzz', event_types: ['push.viewed'] }),
      },
      201,
    );
    webhooks.ids.push(made.id as string);
    const test = await ok(
      { method: 'POST', target: `/api/v2/webhooks/${made.id as string}/test`, headers: [auth] },
      202,
    );
    webhooks.deliveries.push(test.id as string);
  }

  const requests = await makeRequestPools(
    pushSend,
    { main: tokens.readWrite, other: tokens.otherClient, personal: tokens.personal.readWrite },
    sizes.requests,
    RIGHT_PASSPHRASE,
  );

  const pages = await makePagePools(
    pushSend,
    { main: tokens.readWrite, other: tokens.otherClient, personal: tokens.personal.readWrite },
    sizes.pages,
    RIGHT_PASSPHRASE,
  );

  const clientA = await auth.createClient('pushes:read pushes:write', 'fuzz auth A');
  const clientB = await auth.createClient('pushes:read', 'fuzz auth B');
  const tokensA: string[] = [];
  for (let i = 0; i < 12; i++) tokensA.push(await auth.token(clientA));

  return {
    auth,
    push,
    s3,
    pushSend,
    authSend,
    tokens,
    pools,
    links,
    webhooks,
    requests,
    pages,
    signedIn,
    authFixture: { clientA, clientB, resourceServer: auth.resourceServer, tokensA },
    logs,
    snap: snapshotter(push.db, auth.db, s3, folderObjectCounter(s3Directory, s3.bucket)),
    async stop() {
      pushSend.close();
      authSend.close();
      // A request the service never answered keeps its connection until the server's idle
      // timeout: do not wait for it (the push server's connections can be closed outright; the
      // auth server's cannot be reached, so its stop is given a few seconds at most).
      push.server.server.closeAllConnections();
      const atMost = (p: Promise<void>, ms: number) =>
        Promise.race([p, new Promise<void>((r) => setTimeout(r, ms).unref())]);
      await atMost(push.stop(), 10_000);
      await atMost(s3.close(), 5_000);
      rmSync(s3Directory, { recursive: true, force: true });
      await atMost(auth.stop(), 5_000);
    },
  };
}
