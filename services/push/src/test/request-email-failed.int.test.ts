import { createHash } from 'node:crypto';
import request from 'supertest';
import { sql } from 'kysely';
import { type MailCatcher, startMailCatcher } from '@secret-push/testing';
import { startTestWorker } from '../testing';
import type { WorkerService } from '../worker-server';
import { personWithToken } from './support/email';
import { type Harness, bearer, harness, waitFor } from './support/helpers';
import { type Receiver, startReceiver } from './support/webhook-receiver';

// `email.delivery_failed` for the emails of a request (issue 28), through the real worker, the test
// SMTP server (scripted 550s) and a local webhook receiver: the responder's link
// (`notify_emails_to`) and the owner's "answer is waiting" notice that fail for good each become
// one message to the owner's endpoint, naming the request by its reference, never its message,
// note, token or answer; an email that is sent, or a code email, makes none.
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
beforeEach(() => catcher.clear());

const api = () => request(h.push.url);
const refOf = (urlToken: string) => createHash('sha256').update(urlToken).digest('hex').slice(0, 16);
const at = (path: string) => receiver.received.filter((r) => r.path === path);
const parsed = (path: string) => at(path).map((r) => JSON.parse(r.body) as Record<string, unknown>);
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

    await waitFor(() => Promise.resolve(at('/rq-failed').length >= 1), 30_000);
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
    await waitFor(() => Promise.resolve(at('/rq-failed').length >= 2), 30_000);
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
    expect(at('/rq-failed')).toHaveLength(2);
    for (const r of at('/rq-failed')) {
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
    const unheard = await api()
      .post('/api/v2/requests')
      .set(bearer(h.token))
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
    expect(at('/rq-quiet')).toHaveLength(0);
  });
});
