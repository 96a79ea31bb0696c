import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import type { ClientCredentials, TestAuth } from '@secret-push/auth/testing';
import { type TestPush, type TestStack, startStack, startTestWorker } from '@secret-push/push/testing';
import {
  ConnectionError,
  NotFoundError,
  SecretPushError,
  UnauthorizedError,
  WEBHOOK_EVENT_TYPES,
  type SecretPushClient,
  createClient,
  pushReference,
  verifyWebhook,
} from './index.ts';

// The SDK's webhook management (issue 27) against the real services: an auth service, a push API
// that allows http:// endpoints, its worker delivering to 127.0.0.1, and a real receiver in this
// process. Test files of this package run as ES modules, where Jest has no `jest` global: timeouts
// are given per hook and test.
const TIMEOUT = 60_000;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let stack: TestStack;
let auth: TestAuth;
let push: TestPush;
let credentials: ClientCredentials;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
let receiver: { server: Server; url: string; received: Received[] };

async function startReceiver(): Promise<typeof receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

beforeAll(async () => {
  stack = await startStack({ pushEnv: { PUSH_WEBHOOK_ALLOW_HTTP: 'true' } });
  ({ auth, push, credentials } = stack);
  worker = await startTestWorker(push, {
    PUSH_WEBHOOK_ALLOW_HTTP: 'true',
    PUSH_WEBHOOK_ALLOWED_DESTINATIONS: '127.0.0.1',
    PUSH_WEBHOOK_INTERVAL_MS: '100',
  });
  receiver = await startReceiver();
}, TIMEOUT);
afterAll(async () => {
  receiver?.server.closeAllConnections();
  await new Promise((resolve) => receiver?.server.close(resolve));
  await worker?.close();
  await stack?.stop();
}, TIMEOUT);

const clientOf = (c: ClientCredentials, fetchFn?: typeof fetch): SecretPushClient =>
  createClient({
    baseUrl: push.url,
    auth: { clientId: c.client_id, clientSecret: c.client_secret, tokenUrl: `${auth.issuer}/connect/token` },
    ...(fetchFn && { fetch: fetchFn }),
  });

async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

test(
  'create (the secret once), list, get, update, rotate, delete; typed errors',
  async () => {
    const client = clientOf(credentials);
    const made = await client.webhooks.create({
      url: 'https://hooks.example/sdk',
      event_types: ['push.viewed', 'push.viewed'],
    });
    expect(made).toMatchObject({
      url: 'https://hooks.example/sdk',
      event_types: ['push.viewed'],
      enabled: true,
      disabled_reason: null,
      secret: expect.stringMatching(/^whsec_/),
    });
    const listed = await client.webhooks.list();
    expect(listed.map((w) => w.id)).toContain(made.id);
    const shown = await client.webhooks.get(made.id);
    expect(shown).toEqual(listed.find((w) => w.id === made.id));
    expect(JSON.stringify([listed, shown])).not.toContain(made.secret);

    const updated = await client.webhooks.update(made.id, {
      enabled: false,
      event_types: ['push.expired', 'push.created'],
    });
    expect(updated).toMatchObject({
      enabled: false,
      disabled_reason: 'disabled by its owner',
      event_types: ['push.expired', 'push.created'],
    });
    const enabled = await client.webhooks.update(made.id, { enabled: true, url: 'https://hooks.example/2' });
    expect(enabled).toMatchObject({ enabled: true, disabled_reason: null, url: 'https://hooks.example/2' });

    const rotated = await client.webhooks.rotate(made.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(made.secret);
    expect(Date.parse(rotated.previous_secret_expires_at ?? '')).toBeGreaterThan(Date.now() + 23 * 3600_000);

    // Refusals: a 422 names the field and changes nothing; another owner's endpoint is not found;
    // a read-only token may not change; a malformed id is refused before anything is sent.
    for (const [input, field] of [
      [{ url: 'ftp://hooks.example/', event_types: ['push.viewed'] }, 'url'],
      [{ url: 'https://hooks.example/', event_types: [] }, 'event_types'],
    ] as const) {
      const bad = await rejection(client.webhooks.create(input));
      expect(bad).toBeInstanceOf(SecretPushError);
      expect(bad).toMatchObject({ status: 422, kind: 'validation' });
      expect(Object.keys((bad as SecretPushError).fields ?? {})).toEqual([field]);
    }
    expect(await client.webhooks.list()).toHaveLength(listed.length);

    const stranger = clientOf(await auth.createClient('pushes:read pushes:write'));
    for (const call of [
      stranger.webhooks.get(made.id),
      stranger.webhooks.update(made.id, { enabled: false }),
      stranger.webhooks.delete(made.id),
      stranger.webhooks.rotate(made.id),
      stranger.webhooks.test(made.id),
      stranger.webhooks.deliveries(made.id),
      stranger.webhooks.replay(made.id, `msg_${'0'.repeat(32)}`),
    ]) {
      expect(await rejection(call)).toBeInstanceOf(NotFoundError);
    }
    expect(await stranger.webhooks.list()).toEqual([]);
    const readOnly = clientOf(await auth.createClient('pushes:read'));
    const refused = await rejection(readOnly.webhooks.update(made.id, { enabled: false }));
    expect(refused).toBeInstanceOf(UnauthorizedError);
    expect(refused).toMatchObject({ status: 403, kind: 'forbidden' });
    expect(await rejection(client.webhooks.get('../pushes/active'))).toBeInstanceOf(TypeError);
    expect(await rejection(client.webhooks.delivery(made.id, 'a/b'))).toBeInstanceOf(TypeError);

    const deleted = await client.webhooks.delete(made.id);
    expect(deleted.id).toBe(made.id);
    expect(await rejection(client.webhooks.get(made.id))).toBeInstanceOf(NotFoundError);
  },
  TIMEOUT,
);

test(
  'a test event and a push event reach the receiver, verified with verifyWebhook and the standardwebhooks library, across a rotation; the log, one delivery and a replay',
  async () => {
    const client = clientOf(credentials);
    const made = await client.webhooks.create({
      url: `${receiver.url}/sdk-e2e`,
      event_types: [...WEBHOOK_EVENT_TYPES],
    });
    const mine = () => receiver.received.filter((r) => r.path === '/sdk-e2e');

    const test = await client.webhooks.test(made.id);
    expect(test).toMatchObject({
      type: 'webhook.test',
      status: 'pending',
      id: expect.stringMatching(/^msg_/),
    });
    const first = await waitFor(() => mine()[0]);
    expect(first.headers['webhook-id']).toBe(test.id);
    expect((await verifyWebhook(first.headers, first.body, made.secret)).type).toBe('webhook.test');
    new StandardWebhook(made.secret).verify(first.body, first.headers as Record<string, string>);

    // After a rotation both secrets sign; the new one alone verifies, the old one too.
    const rotated = await client.webhooks.rotate(made.id);
    const pushed = await client.create({ payload: 'sdk webhook payload' });
    const event = await waitFor(() => mine().find((r) => r.body.includes('push.created')));
    for (const secret of [rotated.secret, made.secret]) {
      const message = await verifyWebhook<{ push: { ref: string } }>(event.headers, event.body, secret);
      expect(message.type).toBe('push.created');
      expect(message.body.data.push.ref).toBe(await pushReference(pushed.url_token));
      new StandardWebhook(secret).verify(event.body, event.headers as Record<string, string>);
    }
    expect(event.body).not.toContain('sdk webhook payload');
    expect(event.body).not.toContain(pushed.url_token);

    // The log, newest first, both succeeded; one page and every page agree.
    const log = await waitFor(async () => {
      const page = await client.webhooks.deliveries(made.id);
      return page.length === 2 && page.every((d) => d.status === 'succeeded') ? page : undefined;
    });
    expect(log.map((d) => d.type)).toEqual(['push.created', 'webhook.test']);
    expect(log[0]).toMatchObject({ attempts: 1, last_status_code: 204 });
    const all = [];
    for await (const d of client.webhooks.allDeliveries(made.id)) all.push(d);
    expect(all).toEqual(log);
    expect(await client.webhooks.deliveries(made.id, { page: 2 })).toEqual([]);
    expect(await client.webhooks.delivery(made.id, test.id)).toEqual(log[1]);

    // A replay sends the same message again: the same webhook-id, signed afresh.
    const before = mine().length;
    const replayed = await client.webhooks.replay(made.id, test.id);
    expect(replayed).toMatchObject({ id: test.id, status: 'pending', attempts: 0 });
    const again = await waitFor(() => mine()[before]);
    expect(again.headers['webhook-id']).toBe(test.id);
    expect(again.body).toBe(first.body);
    await verifyWebhook(again.headers, again.body, rotated.secret);

    await client.webhooks.delete(made.id);
  },
  TIMEOUT,
);

test(
  'retries: a lost answer repeats an update, never a create or a test',
  async () => {
    // A fetch whose answers to one kind of request are lost once (the server got the request).
    let lose: ((method: string, url: string) => boolean) | undefined;
    const lossy: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const url = input instanceof Request ? input.url : input.toString();
      if (lose?.(init?.method ?? 'GET', url)) {
        lose = undefined;
        await res.body?.cancel();
        throw new TypeError('fetch failed');
      }
      return res;
    };
    const owner = await auth.createClient('pushes:read pushes:write');
    const client = clientOf(owner, lossy);

    lose = (method, url) => method === 'POST' && url.endsWith('/webhooks');
    const created = await rejection(
      client.webhooks.create({ url: 'https://hooks.example/lossy', event_types: ['push.viewed'] }),
    );
    expect(created).toBeInstanceOf(ConnectionError);
    const list = await client.webhooks.list();
    expect(list).toHaveLength(1); // made once, not repeated
    const id = list[0]!.id;

    lose = (method) => method === 'POST';
    expect(await rejection(client.webhooks.test(id))).toBeInstanceOf(ConnectionError);
    expect(await client.webhooks.deliveries(id)).toHaveLength(1);

    lose = (method) => method === 'PATCH';
    expect(await client.webhooks.update(id, { enabled: false })).toMatchObject({ enabled: false });
    expect(lose).toBeUndefined(); // the first answer was lost, the repeat answered
  },
  TIMEOUT,
);
