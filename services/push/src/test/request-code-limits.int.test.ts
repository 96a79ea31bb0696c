import express from 'express';
import request from 'supertest';
import { sql } from 'kysely';
import type { Redis } from 'ioredis';
import { KeyRing } from '@secret-push/key-ring';
import { errorHandler } from '@secret-push/http-kit';
import { createLogger } from '@secret-push/logger';
import { createRedis } from '@secret-push/redis-kit';
import { type MailCatcher, startMailCatcher } from '@secret-push/testing';
import { loadPushConfig } from '../config';
import { createRequestCodes } from '../domain/request-code-service';
import { requestCodeRateLimit, requestCodeRoutes } from '../http/request-code.routes';
import { hashUrlToken } from '../security/url-token';
import { createRequestCodeRepository } from '../storage/request-code.repository';
import { createRequestRepository } from '../storage/request.repository';
import { type Harness, bearer, harness } from './support/helpers';

// The one-time code limits as an operator sets them (PUSH_REQUEST_CODE_*, config/request-codes.ts):
// the code store (validity, attempts, resend interval) over PostgreSQL and the code route's rate
// limit (per IP, per request, window) over Redis take them from their options object.
jest.setTimeout(60_000);

let h: Harness;
let catcher: MailCatcher;
let redis: Redis;
const logger = createLogger({ name: 'test', level: 'silent' });
const ctx = { ip: '203.0.113.7', userAgent: 'test', referrer: '' };
const LISTED = 'listed-limits@example.org';

beforeAll(async () => {
  catcher = await startMailCatcher();
  h = await harness({
    env: { PUSH_SMTP_URL: catcher.url, PUSH_MAIL_FROM: 'secret-push <no-reply@mail.example.org>' },
  });
  redis = createRedis(h.push.env.PUSH_REDIS_URL!, logger);
});
afterAll(async () => {
  redis.disconnect();
  await h.stop();
  await catcher.close();
});

async function listedRequest(): Promise<{ token: string; id: string }> {
  const made = await request(h.push.url)
    .post('/api/v2/requests')
    .set(bearer(h.token))
    .send({ request: { request: 'codes', answerable_by: 'emails', answerable_emails: LISTED } });
  expect(made.status).toBe(201);
  const token = made.body.url_token as string;
  const { rows } = await sql<{
    id: string;
  }>`select id from request where token_hash = ${hashUrlToken(token)}`.execute(h.push.db);
  return { token, id: rows[0]!.id };
}

function codes(limits: { ttlSeconds: number; resendSeconds: number; maxAttempts: number }) {
  const store = createRequestRepository(h.push.db);
  return {
    repo: createRequestCodeRepository(h.push.db, limits),
    codes: createRequestCodes({
      store: createRequestCodeRepository(h.push.db, limits),
      keyRing: new KeyRing(loadPushConfig(h.push.env).encryptionKeys),
      findByToken: async (t) => (await store.findByTokenHash(hashUrlToken(t)))?.request,
    }),
  };
}

const codeRow = async (id: string) =>
  (
    await sql<{ valid_s: number; attempts: number }>`
      select extract(epoch from expires_at - created_at)::int as valid_s, attempts
        from request_answer_code where request_id = ${id} and email = ${LISTED}`.execute(h.push.db)
  ).rows[0];

describe('the code store under operator limits', () => {
  it('issues codes valid PUSH_REQUEST_CODE_TTL_SECONDS, spends one after PUSH_REQUEST_CODE_MAX_ATTEMPTS wrong tries', async () => {
    const r = await listedRequest();
    const { repo, codes: c } = codes({ ttlSeconds: 120, resendSeconds: 10, maxAttempts: 2 });
    expect(await c.sendFor(r.token, LISTED, ctx)).toBe(true);
    expect(await codeRow(r.id)).toEqual({ valid_s: 120, attempts: 0 });
    // Two tries, then the code is spent (the default would allow five).
    expect(await repo.takeAttempt(r.id, LISTED)).toBeInstanceOf(Buffer);
    expect(await repo.takeAttempt(r.id, LISTED)).toBeInstanceOf(Buffer);
    expect(await repo.takeAttempt(r.id, LISTED)).toBeNull();
    expect((await codeRow(r.id))!.attempts).toBe(2);
  });

  it('replaces a code only after PUSH_REQUEST_CODE_RESEND_SECONDS', async () => {
    const r = await listedRequest();
    const quick = codes({ ttlSeconds: 300, resendSeconds: 10, maxAttempts: 5 });
    expect(await quick.codes.sendFor(r.token, LISTED, ctx)).toBe(true);
    expect(await quick.codes.sendFor(r.token, LISTED, ctx)).toBe(false);
    // As if the first code were 11 s old: asked again, it is replaced.
    await sql`update request_answer_code set created_at = created_at - interval '11 seconds'
      where request_id = ${r.id}`.execute(h.push.db);
    expect(await quick.codes.sendFor(r.token, LISTED, ctx)).toBe(true);
    expect((await codeRow(r.id))!.valid_s).toBe(300);
  });
});

describe('POST /requests/:t/code under operator limits', () => {
  it('allows PUSH_REQUEST_CODE_REQUESTS_PER_IP per window, then 429 with Retry-After; says the validity set', async () => {
    const prefix = `${h.push.env.PUSH_REDIS_PREFIX!}limits-${Date.now()}:`;
    const sent: string[] = [];
    const app = express();
    app.set('trust proxy', true);
    app.use(
      requestCodeRoutes({
        sendCode: (t) => {
          sent.push(t);
          return Promise.resolve();
        },
        responderAccess: (_req, _res, next) => next(),
        rateLimit: requestCodeRateLimit(redis, prefix, logger, {
          requestsPerIp: 2,
          requestsPerRequest: 3,
          rateWindowSeconds: 60,
        }),
        codeTtlSeconds: 120,
      }),
    );
    app.use(errorHandler(logger));
    const ask = (token: string, ip: string) =>
      request(app).post(`/requests/${token}/code`).set('X-Forwarded-For', ip).send({ email: LISTED });
    const ok = await ask('t-one', '198.51.100.1');
    expect(ok.status).toBe(202);
    expect(ok.body.message).toContain('valid for 2 minutes');
    expect((await ask('t-two', '198.51.100.1')).status).toBe(202);
    const third = await ask('t-three', '198.51.100.1');
    expect(third.status).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(third.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Per request: three from any addresses, then 429.
    expect((await ask('t-one', '198.51.100.2')).status).toBe(202);
    expect((await ask('t-one', '198.51.100.3')).status).toBe(202);
    expect((await ask('t-one', '198.51.100.4')).status).toBe(429);
    expect(sent).toEqual(['t-one', 't-two', 't-one', 't-one']);
  });
});
