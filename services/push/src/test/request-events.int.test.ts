import { createHash, randomUUID } from 'node:crypto';
import request from 'supertest';
import { sql } from 'kysely';
import { KeyRing } from '@secret-push/key-ring';
import { type MailCatcher, startMailCatcher } from '@secret-push/testing';
import { loadPushConfig } from '../config';
import { aad } from '../domain/push-sealing';
import { createRequestCodes } from '../domain/request-code-service';
import { EmailDailyLimitReached } from '../domain/errors';
import { insertRequestSend } from '../storage/request-email-send.sql';
import type { Redis } from 'ioredis';
import { createLogger } from '@secret-push/logger';
import { createRedis } from '@secret-push/redis-kit';
import { createRequestService } from '../domain/request-service';
import type { NewRequest } from '../domain/request';
import { createPassphraseLimiter } from '../http/rate-limits';
import { DURATIONS } from '../http/push.schemas';
import { createRequestRepository } from '../storage/request.repository';
import { personWithToken } from './support/email';
import { createRequestCodeRepository, useAnswerCode } from '../storage/request-code.repository';
import { generateUrlToken, hashUrlToken } from '../security/url-token';
import { startTestWorker } from '../testing';
import type { WorkerService } from '../worker-server';
import { type Harness, bearer, harness, waitFor } from './support/helpers';
import { type Receiver, startReceiver } from './support/webhook-receiver';

// Requests' events, emails and codes through the real worker: close by time (its audit entry and
// event), webhooks `request.answered` / `request.closed` to a local receiver, the owner's email and
// the responder's link through the test SMTP server, the one-time codes of listed addresses;
// `email.delivery_failed` for a request's emails that fail for good (scripted 550s): the responder's
// link and the owner's notice each become one message to the owner's endpoint, naming the request
// by its reference, never its message, note, token or answer; a sent email or a code email, none.
jest.setTimeout(90_000);

let h: Harness;
let catcher: MailCatcher;
let worker: WorkerService;
let receiver: Receiver;

beforeAll(async () => {
  catcher = await startMailCatcher();
  h = await harness({
    env: {
      PUSH_SMTP_URL: catcher.url,
      PUSH_MAIL_FROM: 'secret-push <no-reply@mail.example.org>',
      PUSH_WEBHOOK_ALLOW_HTTP: 'true',
    },
  });
  worker = await startTestWorker(h.push, {
    PUSH_WEBHOOK_ALLOW_HTTP: 'true',
    PUSH_WEBHOOK_ALLOWED_DESTINATIONS: '127.0.0.1',
    PUSH_WEBHOOK_INTERVAL_MS: '100',
  });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await worker.close();
  await h.stop();
  await catcher.close();
});
beforeEach(() => {
  catcher.clear();
  receiver.received.length = 0;
});

const api = () => request(h.push.url);
const db = () => h.push.db;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response and row bodies, checked by the assertions
type Json = Record<string, any>;

/** The client's principal as the API records it on what it owns. */
async function ownerOfHarness(): Promise<string> {
  const { rows } = await sql<{ owner: string }>`select owner from webhook_endpoint limit 1`.execute(db());
  return rows[0]!.owner;
}

/** A request row as the create statement writes it (sealed token and message), for the worker's side. */
async function insertRequest(over: { owner: string; outbox: boolean; closeAfter?: string; name?: string }) {
  const ring = new KeyRing(loadPushConfig(h.push.env).encryptionKeys);
  const id = randomUUID();
  const token = generateUrlToken();
  await sql`insert into request (id, token_hash, token_sealed, key_id, owner, message_sealed, name,
      close_after_at, answer_expire_after_views, outbox)
    values (${id}, ${hashUrlToken(token)}, ${ring.seal(token, aad(id, 'url_token'))}, ${ring.activeKeyId},
      ${over.owner}, ${ring.seal('the message', aad(id, 'payload'))}, ${over.name ?? null},
      now() + ${over.closeAfter ?? '1 day'}::interval, 1, ${over.outbox})`.execute(db());
  return { id, token };
}

const requestRow = async (id: string) =>
  (await sql<Json>`select * from request where id = ${id}`.execute(db())).rows[0]!;
const auditKinds = async (id: string) =>
  (
    await sql<{
      kind: string;
    }>`select kind from request_audit_entry where request_id = ${id} order by id`.execute(db())
  ).rows.map((r) => r.kind);

const hook = (types: string[], path: string) =>
  api()
    .post('/api/v2/webhooks')
    .set(bearer(h.token))
    .send({ url: receiver.url(path), event_types: types });

describe('close by time, through the worker', () => {
  it('closes an open request past its window: closed_reason time, a close_by_time entry, a request.closed webhook', async () => {
    const made = await hook(['request.closed'], '/closed');
    expect(made.status).toBe(201);
    const owner = await ownerOfHarness();
    const r = await insertRequest({ owner, outbox: true, closeAfter: '-1 second', name: 'vendor key' });
    const open = await insertRequest({ owner, outbox: true, closeAfter: '1 hour' });

    await waitFor(async () => (await requestRow(r.id)).state === 'closed', 20_000);
    const row = await requestRow(r.id);
    expect(row).toMatchObject({ state: 'closed', closed_reason: 'time', audit_entries: 1 });
    expect(row.closed_at.getTime()).toBeGreaterThanOrEqual(row.close_after_at.getTime());
    expect(await auditKinds(r.id)).toEqual(['close_by_time']);

    await waitFor(() => Promise.resolve(receiver.received.some((m) => m.path === '/closed')), 30_000);
    const got = receiver.received.filter((m) => m.path === '/closed');
    expect(got).toHaveLength(1);
    const body = JSON.parse(got[0]!.body) as Json;
    expect(body).toEqual({
      type: 'request.closed',
      timestamp: expect.any(String),
      data: {
        request_ref: hashUrlToken(r.token).subarray(0, 8).toString('hex'),
        name: 'vendor key',
        state: 'closed',
        closed_reason: 'time',
        answered_at: null,
        closed_at: row.closed_at.toISOString(),
      },
    });
    expect(got[0]!.body).not.toContain(r.token);
    expect(got[0]!.body).not.toContain('the message');

    // The one still in its window is left alone.
    expect((await requestRow(open.id)).state).toBe('open');
    await api().delete(`/api/v2/webhooks/${made.body.id}`).set(bearer(h.token));
  });

  it('closes an answered request too, and writes no event for a request nobody listens to', async () => {
    const owner = 'client:nobody-listens';
    const r = await insertRequest({ owner, outbox: false, closeAfter: '-1 second' });
    await sql`update request set state = 'answered', answered_at = now() where id = ${r.id}`.execute(db());
    await waitFor(async () => (await requestRow(r.id)).state === 'closed', 20_000);
    expect(await requestRow(r.id)).toMatchObject({ closed_reason: 'time' });
    expect(await auditKinds(r.id)).toEqual(['close_by_time']);
    const { rows } = await sql`select 1 from push_event where request_id = ${r.id}`.execute(db());
    expect(rows).toHaveLength(0);
    const metrics = await (await fetch(`${worker.url}/metrics`)).text();
    expect(metrics).toMatch(/push_request_close_lag_seconds_count [1-9]/);
  });

  it('releases the requester’s attachments for purging when it closes', async () => {
    const r = await insertRequest({ owner: 'client:files', outbox: false, closeAfter: '-1 second' });
    await sql`insert into request_file (id, request_id, position, object_key, filename_sealed, content_type, size, key_sealed)
      values (${randomUUID()}, ${r.id}, 0, ${`rq-${r.id}`}, '\\x00', 'text/plain', 1, '\\x00')`.execute(db());
    await waitFor(async () => (await requestRow(r.id)).state === 'closed', 20_000);
    const row = await requestRow(r.id);
    expect(row.files_purge_after).not.toBeNull();
    expect(row.files_purge_after.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  });
});

describe('one-time codes of listed addresses (the store, the worker’s email)', () => {
  const ctx = { ip: '203.0.113.9', userAgent: 'test', referrer: '' };
  const ring = () => new KeyRing(loadPushConfig(h.push.env).encryptionKeys);
  const codes = () => createRequestCodes({ store: createRequestCodeRepository(db()), keyRing: ring() });
  async function listedRequest() {
    const r = await insertRequest({ owner: 'client:codes', outbox: false });
    await sql`update request set answerable_by = 'emails', answerable_emails = '{a@example.org,b@example.org}'
      where id = ${r.id}`.execute(db());
    const subject = {
      id: r.id,
      state: 'open' as const,
      answerableBy: 'emails' as const,
      answerableEmails: ['a@example.org', 'b@example.org'],
      closeAfterAt: new Date(Date.now() + 3_600_000),
    };
    return { ...r, subject };
  }
  const codeFrom = (text: string) => /Your code: (\d{6})/.exec(text)?.[1] ?? '';

  it('mails a 6-digit code to a listed address (audited code_sent) and nothing to another', async () => {
    const r = await listedRequest();
    expect(await codes().send(r.subject, 'A@Example.org', ctx)).toBe(true);
    expect(await codes().send(r.subject, 'stranger@example.org', ctx)).toBe(false);
    const m = await catcher.waitFor((x) => x.envelope.to.includes('a@example.org'), 20_000);
    const code = codeFrom(m.subject);
    expect(code).toMatch(/^\d{6}$/);
    expect(m.text).toContain('valid for 15 minutes');
    expect(m.text).not.toContain('the message');
    expect(await auditKinds(r.id)).toEqual(['code_sent']);
    const { rows } = await sql<Json>`select * from request_answer_code where request_id = ${r.id}`.execute(
      db(),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.code_hash.toString('hex')).not.toContain(code);
    expect(catcher.messages.some((x) => x.envelope.to.includes('stranger@example.org'))).toBe(false);
  });

  it('takes the right code once; a wrong one counts, five attempts spend it; a used or expired one is refused', async () => {
    const r = await listedRequest();
    await codes().send(r.subject, 'a@example.org', ctx);
    const code = codeFrom(
      (await catcher.waitFor((x) => x.envelope.to.includes('a@example.org'), 20_000)).subject,
    );
    const wrong = code === '000000' ? '111111' : '000000';
    expect(await codes().check(r.subject, { email: 'a@example.org', code: wrong }, ctx)).toEqual({
      ok: false,
    });
    expect(await codes().check(r.subject, { email: 'b@example.org', code }, ctx)).toEqual({ ok: false });
    expect(await codes().check(r.subject, { email: 'a@example.org' }, ctx)).toEqual({ ok: false });
    const right = await codes().check(r.subject, { email: 'A@example.org', code }, ctx);
    expect(right).toMatchObject({ ok: true, use: { address: 'a@example.org' } });
    // The answer's transaction marks it used (once).
    const use = (right as { use: { address: string; codeHash: Buffer } }).use;
    expect(await useAnswerCode(db(), r.id, use)).toBe(true);
    expect(await useAnswerCode(db(), r.id, use)).toBe(false);
    expect(await codes().check(r.subject, { email: 'a@example.org', code }, ctx)).toEqual({ ok: false });
    expect((await auditKinds(r.id)).filter((k) => k === 'answer_refused')).toHaveLength(4);

    // Five tries spend a code, the right one included after them.
    await sql`delete from request_answer_code where request_id = ${r.id}`.execute(db());
    catcher.clear();
    await codes().send(r.subject, 'b@example.org', ctx);
    const code2 = codeFrom(
      (await catcher.waitFor((x) => x.envelope.to.includes('b@example.org'), 20_000)).subject,
    );
    const wrong2 = code2 === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) await codes().check(r.subject, { email: 'b@example.org', code: wrong2 }, ctx);
    expect(await codes().check(r.subject, { email: 'b@example.org', code: code2 }, ctx)).toEqual({
      ok: false,
    });

    // An expired code is refused.
    await sql`delete from request_answer_code where request_id = ${r.id}`.execute(db());
    catcher.clear();
    await codes().send(r.subject, 'b@example.org', ctx);
    const code3 = codeFrom(
      (await catcher.waitFor((x) => x.envelope.to.includes('b@example.org'), 20_000)).subject,
    );
    await sql`update request_answer_code set expires_at = now() - interval '1 second' where request_id = ${r.id}`.execute(
      db(),
    );
    expect(await codes().check(r.subject, { email: 'b@example.org', code: code3 }, ctx)).toEqual({
      ok: false,
    });
  });

  it('asking again within a minute keeps the first code (one email); a closed request gets none', async () => {
    const r = await listedRequest();
    expect(await codes().send(r.subject, 'a@example.org', ctx)).toBe(true);
    expect(await codes().send(r.subject, 'a@example.org', ctx)).toBe(false);
    await sql`update request set state = 'closed', closed_at = now(), closed_reason = 'owner' where id = ${r.id}`.execute(
      db(),
    );
    await sql`update request_answer_code set created_at = now() - interval '2 minutes' where request_id = ${r.id}`.execute(
      db(),
    );
    expect(await codes().send(r.subject, 'a@example.org', ctx)).toBe(false);
    expect(await auditKinds(r.id)).toEqual(['code_sent']);
  });
});

describe('emails about requests, through the worker', () => {
  it('sends the responder’s link (request_link): the responder page, who asks only when shown, never the message', async () => {
    const r = await insertRequest({ owner: 'client:links', outbox: false, closeAfter: '3 days' });
    await sql`update request set include_requestor = true, requestor_email = 'asker@example.org',
      passphrase_hash = 'x' where id = ${r.id}`.execute(db());
    await db()
      .transaction()
      .execute((trx) =>
        insertRequestSend(
          trx,
          { id: r.id, owner: 'client:links' },
          { recipients: ['resp@example.org'], locale: 'en', senderAddress: null, dailyLimit: 100 },
        ),
      );
    const m = await catcher.waitFor((x) => x.envelope.to.includes('resp@example.org'), 20_000);
    expect(m.subject).toBe('You are asked to send a secret');
    expect(m.text).toContain(`${h.push.url}/respond/${r.token}`);
    expect(m.text).toContain('asker@example.org asks you to send them a secret');
    expect(m.text).toContain('Answering needs a passphrase');
    expect(m.text).not.toContain('the message');
  });

  it('does not send a link once the request is closed', async () => {
    const r = await insertRequest({ owner: 'client:links2', outbox: false });
    await db()
      .transaction()
      .execute(async (trx) => {
        await insertRequestSend(
          trx,
          { id: r.id, owner: 'client:links2' },
          { recipients: ['late@example.org'], locale: 'en', senderAddress: null, dailyLimit: 100 },
        );
        await sql`update request set state = 'closed', closed_at = now(), closed_reason = 'owner' where id = ${r.id}`.execute(
          trx,
        );
      });
    await waitFor(async () => {
      const { rows } = await sql<Json>`select status from push_email where request_id = ${r.id}`.execute(
        db(),
      );
      return rows[0]?.status === 'failed';
    }, 20_000);
    const { rows } = await sql<Json>`select last_error from push_email where request_id = ${r.id}`.execute(
      db(),
    );
    expect(rows[0]!.last_error).toContain('answered or closed before it was sent');
  });

  it('counts request links against the owner’s daily cap, with push links', async () => {
    const r = await insertRequest({ owner: 'client:capped', outbox: false });
    const send = (to: string[]) =>
      db()
        .transaction()
        .execute((trx) =>
          insertRequestSend(
            trx,
            { id: r.id, owner: 'client:capped' },
            { recipients: to, locale: 'en', senderAddress: null, dailyLimit: 3 },
          ),
        );
    await send(['c1@example.org', 'c2@example.org']);
    await expect(send(['c3@example.org', 'c4@example.org'])).rejects.toThrow(EmailDailyLimitReached);
    const { rows } =
      await sql<Json>`select count(*)::int as n from push_email where request_id = ${r.id}`.execute(db());
    expect(rows[0]!.n).toBe(2);
  });
});

describe('a request’s create and answer (the request service over PostgreSQL) and what the worker makes of them', () => {
  const ctx = { ip: '203.0.113.10', userAgent: 'test', referrer: '' };
  let redis: Redis;
  beforeAll(() => {
    redis = createRedis(h.push.env.PUSH_REDIS_URL!, createLogger({ name: 'test', level: 'silent' }));
  });
  afterAll(() => redis.disconnect());

  function service() {
    const keyRing = new KeyRing(loadPushConfig(h.push.env).encryptionKeys);
    const store = createRequestRepository(db());
    return createRequestService({
      store,
      keyRing,
      passphraseLimiter: createPassphraseLimiter(redis, {
        prefix: h.push.env.PUSH_REDIS_PREFIX!,
        perPush: 5,
        perIp: 100,
      }),
      maxAuditEntries: 1000,
      durations: DURATIONS,
      emailEnabled: true,
      emailDailyLimit: 100,
      codes: createRequestCodes({
        store: createRequestCodeRepository(db()),
        keyRing,
        findByToken: async (t) => (await store.findByTokenHash(hashUrlToken(t)))?.request,
      }),
    });
  }
  const newRequest = (over: Partial<NewRequest> = {}): NewRequest => ({
    message: 'the message 5e1',
    name: 'vendor key',
    note: null,
    passphrase: null,
    window: {
      closeAfterDuration: null,
      expireAfterDays: 3,
      expireAfterDuration: null,
      ttlSeconds: 3 * 86_400,
    },
    answer: {
      expireAfterViews: 1,
      expireAfterDays: 3,
      expireAfterDuration: null,
      retrievalStep: false,
      deletableByViewer: false,
    },
    responseFileAttachments: false,
    includeRequestor: false,
    answerableBy: 'anyone',
    answerableEmails: [],
    notifyOwnerOnAnswer: false,
    attachmentDownloads: 3,
    notifyEmailsTo: [],
    emailLocale: null,
    ...over,
  });

  it('queues the responder’s link with the create (notify_emails_to) and the worker sends it', async () => {
    const made = await service().create(
      newRequest({ notifyEmailsTo: ['first@example.org', 'second@example.org'] }),
      {
        owner: 'client:creator',
        requestorEmail: null,
        audit: ctx,
      },
    );
    for (const to of ['first@example.org', 'second@example.org']) {
      const m = await catcher.waitFor((x) => x.envelope.to.includes(to), 20_000);
      expect(m.text).toContain(`/respond/${made.urlToken}`);
      expect(m.text).toContain('Someone asks you to send them a secret');
      expect(m.text).not.toContain('the message 5e1');
    }
  });

  it('an answer: request.answered to the owner’s endpoint and the owner’s email, never the answer', async () => {
    const person = await personWithToken(h.push);
    const made = await api()
      .post('/api/v2/webhooks')
      .set(bearer(person.token))
      .send({ url: receiver.url('/answered'), event_types: ['request.answered', 'request.closed'] });
    expect(made.status).toBe(201);
    const rs = service();
    const created = await rs.create(newRequest({ notifyOwnerOnAnswer: true }), {
      owner: `user:${person.userId}`,
      requestorEmail: person.email,
      audit: ctx,
    });
    expect((await requestRow(created.snapshot.request.id)).outbox).toBe(true);
    await rs.respond(
      created.urlToken,
      { kind: 'text', payload: 'the-answer-88c' },
      { kind: 'anonymous' },
      null,
      ctx,
    );

    const m = await catcher.waitFor((x) => x.envelope.to.includes(person.email!), 20_000);
    expect(m.subject).toBe('Your request was answered: “vendor key”');
    expect(m.text).toContain(`${h.push.url}/requests/${created.urlToken}`);
    expect(m.text).not.toContain('the-answer-88c');
    const answerToken = (await rs.view(created.urlToken, `user:${person.userId}`)).answer!.urlToken;
    expect(m.text).not.toContain(answerToken);

    await waitFor(() => Promise.resolve(receiver.received.some((r) => r.path === '/answered')), 30_000);
    const body = JSON.parse(receiver.received.find((r) => r.path === '/answered')!.body) as Json;
    expect(body).toMatchObject({
      type: 'request.answered',
      data: {
        request_ref: hashUrlToken(created.urlToken).subarray(0, 8).toString('hex'),
        name: 'vendor key',
        state: 'answered',
        closed_reason: null,
        answered_at: expect.any(String),
        closed_at: null,
      },
    });
    for (const r of receiver.received) {
      expect(r.body).not.toContain('the-answer-88c');
      expect(r.body).not.toContain(answerToken);
      expect(r.body).not.toContain(created.urlToken);
    }
  });

  it('listed addresses: no code or a wrong one is refused (code_required), the right one answers once', async () => {
    const rs = service();
    const created = await rs.create(
      newRequest({ answerableBy: 'emails', answerableEmails: ['listed@example.org'] }),
      { owner: 'client:listed', requestorEmail: null, audit: ctx },
    );
    const answer = { kind: 'text' as const, payload: 'answer' };
    const anon = { kind: 'anonymous' as const };
    await expect(rs.respond(created.urlToken, answer, anon, null, ctx)).rejects.toMatchObject({
      name: 'AnswerNotAllowed',
      reason: 'code_required',
    });
    await createRequestCodes({
      store: createRequestCodeRepository(db()),
      keyRing: new KeyRing(loadPushConfig(h.push.env).encryptionKeys),
      findByToken: async (t) =>
        (await createRequestRepository(db()).findByTokenHash(hashUrlToken(t)))?.request,
    }).sendFor(created.urlToken, 'Listed@example.org', ctx);
    const code = /Your code: (\d{6})/.exec(
      (await catcher.waitFor((x) => x.envelope.to.includes('listed@example.org'), 20_000)).subject,
    )![1]!;
    const wrong = code === '000000' ? '111111' : '000000';
    await expect(
      rs.respond(created.urlToken, answer, anon, null, ctx, {
        proof: { email: 'listed@example.org', code: wrong },
      }),
    ).rejects.toMatchObject({ reason: 'code_required' });
    const done = await rs.respond(created.urlToken, answer, anon, null, ctx, {
      proof: { email: 'listed@example.org', code },
    });
    expect(done.request.state).toBe('answered');
    const { rows } = await sql<Json>`select used_at, code_sealed from request_answer_code
      where request_id = ${created.snapshot.request.id}`.execute(db());
    expect(rows[0]!.used_at).not.toBeNull();
    expect(rows[0]!.code_sealed).toBeNull();
    expect(await auditKinds(created.snapshot.request.id)).toEqual([
      'creation',
      'answer_refused',
      'code_sent',
      'answer_refused',
      'answer',
    ]);
  });
});

const refOf = (urlToken: string) => createHash('sha256').update(urlToken).digest('hex').slice(0, 16);
const atPath = (path: string) => receiver.received.filter((r) => r.path === path);
const parsed = (path: string) => atPath(path).map((r) => JSON.parse(r.body) as Record<string, unknown>);
const emailsOf = async (requestId: string) =>
  (
    await sql<{ purpose: string; status: string }>`
      select purpose, status from push_email where request_id = ${requestId} order by created_at`.execute(
      h.push.db,
    )
  ).rows;
const requestIdOf = async (urlToken: string) =>
  (
    await sql<{
      id: string;
    }>`select id from request where token_hash = ${createHash('sha256').update(urlToken).digest()}`.execute(
      h.push.db,
    )
  ).rows[0]!.id;
/** Every event the worker has not consumed yet is gone (what is delivered is all there will be). */
const outboxDrained = () =>
  waitFor(async () => {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from push_event`.execute(h.push.db);
    return rows[0]!.n === 0;
  }, 20_000);

describe('email.delivery_failed for request emails', () => {
  it('the responder’s link and the owner’s notice, each failing for good, are one message each to the owner’s endpoint, without a secret', async () => {
    const person = await personWithToken(h.push);
    const hook = await api()
      .post('/api/v2/webhooks')
      .set(bearer(person.token))
      .send({ url: receiver.url('/rq-failed'), event_types: ['email.delivery_failed'] });
    expect(hook.status).toBe(201);
    catcher.fail({ code: 550, message: 'no such mailbox', to: 'gone-responder@example.org' }, 5);
    const created = await api()
      .post('/api/v2/requests')
      .set(bearer(person.token))
      .send({
        request: {
          request: 'message-3fa9',
          note: 'note-77c1',
          name: 'vendor key',
          notify_emails_to: 'gone-responder@example.org',
          notify_owner_on_answer: true,
        },
      });
    expect(created.status).toBe(201);
    const token = created.body.url_token as string;
    const id = await requestIdOf(token);
    expect(
      (await sql<{ outbox: boolean }>`select outbox from request where id = ${id}`.execute(h.push.db))
        .rows[0]!.outbox,
    ).toBe(true);

    await waitFor(() => Promise.resolve(atPath('/rq-failed').length >= 1), 30_000);
    const [link] = parsed('/rq-failed');
    expect(link).toMatchObject({
      type: 'email.delivery_failed',
      timestamp: expect.any(String),
      data: {
        request_ref: refOf(token),
        name: 'vendor key',
        state: 'open',
        email: {
          id: expect.any(String),
          recipient: 'gone-responder@example.org',
          purpose: 'link',
          attempts: 1,
        },
      },
    });
    expect((link!.data as { email: { reason: string } }).email.reason).toContain('550');

    // The answer: the owner's notice now fails too.
    catcher.fail({ code: 550, message: 'mailbox disabled', to: person.email! }, 5);
    const answered = await api()
      .post(`/api/v2/requests/${token}/respond`)
      .send({ response: { payload: 'answer-5b0e' } });
    expect(answered.status).toBe(201);
    await waitFor(() => Promise.resolve(atPath('/rq-failed').length >= 2), 30_000);
    const notice = parsed('/rq-failed')[1]!;
    expect(notice).toMatchObject({
      type: 'email.delivery_failed',
      data: {
        request_ref: refOf(token),
        state: 'answered',
        email: { recipient: person.email, purpose: 'notice', attempts: 1 },
      },
    });
    expect(await emailsOf(id)).toEqual([
      { purpose: 'request_link', status: 'failed' },
      { purpose: 'notice_request_answered', status: 'failed' },
    ]);
    await outboxDrained();
    // One message per failure, none twice; never the message, the note, the token or the answer.
    expect(atPath('/rq-failed')).toHaveLength(2);
    for (const r of atPath('/rq-failed')) {
      for (const secret of ['message-3fa9', 'note-77c1', token, 'answer-5b0e']) {
        expect(r.body).not.toContain(secret);
      }
    }
  });

  it('an email that is sent, a request nobody listens to, or a failed code email make no message', async () => {
    const person = await personWithToken(h.push);
    const hook = await api()
      .post('/api/v2/webhooks')
      .set(bearer(person.token))
      .send({ url: receiver.url('/rq-quiet'), event_types: ['email.delivery_failed', 'request.answered'] });
    expect(hook.status).toBe(201);
    // Sent: no message about it.
    const sent = await api()
      .post('/api/v2/requests')
      .set(bearer(person.token))
      .send({ request: { request: 'fine', notify_emails_to: 'fine-responder@example.org' } });
    expect(sent.status).toBe(201);
    await catcher.waitFor((m) => m.envelope.to.includes('fine-responder@example.org'), 20_000);
    // A code email that fails for good: the responder asked for it, nobody else hears of it.
    const listed = await api()
      .post('/api/v2/requests')
      .set(bearer(person.token))
      .send({
        request: {
          request: 'listed only',
          answerable_by: 'emails',
          answerable_emails: 'gone-code@example.org',
        },
      });
    expect(listed.status).toBe(201);
    catcher.fail({ code: 550, message: 'no such mailbox', to: 'gone-code@example.org' }, 5);
    expect(
      (
        await api()
          .post(`/api/v2/requests/${listed.body.url_token as string}/code`)
          .send({ email: 'gone-code@example.org' })
      ).status,
    ).toBe(202);
    const listedId = await requestIdOf(listed.body.url_token as string);
    await waitFor(async () => (await emailsOf(listedId)).some((e) => e.status === 'failed'), 30_000);
    // Nobody listens (a client without endpoints): its failed link makes no event at all.
    catcher.fail({ code: 550, message: 'no such mailbox', to: 'gone-unheard@example.org' }, 5);
    const quiet = await h.auth.token(await h.auth.createClient('pushes:read pushes:write', 'no endpoints'));
    const unheard = await api()
      .post('/api/v2/requests')
      .set(bearer(quiet))
      .send({ request: { request: 'unheard', notify_emails_to: 'gone-unheard@example.org' } });
    expect(unheard.status).toBe(201);
    const unheardId = await requestIdOf(unheard.body.url_token as string);
    expect(
      (await sql<{ outbox: boolean }>`select outbox from request where id = ${unheardId}`.execute(h.push.db))
        .rows[0]!.outbox,
    ).toBe(false);
    await waitFor(async () => (await emailsOf(unheardId)).some((e) => e.status === 'failed'), 30_000);
    await outboxDrained();
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from webhook_delivery where type = 'email.delivery_failed'
        and body like ${`%${refOf(unheard.body.url_token as string)}%`}`.execute(h.push.db);
    expect(rows[0]!.n).toBe(0);
    expect(atPath('/rq-quiet')).toHaveLength(0);
  });
});
