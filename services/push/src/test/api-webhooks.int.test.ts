import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { type WorkerService } from '../worker-server';
import { startTestWorker } from '../testing';
import { type Harness, bearer, createdToken, harness } from './support/helpers';
import { type Receiver, startReceiver } from './support/webhook-receiver';

// /api/v2/webhooks against the real auth service, the push API and its worker in-process, and a
// real receiver: management, validation, ownership, the secret shown once, and delivery end to end.

let h: Harness;
let worker: WorkerService;
let receiver: Receiver;
let otherToken: string;
let readOnlyToken: string;

beforeAll(async () => {
  h = await harness({ env: { PUSH_WEBHOOK_ALLOW_HTTP: 'true' } });
  worker = await startTestWorker(h.push, {
    PUSH_WEBHOOK_ALLOW_HTTP: 'true',
    PUSH_WEBHOOK_ALLOWED_DESTINATIONS: '127.0.0.1',
    PUSH_WEBHOOK_INTERVAL_MS: '100',
  });
  receiver = await startReceiver();
  otherToken = await h.auth.token(await h.auth.createClient('pushes:read pushes:write'));
  readOnlyToken = await h.auth.token(await h.auth.createClient('pushes:read'));
});
afterAll(async () => {
  await receiver.close();
  await worker.close();
  await h.stop();
});

const api = () => request(h.push.url);
const create = (body: unknown, token = h.token) =>
  api()
    .post('/api/v2/webhooks')
    .set(bearer(token))
    .send(body as object);

async function waitFor<T>(probe: () => T | undefined, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('managing endpoints', () => {
  it('create (201, the secret once), list, show, update, rotate, delete; .json suffixes too', async () => {
    const made = await create({
      url: 'https://hooks.example/a',
      event_types: ['push.viewed', 'push.viewed'],
    });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      id: expect.any(String),
      url: 'https://hooks.example/a',
      event_types: ['push.viewed'],
      enabled: true,
      disabled_reason: null,
      previous_secret_expires_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const id = made.body.id as string;
    const secret = made.body.secret as string;

    const list = await api().get('/api/v2/webhooks.json').set(bearer(h.token));
    expect(list.status).toBe(200);
    expect(list.body.map((e: { id: string }) => e.id)).toContain(id);
    const shown = await api().get(`/api/v2/webhooks/${id}.json`).set(bearer(h.token));
    expect(shown.status).toBe(200);
    expect(JSON.stringify([list.body, shown.body])).not.toContain(secret);
    expect(shown.body).not.toHaveProperty('secret');

    const updated = await api()
      .patch(`/api/v2/webhooks/${id}`)
      .set(bearer(h.token))
      .send({ enabled: false, event_types: ['push.expired', 'push.created'] });
    expect(updated.body).toMatchObject({
      enabled: false,
      disabled_reason: 'disabled by its owner',
      event_types: ['push.expired', 'push.created'],
    });

    const rotated = await api().post(`/api/v2/webhooks/${id}/rotate`).set(bearer(h.token));
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(secret);
    const overlap = Date.parse(rotated.body.previous_secret_expires_at as string) - Date.now();
    expect(overlap).toBeGreaterThan(23.9 * 3600_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3600_000);

    const deleted = await api().delete(`/api/v2/webhooks/${id}.json`).set(bearer(h.token));
    expect(deleted.status).toBe(200);
    expect((await api().get(`/api/v2/webhooks/${id}`).set(bearer(h.token))).status).toBe(404);
  });

  it.each<[string, unknown, number, string]>([
    ['not an object', '"x"', 400, 'bad_request'],
    ['an array', [], 400, 'bad_request'],
    ['no url', { event_types: ['push.viewed'] }, 422, 'url'],
    ['ftp', { url: 'ftp://hooks.example/', event_types: ['push.viewed'] }, 422, 'url'],
    ['a relative URL', { url: '/hook', event_types: ['push.viewed'] }, 422, 'url'],
    ['credentials', { url: 'https://u:p@hooks.example/', event_types: ['push.viewed'] }, 422, 'url'],
    ['a fragment', { url: 'https://hooks.example/#x', event_types: ['push.viewed'] }, 422, 'url'],
    [
      'too long',
      { url: `https://hooks.example/${'a'.repeat(2100)}`, event_types: ['push.viewed'] },
      422,
      'url',
    ],
    ['no types', { url: 'https://hooks.example/', event_types: [] }, 422, 'event_types'],
    ['an unknown type', { url: 'https://hooks.example/', event_types: ['push.eaten'] }, 422, 'event_types'],
    ['a number as url', { url: 5, event_types: ['push.viewed'] }, 422, 'url'],
    [
      'an unknown field',
      { url: 'https://hooks.example/', event_types: ['push.viewed'], secret: 'x' },
      422,
      'secret',
    ],
    // found by the hostile-input suite: fields named like Object.prototype members (were a 500)
    [
      'a field named constructor',
      JSON.parse('{"url":"https://hooks.example/","event_types":["push.viewed"],"constructor":1}'),
      422,
      'constructor',
    ],
    [
      'a field named __proto__',
      JSON.parse('{"url":"https://hooks.example/","event_types":["push.viewed"],"__proto__":1}'),
      422,
      '__proto__',
    ],
  ])('refuses %s, changing nothing', async (_name, body, status, field) => {
    const before = (await api().get('/api/v2/webhooks').set(bearer(h.token))).body.length as number;
    const res =
      typeof body === 'string'
        ? await api().post('/api/v2/webhooks').set(bearer(h.token)).type('json').send(body)
        : await create(body);
    expect(res.status).toBe(status);
    if (status === 422) expect(Object.keys(res.body.fields as object)).toContain(field);
    else expect(res.body.code).toBe(field);
    expect((await api().get('/api/v2/webhooks').set(bearer(h.token))).body).toHaveLength(before);
  });

  it('refuses a form body (415) and an empty update (422)', async () => {
    const form = await api().post('/api/v2/webhooks').set(bearer(h.token)).type('form').send('url=x');
    expect(form.status).toBe(415);
    const made = await create({ url: 'https://hooks.example/b', event_types: ['push.viewed'] });
    const empty = await api()
      .patch(`/api/v2/webhooks/${made.body.id as string}`)
      .set(bearer(h.token))
      .send({});
    expect(empty.status).toBe(422);
    await api()
      .delete(`/api/v2/webhooks/${made.body.id as string}`)
      .set(bearer(h.token));
  });

  it("another owner's endpoint is not found; a read-only token cannot change; no token is 401", async () => {
    const made = await create({ url: 'https://hooks.example/c', event_types: ['push.viewed'] });
    const id = made.body.id as string;
    const base = `/api/v2/webhooks/${id}`;
    const msg = `msg_${'0'.repeat(32)}`;
    const others = [
      api().get(base),
      api().patch(base).send({ enabled: false }),
      api().delete(base),
      api().post(`${base}/rotate`),
      api().post(`${base}/test`),
      api().get(`${base}/deliveries`),
      api().get(`${base}/deliveries/${msg}`),
      api().post(`${base}/deliveries/${msg}/replay`),
    ];
    for (const call of others) {
      const res = await call.set(bearer(otherToken));
      expect([res.status, res.body.code]).toEqual([404, 'not_found']);
    }
    expect((await api().get('/api/v2/webhooks').set(bearer(otherToken))).body).toEqual([]);
    const ro = await api().patch(base).set(bearer(readOnlyToken)).send({ enabled: false });
    expect([ro.status, ro.body.code]).toEqual([403, 'insufficient_scope']);
    expect((await api().get('/api/v2/webhooks')).status).toBe(401);
    expect((await api().get('/api/v2/webhooks/not-a-uuid').set(bearer(h.token))).status).toBe(404);
    const still = await api().get(base).set(bearer(h.token));
    expect(still.body).toMatchObject({ enabled: true });
    await api().delete(base).set(bearer(h.token));
  });

  it('at most 10 endpoints per owner', async () => {
    const token = await h.auth.token(await h.auth.createClient('pushes:read pushes:write'));
    for (let i = 0; i < 10; i++) {
      expect(
        (await create({ url: `https://hooks.example/${i}`, event_types: ['push.viewed'] }, token)).status,
      ).toBe(201);
    }
    const over = await create({ url: 'https://hooks.example/x', event_types: ['push.viewed'] }, token);
    expect([over.status, over.body.code]).toEqual([422, 'validation_failed']);
  });
});

describe('delivery through the worker', () => {
  it('push events and a test event reach the receiver, signed; the log shows them; a replay resends the same message', async () => {
    const made = await create({
      url: receiver.url('/api-e2e'),
      event_types: ['push.created', 'push.viewed'],
    });
    const { id, secret } = made.body as { id: string; secret: string };
    const verify = (r: Receiver['received'][number]) =>
      new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as { type: string };
    const token = await createdToken(
      h.push.url,
      { payload: 'api-e2e-payload', note: 'api-e2e-note' },
      h.token,
    );
    await api().get(`/api/v2/pushes/${token}`);
    const test = await api().post(`/api/v2/webhooks/${id}/test`).set(bearer(h.token));
    expect(test.status).toBe(202);
    expect(test.body).toMatchObject({
      type: 'webhook.test',
      status: 'pending',
      id: expect.stringMatching(/^msg_/),
    });

    const mine = () => receiver.received.filter((r) => r.path === '/api-e2e');
    await waitFor(() => (mine().length >= 3 ? true : undefined));
    expect(
      mine()
        .map(verify)
        .map((b) => b.type)
        .sort(),
    ).toEqual(['push.created', 'push.viewed', 'webhook.test']);
    for (const r of mine()) {
      expect(r.body).not.toContain('api-e2e-payload');
      expect(r.body).not.toContain('api-e2e-note');
      expect(r.body).not.toContain(token);
    }

    // The receiver may have the last message before the worker has recorded its answer.
    const allSucceeded = (body: { status: string; last_status_code: number }[]) =>
      body.length === 3 && body.every((d) => d.status === 'succeeded' && d.last_status_code === 204);
    let log = await api().get(`/api/v2/webhooks/${id}/deliveries`).set(bearer(h.token));
    for (let i = 0; i < 50 && !allSucceeded(log.body); i++) {
      await new Promise((r) => setTimeout(r, 100));
      log = await api().get(`/api/v2/webhooks/${id}/deliveries`).set(bearer(h.token));
    }
    expect(log.status).toBe(200);
    expect(log.body).toHaveLength(3);
    expect(allSucceeded(log.body)).toBe(true);

    const one = log.body[0] as { id: string };
    const replay = await api()
      .post(`/api/v2/webhooks/${id}/deliveries/${one.id}/replay.json`)
      .set(bearer(h.token));
    expect(replay.status).toBe(202);
    await waitFor(() => (mine().length >= 4 ? true : undefined));
    expect(mine()[3]!.headers['webhook-id']).toBe(one.id);
    const shown = await api().get(`/api/v2/webhooks/${id}/deliveries/${one.id}`).set(bearer(h.token));
    expect(shown.body).toMatchObject({ id: one.id, status: 'succeeded', attempts: 1 });

    // The worker's metrics: attempts by outcome, and their latency.
    const metrics = await (await fetch(`${worker.url}/metrics`)).text();
    const succeeded = /^push_webhook_attempts_total\{outcome="succeeded"\} (\d+)$/m.exec(metrics);
    expect(Number(succeeded?.[1])).toBeGreaterThanOrEqual(4);
    expect(metrics).toMatch(/^push_webhook_attempt_seconds_count \d+$/m);
    expect(metrics).toMatch(/^push_webhook_endpoints_disabled_total 0$/m);
  });
});
