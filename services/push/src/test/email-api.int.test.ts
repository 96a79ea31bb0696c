import request from 'supertest';
import { type MailCatcher, startMailCatcher } from '@secret-push/testing';
import { type Harness, bearer, createPush, createdToken, harness } from './support/helpers';
import { emailRowsOf, personWithToken } from './support/email';

// The email API of issue 26, Password Pusher's compatibility points: the create's email fields
// (validation, echo, who may use them), `notify_emails` (owner only, 5 a minute, 5 per push over its
// life, expired refused, `.json`), the daily cap, `email_auto_dispatch`, the audit's shape.
jest.setTimeout(60_000);

let h: Harness;
let off: Harness;
let catcher: MailCatcher;

beforeAll(async () => {
  catcher = await startMailCatcher();
  h = await harness({
    env: {
      PUSH_SMTP_URL: catcher.url,
      PUSH_MAIL_FROM: 'secret-push <no-reply@example.org>',
      PUSH_EMAIL_DAILY_LIMIT: '12',
    },
  });
  off = await harness();
});
afterAll(async () => {
  await h.stop();
  await off.stop();
  await catcher.close();
});

const api = (hh: Harness = h) => request(hh.push.url);
const notify = (t: string, body: object, token?: string, suffix = '') => {
  const req = api().post(`/api/v2/pushes/${t}/notify_emails${suffix}`);
  if (token) void req.set(bearer(token));
  return req.send(body);
};

describe('version and the document', () => {
  it('say email_auto_dispatch, and document notify_emails, exactly when SMTP is configured', async () => {
    expect((await api().get('/api/v2/version')).body.features.pushes.email_auto_dispatch).toBe(true);
    expect((await api(off).get('/api/v2/version')).body.features.pushes.email_auto_dispatch).toBe(false);
    const path = '/pushes/{url_token}/notify_emails';
    expect(Object.keys((await api().get('/api/v2/openapi')).body.paths)).toContain(path);
    expect(Object.keys((await api(off).get('/api/v2/openapi')).body.paths)).not.toContain(path);
  });
});

describe('POST /pushes with notify_emails_to', () => {
  it('queues one email per recipient and echoes the fields', async () => {
    const res = await createPush(
      h.push.url,
      { payload: 'x', notify_emails_to: 'a@example.org, B@example.org', notify_emails_to_locale: 'en' },
      h.token,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      notify_emails_to: 'a@example.org, B@example.org',
      notify_emails_to_locale: 'en',
    });
    const rows = await emailRowsOf(h.push, res.body.url_token);
    // Rows of one send share its time: their order is not the test's business (the audit's is).
    expect(rows.map((r) => [r.recipient, r.purpose, r.locale]).sort()).toEqual([
      ['B@example.org', 'push_link', 'en'],
      ['a@example.org', 'push_link', 'en'],
    ]);
    const audit = await api().get(`/api/v2/pushes/${res.body.url_token}/audit`).set(bearer(h.token));
    expect(audit.body.logs.map((l: { kind: string }) => l.kind)).toEqual(['creation', 'creation_email_send']);
    expect(audit.body.logs[1].notify_by_email).toMatchObject({
      recipients: 'a@example.org,B@example.org',
      locale: 'en',
      status: 'pending',
      successful_sends: '',
      error_message: null,
      recipients_count: 2,
    });
    expect(audit.body.logs[1].email_deliveries).toEqual([
      expect.objectContaining({ recipient: 'a@example.org', status: 'queued', attempts: 0, detail: null }),
      expect.objectContaining({ recipient: 'B@example.org', status: 'queued', attempts: 0, detail: null }),
    ]);
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['a bad address', { notify_emails_to: 'a@example.org, nope' }, 'notify_emails_to', 'invalid'],
    ['a duplicate', { notify_emails_to: 'a@example.org, A@EXAMPLE.org' }, 'notify_emails_to', 'duplicate'],
    ['a trailing comma', { notify_emails_to: 'a@example.org,' }, 'notify_emails_to', 'empty address'],
    [
      'six addresses',
      { notify_emails_to: [1, 2, 3, 4, 5, 6].map((i) => `r${i}@example.org`).join(',') },
      'notify_emails_to',
      'at most 5',
    ],
    [
      'an unknown locale',
      { notify_emails_to: 'a@example.org', notify_emails_to_locale: 'xx' },
      'notify_emails_to_locale',
      'is not available',
    ],
    ['notices from a client token', { notify_owner_on: ['view'] }, 'notify_owner_on', 'only for a person'],
    ['an unknown notice', { notify_owner_on: ['viewed'] }, 'notify_owner_on', 'must be a list'],
    [
      'the sender named by a client',
      { notify_emails_to: 'a@example.org', notify_emails_include_sender: true },
      'notify_emails_include_sender',
      'verified',
    ],
  ])('refuses %s with 422, creating nothing', async (_case, fields, field, words) => {
    const res = await createPush(h.push.url, { payload: 'x', ...fields }, h.token);
    expect(res.status).toBe(422);
    expect(res.body.fields[field].join(' ')).toContain(words);
  });

  it('refuses an anonymous create with recipients, and any create where email is off', async () => {
    const anonymous = await createPush(h.push.url, { payload: 'x', notify_emails_to: 'a@example.org' });
    expect(anonymous.status).toBe(422);
    expect(anonymous.body.fields.notify_emails_to).toEqual(['are not allowed for unknown users']);
    const emailOff = await createPush(
      off.push.url,
      { payload: 'x', notify_emails_to: 'a@example.org' },
      off.token,
    );
    expect(emailOff.status).toBe(422);
    expect(emailOff.body.fields.notify_emails_to).toEqual(['Email is not available on this instance.']);
  });

  it('takes the fields from a form too', async () => {
    const res = await api()
      .post('/api/v2/pushes')
      .set(bearer(h.token))
      .type('form')
      .send({ 'push[payload]': 'x', 'push[notify_emails_to]': 'form@example.org' });
    expect(res.status).toBe(201);
    expect(res.body.notify_emails_to).toBe('form@example.org');
  });
});

describe('owner notices on create', () => {
  it('are for a person with a verified address; echoed; account defaults apply when not sent', async () => {
    const person = await personWithToken(h.push);
    const res = await createPush(
      h.push.url,
      { payload: 'x', notify_owner_on: 'view,expired_unseen' },
      person.token,
    );
    expect(res.status).toBe(201);
    expect(res.body.notify_owner_on).toEqual(['view', 'expired_unseen']);
    const plain = await createPush(h.push.url, { payload: 'x' }, person.token);
    expect(plain.body.notify_owner_on).toBeUndefined();

    const unverified = await personWithToken(h.push, { verified: false });
    const refused = await createPush(
      h.push.url,
      { payload: 'x', notify_owner_on: ['view'] },
      unverified.token,
    );
    expect(refused.status).toBe(422);
  });
});

describe('POST /pushes/:url_token/notify_emails', () => {
  it('queues for the owner (201, .json too) and refuses others: 401 empty, 403', async () => {
    const t = await createdToken(h.push.url, { payload: 'x' }, h.token);
    const ok = await notify(t, { notify_emails_to: 'n1@example.org' }, h.token, '.json');
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual({ message: 'Recipient(s) are added to the queue to be sent.' });
    expect((await emailRowsOf(h.push, t)).map((r) => r.recipient)).toEqual(['n1@example.org']);

    const anonymous = await notify(t, { notify_emails_to: 'n2@example.org' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).toBe('');
    const other = await personWithToken(h.push);
    const forbidden = await notify(t, { notify_emails_to: 'n2@example.org' }, other.token);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toBe("That push doesn't belong to you.");
  });

  it('allows 5 recipients per push over its life', async () => {
    const t = await createdToken(
      h.push.url,
      { payload: 'x', notify_emails_to: 'l1@example.org,l2@example.org' },
      h.token,
    );
    expect((await notify(t, { notify_emails_to: 'l3@example.org,l4@example.org' }, h.token)).status).toBe(
      201,
    );
    const over = await notify(t, { notify_emails_to: 'l5@example.org,l6@example.org' }, h.token);
    expect(over.status).toBe(422);
    expect(over.body.fields.notify_emails_to[0]).toContain('at most 5 recipients over the life of a push');
    expect(await emailRowsOf(h.push, t)).toHaveLength(4);
  });

  it('refuses an expired push (422) and is 404 where email is off', async () => {
    const t = await createdToken(h.push.url, { payload: 'x' }, h.token);
    await api().delete(`/api/v2/pushes/${t}`).set(bearer(h.token));
    const expired = await notify(t, { notify_emails_to: 'e@example.org' }, h.token);
    expect(expired.status).toBe(422);
    expect(expired.body.fields.notify_emails_to).toEqual(['are not available for expired pushes']);
    const t2 = await createdToken(off.push.url, { payload: 'x' }, off.token);
    const res = await request(off.push.url)
      .post(`/api/v2/pushes/${t2}/notify_emails`)
      .set(bearer(off.token))
      .send({ notify_emails_to: 'e@example.org' });
    expect(res.status).toBe(404);
  });

  it('answers 429 after 5 calls a minute per user', async () => {
    const person = await personWithToken(h.push);
    const t = await createdToken(h.push.url, { payload: 'x' }, person.token);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await notify(t, { notify_emails_to: `bad-${i}` }, person.token)).status);
    }
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
    const last = await notify(t, { notify_emails_to: 'r@example.org' }, person.token);
    expect(last.status).toBe(429);
    expect(last.body).toMatchObject({
      error: 'Too many email notification requests. Please try again in a minute.',
    });
  });
});

describe('the daily cap (12 here)', () => {
  it('counts queued and sent links, not failed ones; over it → 429 and nothing written', async () => {
    const person = await personWithToken(h.push);
    const to = (n: number, p: string) =>
      Array.from({ length: n }, (_, i) => `${p}${i}@example.org`).join(',');
    for (const p of ['c', 'd']) {
      expect(
        (await createPush(h.push.url, { payload: 'x', notify_emails_to: to(5, p) }, person.token)).status,
      ).toBe(201);
    }
    const over = await createPush(h.push.url, { payload: 'x', notify_emails_to: to(3, 'e') }, person.token);
    expect(over.status).toBe(429);
    expect(over.body.error).toContain('limit of 12 emails in 24 hours');
    const { rows } = await h.push.db
      .selectFrom('push')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('owner', '=', `user:${person.userId}`)
      .execute()
      .then((r) => ({ rows: r }));
    expect(Number(rows[0]!.n)).toBe(2);
    // Failed sends do not count.
    await h.push.db
      .updateTable('push_email')
      .set({ status: 'failed' })
      .where('owner', '=', `user:${person.userId}`)
      .where('recipient', 'like', 'c%')
      .execute();
    expect(
      (await createPush(h.push.url, { payload: 'x', notify_emails_to: to(3, 'f') }, person.token)).status,
    ).toBe(201);
  });
});
