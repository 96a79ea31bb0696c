import { createHash } from 'node:crypto';
import request from 'supertest';
import { sql } from 'kysely';
import { leaseDue } from '@secret-push/mail';
import { type CaughtMail, type MailCatcher, startMailCatcher } from '@secret-push/testing';
import { type WorkerService } from '../worker-server';
import { startTestWorker } from '../testing';
import { type Harness, bearer, createPush, harness, waitFor } from './support/helpers';
import { emailRowsOf, makeEmailsDue, personWithToken } from './support/email';
import { type Receiver, startReceiver } from './support/webhook-receiver';

// The worker sends what the API queued, through a real SMTP server (the in-process catcher): the
// link (retrieval step honoured) and never the secret, retries of temporary failures, final
// failures, the push expired before sending, a sender killed holding its lease, owner notices.
jest.setTimeout(90_000);

let h: Harness;
let catcher: MailCatcher;
let worker: WorkerService;
let receiver: Receiver;
/** Webhooks to the receiver on 127.0.0.1 (as `make up` allows). */
const WORKER_ENV = {
  PUSH_WEBHOOK_ALLOW_HTTP: 'true',
  PUSH_WEBHOOK_ALLOWED_DESTINATIONS: '127.0.0.1',
  PUSH_WEBHOOK_INTERVAL_MS: '100',
};

beforeAll(async () => {
  catcher = await startMailCatcher();
  h = await harness({
    env: {
      PUSH_SMTP_URL: catcher.url,
      PUSH_MAIL_FROM: 'secret-push <no-reply@mail.example.org>',
      PUSH_WEBHOOK_ALLOW_HTTP: 'true',
    },
  });
  worker = await startTestWorker(h.push, WORKER_ENV);
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
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies, checked by the assertions
type Log = Record<string, any>;
const auditOf = async (t: string, token = h.token) =>
  (await api().get(`/api/v2/pushes/${t}/audit`).set(bearer(token))).body.logs as Log[];
const sendOf = async (t: string) => (await auditOf(t)).find((l) => l.kind === 'creation_email_send')!;
const mailTo = (to: string, timeoutMs = 20_000) =>
  catcher.waitFor((m) => m.envelope.to.includes(to), timeoutMs);
const settled = (t: string) =>
  waitFor(
    async () => (await emailRowsOf(h.push, t)).every((r) => ['sent', 'failed'].includes(r.status)),
    20_000,
  );

function expectNoSecret(m: CaughtMail, ...secrets: string[]) {
  for (const s of secrets) {
    expect(m.text).not.toContain(s);
    expect(m.html).not.toContain(s);
    expect(m.subject).not.toContain(s);
  }
}

describe('a recipient’s link', () => {
  it('reaches SMTP with the html_url (retrieval step), no secret, the sender unnamed; the audit says completed', async () => {
    const created = await createPush(
      h.push.url,
      {
        payload: 'the-payload-9f3',
        note: 'the-note-77a',
        passphrase: 'the-passphrase-51c',
        notify_emails_to: 'rcpt1@example.org',
        expire_after_views: 3,
      },
      h.token,
    );
    expect(created.status).toBe(201);
    const m = await mailTo('rcpt1@example.org');
    expect(created.body.html_url).toMatch(/\/r$/);
    expect(m.text).toContain(created.body.html_url);
    expect(m.html).toContain(`href="${created.body.html_url}"`);
    expect(m.text).toContain('Someone sent you a secret');
    expect(m.text).toContain('the passphrase reaches you another way');
    expect(m.text).toContain('expires in 7 days or after 3 views, whichever comes first');
    expect(m.html).toContain('expires in 7 days or after 3 views, whichever comes first');
    expect(m.headers['content-language']).toBe('en');
    expect(m.messageId).toMatch(/@mail\.example\.org>$/);
    expectNoSecret(m, 'the-payload-9f3', 'the-note-77a', 'the-passphrase-51c');

    await settled(created.body.url_token);
    const send = await sendOf(created.body.url_token);
    expect(send.notify_by_email).toMatchObject({
      status: 'completed',
      successful_sends: 'rcpt1@example.org',
    });
    expect(send.email_deliveries[0]).toMatchObject({
      status: 'sent',
      attempts: 1,
      detail: expect.stringContaining('250'),
    });
    const metrics = await (await fetch(`${worker.url}/metrics`)).text();
    expect(metrics).toMatch(/push_emails_total\{purpose="push_link",outcome="sent"\} [1-9]/);
  });

  it('links to the push itself without the retrieval step, and names the sender who asked to be named', async () => {
    const person = await personWithToken(h.push);
    const created = await createPush(
      h.push.url,
      {
        payload: 'x',
        retrieval_step: false,
        notify_emails_to: 'rcpt2@example.org',
        notify_emails_include_sender: true,
      },
      person.token,
    );
    const m = await mailTo('rcpt2@example.org');
    expect(created.body.html_url).not.toMatch(/\/r$/);
    expect(m.text).toContain(created.body.html_url);
    expect(m.text).toContain(`${person.email} sent you a secret`);
    expect(m.text).not.toContain('passphrase');
  });

  it('retries a temporary failure (451) and then sends it; the audit shows the final state', async () => {
    catcher.fail({ code: 451, message: 'greylisted, try later', to: 'grey@example.org' }, 1);
    const created = await createPush(
      h.push.url,
      { payload: 'x', notify_emails_to: 'grey@example.org' },
      h.token,
    );
    const t = created.body.url_token as string;
    await waitFor(async () => (await emailRowsOf(h.push, t))[0]!.status === 'deferred', 20_000);
    const deferred = await sendOf(t);
    expect(deferred.notify_by_email.status).toBe('pending');
    expect(deferred.email_deliveries[0]).toMatchObject({
      status: 'deferred',
      detail: expect.stringContaining('greylisted'),
    });
    await makeEmailsDue(h.push);
    await mailTo('grey@example.org');
    await settled(t);
    const send = await sendOf(t);
    expect(send.notify_by_email.status).toBe('completed');
    expect(send.email_deliveries[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('a permanent failure (550) is final: partially_failed with the server’s reason', async () => {
    catcher.fail({ code: 550, message: 'no such mailbox', to: 'gone@example.org' }, 5);
    const created = await createPush(
      h.push.url,
      { payload: 'x', notify_emails_to: 'gone@example.org, here@example.org' },
      h.token,
    );
    const t = created.body.url_token as string;
    await settled(t);
    const send = await sendOf(t);
    expect(send.notify_by_email).toMatchObject({
      status: 'partially_failed',
      successful_sends: 'here@example.org',
      error_message: 'Some emails could not be sent.',
    });
    const gone = send.email_deliveries.find((d: { recipient: string }) => d.recipient === 'gone@example.org');
    expect(gone).toMatchObject({
      status: 'failed',
      attempts: 1,
      detail: expect.stringContaining('no such mailbox'),
    });
  });

  it('is not sent when the push expired first (final, with the reason)', async () => {
    await worker.close();
    const created = await createPush(
      h.push.url,
      { payload: 'x', notify_emails_to: 'late@example.org' },
      h.token,
    );
    const t = created.body.url_token as string;
    await api().delete(`/api/v2/pushes/${t}`).set(bearer(h.token));
    worker = await startTestWorker(h.push, WORKER_ENV);
    await settled(t);
    const send = await sendOf(t);
    expect(send.notify_by_email).toMatchObject({
      status: 'failed',
      error_message: 'No emails were sent successfully.',
    });
    expect(send.email_deliveries[0]).toMatchObject({
      status: 'failed',
      detail: 'the push expired before it was sent',
    });
    expect(catcher.messages.filter((m) => m.envelope.to.includes('late@example.org'))).toHaveLength(0);
  });

  it('loses nothing when a sender dies holding its lease: the lease runs out and the next worker sends it once', async () => {
    await worker.close();
    const created = await createPush(
      h.push.url,
      { payload: 'x', notify_emails_to: 'crash@example.org' },
      h.token,
    );
    const t = created.body.url_token as string;
    // A worker leased it and died before sending (its process gone: nothing else was done).
    const leased = await leaseDue(h.push.db, 'push_email', { limit: 100, leaseSeconds: 600 });
    expect(leased.map((r) => r.recipient)).toContain('crash@example.org');
    worker = await startTestWorker(h.push, WORKER_ENV);
    await new Promise((r) => setTimeout(r, 1000));
    expect(catcher.messages.filter((m) => m.envelope.to.includes('crash@example.org'))).toHaveLength(0); // still leased
    await sql`update push_email set next_attempt_at = now() - interval '1 second' where status = 'sending'`.execute(
      h.push.db,
    );
    await mailTo('crash@example.org');
    await settled(t);
    expect(catcher.messages.filter((m) => m.envelope.to.includes('crash@example.org'))).toHaveLength(1);
    expect((await emailRowsOf(h.push, t))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });
});

describe('owner notices', () => {
  it('viewed, a wrong passphrase (once per 10 minutes), expired unseen: to the verified address, never the secret', async () => {
    const person = await personWithToken(h.push);
    const owner = person.email!;
    const viewed = await createPush(
      h.push.url,
      {
        payload: 'notice-payload-1',
        name: 'db password',
        notify_owner_on: ['view', 'failed_passphrase'],
        passphrase: 'pp-123',
      },
      person.token,
    );
    const t = viewed.body.url_token as string;
    await api().get(`/api/v2/pushes/${t}?passphrase=wrong-1`);
    await api().get(`/api/v2/pushes/${t}?passphrase=wrong-2`);
    const wrong = await catcher.waitFor(
      (m) => m.envelope.to.includes(owner) && m.subject.includes('wrong passphrase'),
      20_000,
    );
    expect(wrong.subject).toContain('“db password”');
    expect((await api().get(`/api/v2/pushes/${t}?passphrase=pp-123`)).status).toBe(200);
    const seen = await catcher.waitFor(
      (m) => m.envelope.to.includes(owner) && m.subject.includes('was viewed'),
      20_000,
    );
    expectNoSecret(seen, 'notice-payload-1', 'pp-123');
    await new Promise((r) => setTimeout(r, 1500));
    expect(
      catcher.messages.filter((m) => m.subject.includes('wrong passphrase') && m.envelope.to.includes(owner)),
    ).toHaveLength(1);
    // The notice shows on the audit entry of the event that caused it.
    const viewEntry = async () => (await auditOf(t, person.token)).find((l) => l.kind === 'view')!;
    await waitFor(async () => (await viewEntry()).email_deliveries?.[0]?.status === 'sent', 10_000);
    expect((await viewEntry()).email_deliveries).toEqual([
      expect.objectContaining({ recipient: owner, purpose: 'notice_viewed', status: 'sent', attempts: 1 }),
    ]);

    const unseen = await createPush(
      h.push.url,
      { payload: 'x', notify_owner_on: ['expired_unseen'] },
      person.token,
    );
    await api().delete(`/api/v2/pushes/${unseen.body.url_token}`).set(bearer(person.token));
    const expired = await catcher.waitFor(
      (m) => m.envelope.to.includes(owner) && m.subject.includes('expired unseen'),
      20_000,
    );
    expect(expired.text).toContain('your secret created');
  });

  it('are not sent to an address that is no longer verified (nothing queued)', async () => {
    const person = await personWithToken(h.push);
    const created = await createPush(h.push.url, { payload: 'x', notify_owner_on: ['view'] }, person.token);
    await h.push.db
      .updateTable('app_user')
      .set({ email_verified: false })
      .where('id', '=', person.userId)
      .execute();
    expect((await api().get(`/api/v2/pushes/${created.body.url_token}`)).status).toBe(200);
    await waitFor(async () => {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from push_event`.execute(h.push.db);
      return rows[0]!.n === 0;
    }, 10_000);
    expect(await emailRowsOf(h.push, created.body.url_token)).toHaveLength(0);
  });

  it('come from account defaults when the create does not say', async () => {
    const person = await personWithToken(h.push);
    // Set before the token's first use: its lookup (cached 10 s) carries the defaults.
    await h.push.db
      .updateTable('app_user')
      .set({ notify_owner_on: ['view'] })
      .where('id', '=', person.userId)
      .execute();
    const created = await createPush(h.push.url, { payload: 'x' }, person.token);
    expect(created.body.notify_owner_on).toEqual(['view']);
    await api().get(`/api/v2/pushes/${created.body.url_token}`);
    await catcher.waitFor(
      (m) => m.envelope.to.includes(person.email!) && m.subject.includes('was viewed'),
      20_000,
    );
  });
});

describe('email and webhooks', () => {
  const hook = (token: string, url: string, types: string[]) =>
    api().post('/api/v2/webhooks').set(bearer(token)).send({ url, event_types: types });

  it('an email that fails for good is an email.delivery_failed message to the owner’s endpoint, without the secret', async () => {
    const made = await hook(h.token, receiver.url('/failed-mail'), ['email.delivery_failed']);
    expect(made.body).toMatchObject({ id: expect.any(String) });
    catcher.fail({ code: 550, message: 'no such mailbox', to: 'bounced@example.org' }, 5);
    const created = await createPush(
      h.push.url,
      { payload: 'payload-7d1e', note: 'note-0c9b', notify_emails_to: 'bounced@example.org' },
      h.token,
    );
    expect(created.status).toBe(201);
    await waitFor(() => Promise.resolve(receiver.received.some((r) => r.path === '/failed-mail')), 30_000);
    const msg = receiver.received.find((r) => r.path === '/failed-mail')!;
    const body = JSON.parse(msg.body);
    expect(body).toMatchObject({
      type: 'email.delivery_failed',
      data: {
        push: { ref: createHash('sha256').update(created.body.url_token).digest('hex').slice(0, 16) },
        email: { recipient: 'bounced@example.org', purpose: 'link', attempts: 1 },
      },
    });
    expect(body.data.email.reason).toContain('550');
    for (const secret of ['payload-7d1e', 'note-0c9b', created.body.url_token]) {
      expect(msg.body).not.toContain(secret);
    }
    // The event went with the failure: none is left over, none was made twice.
    expect(receiver.received.filter((r) => r.path === '/failed-mail')).toHaveLength(1);
    await api().delete(`/api/v2/webhooks/${made.body.id}`).set(bearer(h.token));
  });

  it('an email that is sent makes no such message', async () => {
    const made = await hook(h.token, receiver.url('/sent-mail'), ['email.delivery_failed', 'push.created']);
    const created = await createPush(
      h.push.url,
      { payload: 'x', notify_emails_to: 'fine@example.org' },
      h.token,
    );
    await mailTo('fine@example.org');
    await waitFor(() => Promise.resolve(receiver.received.some((r) => r.path === '/sent-mail')), 20_000);
    await settled(created.body.url_token);
    await waitFor(async () => {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from push_event`.execute(h.push.db);
      return rows[0]!.n === 0;
    }, 10_000);
    const types = receiver.received
      .filter((r) => r.path === '/sent-mail')
      .map((r) => JSON.parse(r.body).type);
    expect(types).toEqual(['push.created']);
    await api().delete(`/api/v2/webhooks/${made.body.id}`).set(bearer(h.token));
  });

  it('an endpoint the worker disables (410) is told to its owner by email, once, without the path of its URL', async () => {
    const person = await personWithToken(h.push);
    receiver.answer((r) => ({ status: r.path.startsWith('/gone-') ? 410 : 204 }));
    try {
      const made = await hook(person.token, receiver.url('/gone-tok3n-4f2a'), ['push.created']);
      expect(made.status).toBe(201);
      expect(
        (await api().post(`/api/v2/webhooks/${made.body.id}/test`).set(bearer(person.token))).status,
      ).toBe(202);
      const m = await catcher.waitFor(
        (x) => x.envelope.to.includes(person.email!) && x.subject.includes('webhook endpoint was disabled'),
        30_000,
      );
      expect(m.subject).toBe(`Your webhook endpoint was disabled: http://127.0.0.1:${receiver.port}`);
      expect(m.text).toContain('410');
      expect(m.text).toContain('/users/webhooks');
      expect(m.text + m.html).not.toContain('tok3n');
      const shown = await api().get(`/api/v2/webhooks/${made.body.id}`).set(bearer(person.token));
      expect(shown.body).toMatchObject({ enabled: false });
      // A second send to the disabled endpoint disables nothing more: one notice.
      await api().post(`/api/v2/webhooks/${made.body.id}/test`).set(bearer(person.token));
      await new Promise((r) => setTimeout(r, 1500));
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from push_email where endpoint_id = ${made.body.id}::uuid`.execute(
        h.push.db,
      );
      expect(rows[0]!.n).toBe(1);
    } finally {
      receiver.answer(() => ({ status: 204 }));
    }
  });
});
