import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { webhookFanout } from '../domain/webhook-fanout';
import { type Receiver, scriptedResolver, startReceiver } from './support/webhook-receiver';
import { ctx, input, type WebhookWorld, webhookWorld } from './support/webhook-world';

// Webhook delivery end to end on a real database: pushes created, viewed and expired through the
// push service; the worker's own jobs (dispatch-outbox → the webhook fan-out, deliver-webhooks);
// a real HTTP receiver that verifies every message with the `standardwebhooks` library.

const OWNER = 'user:00000000-0000-0000-0000-0000000000a1';
const resolver = scriptedResolver();
let world: WebhookWorld;
let receiver: Receiver;

beforeAll(async () => {
  world = await webhookWorld('webhooks', { resolver });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await world.drop();
});
beforeEach(async () => {
  await sql`truncate push, audit_entry, push_event, webhook_endpoint, webhook_delivery, request cascade`.execute(
    world.db,
  );
  receiver.received.length = 0;
  receiver.answer(() => ({ status: 204 }));
  world.disabled.length = 0;
});

const endpoint = (over: { url?: string; eventTypes?: string[] } = {}) =>
  world.webhooks.create(OWNER, {
    url: over.url ?? receiver.url(),
    eventTypes: (over.eventTypes ?? [
      'push.created',
      'push.viewed',
      'push.expired',
      'push.failed_passphrase',
    ]) as never,
  });

const verified = (secret: string) => (r: Receiver['received'][number]) =>
  new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
    type: string;
    timestamp: string;
    data: never;
  };

async function deliveries() {
  return world.db.selectFrom('webhook_delivery').selectAll().orderBy('created_at').execute();
}

describe('signed messages a standardwebhooks receiver accepts', () => {
  test('created, viewed, expired by views: each signed, the body without any secret', async () => {
    const { secret } = await endpoint();
    const made = await world.pushes.create(input({ note: 'the-note', passphrase: 'the-passphrase' }), {
      owner: OWNER,
      audit: ctx,
    });
    await world.pushes.retrieve(made.urlToken, 'the-passphrase', ctx);
    await world.pushes.retrieve(made.urlToken, 'the-passphrase', ctx);
    await world.work();
    // Sent concurrently: in no guaranteed order (each body has its event's timestamp).
    const bodies = receiver.received
      .map(verified(secret))
      .sort((a, b) => a.timestamp.localeCompare(b.timestamp));
    expect(bodies.map((b) => b.type).sort()).toEqual([
      'push.created',
      'push.expired',
      'push.viewed',
      'push.viewed',
    ]);
    const ref = createHash('sha256').update(made.urlToken).digest('hex').slice(0, 16);
    expect(bodies.every((b) => (b.data as { push: { ref: string } }).push.ref === ref)).toBe(true);
    expect(bodies.find((b) => b.type === 'push.expired')).toMatchObject({
      data: { reason: 'views', push: { views_left: 0, expired: true } },
    });
    for (const r of receiver.received) {
      for (const secretValue of ['the-secret-payload', 'the-note', 'the-passphrase', made.urlToken]) {
        expect(r.body).not.toContain(secretValue);
      }
      expect(r.body).not.toMatch(/payload|passphrase"|note|url_token|file_?name/i);
      expect(r.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(10);
    }
    expect((await deliveries()).every((d) => d.status === 'succeeded' && d.attempts === 1)).toBe(true);
  });

  test('an endpoint gets only the types it asked for; a push of another owner, nothing', async () => {
    await endpoint({ eventTypes: ['push.viewed'] });
    const mine = await world.pushes.create(input(), { owner: OWNER, audit: ctx });
    await world.pushes.create(input(), { owner: 'user:someone-else', audit: ctx });
    await world.pushes.retrieve(mine.urlToken, undefined, ctx);
    await world.work();
    expect(receiver.received.map((r) => (JSON.parse(r.body) as { type: string }).type)).toEqual([
      'push.viewed',
    ]);
  });

  test('across a rotation both secrets sign; after the overlap only the new one', async () => {
    const { endpoint: e, secret: old } = await endpoint();
    const { secret: fresh } = await world.webhooks.rotate(OWNER, e.id);
    await world.pushes.create(input(), { owner: OWNER, audit: ctx });
    await world.work();
    const [during] = receiver.received;
    expect((during!.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    expect(() => verified(old)(during!)).not.toThrow();
    expect(() => verified(fresh)(during!)).not.toThrow();

    await sql`update webhook_endpoint set previous_until = now() - interval '1 second'`.execute(world.db);
    await world.pushes.create(input(), { owner: OWNER, audit: ctx });
    await world.work();
    const after = receiver.received[1]!;
    expect((after.headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
    expect(() => verified(fresh)(after)).not.toThrow();
    expect(() => verified(old)(after)).toThrow();
  });
});

describe('at least once, each message with its stable webhook-id', () => {
  test('the receiver down for a while, then up: every event arrives, ids unchanged', async () => {
    await endpoint();
    await receiver.down();
    for (let i = 0; i < 5; i++) await world.pushes.create(input(), { owner: OWNER, audit: ctx });
    await world.work();
    await world.fastForward();
    await world.work(); // still down: a second attempt each
    let rows = await deliveries();
    expect(rows).toHaveLength(5);
    expect(rows.every((d) => d.status === 'pending' && d.attempts === 2 && d.last_error !== null)).toBe(true);
    // the next attempt waits for the schedule (5 min ± 20 % after the second failure)
    expect(rows.every((d) => d.next_attempt_at.getTime() - Date.now() > 200_000)).toBe(true);

    await receiver.up();
    await world.work(); // not due yet: nothing sent
    expect(receiver.received).toHaveLength(0);
    await world.fastForward();
    await world.work();
    rows = await deliveries();
    expect(rows.every((d) => d.status === 'succeeded' && d.attempts === 3)).toBe(true);
    expect(receiver.received.map((r) => r.headers['webhook-id']).sort()).toEqual(
      rows.map((d) => d.id).sort(),
    );
  });

  test('a worker that dies holding a lease loses nothing: the next delivers it, the late record is refused', async () => {
    await endpoint();
    await world.pushes.create(input(), { owner: OWNER, audit: ctx });
    await world.work(); // delivered once
    const [first] = await deliveries();
    await world.webhooks.replay(OWNER, first!.endpoint_id, first!.id);
    // A worker leases it and dies before sending.
    const [leased] = await world.deliveries.leaseDue(10, 60);
    expect(leased!.id).toBe(first!.id);
    await world.work(); // leased elsewhere: not sent
    expect(receiver.received).toHaveLength(1);
    await world.fastForward(); // the lease runs out
    await world.work();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(first!.id);
    // The dead worker's outcome, arriving late, changes nothing.
    expect(
      await world.deliveries.record(leased!, {
        status: 'failed',
        lastStatus: null,
        lastError: 'late',
        latencyMs: null,
        response: null,
      }),
    ).toBe(false);
    expect((await deliveries())[0]!.status).toBe('succeeded');
  });

  test('workers delivering at once share the due deliveries: each sent once', async () => {
    await endpoint();
    for (let i = 0; i < 12; i++) await world.pushes.create(input(), { owner: OWNER, audit: ctx });
    await world.work(); // fan out and deliver the first round…
    await sql`update webhook_delivery set status = 'pending', attempts = 0, next_attempt_at = now()`.execute(
      world.db,
    );
    receiver.received.length = 0;
    // …then three rounds at once, as three workers would run them (SKIP LOCKED leases).
    await Promise.all(
      [1, 2, 3].map(() => world.delivery.run({ limit: 12, leaseSeconds: 60, concurrency: 4 })),
    );
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
  });

  test('an event handed over twice makes one delivery', async () => {
    const { endpoint: e } = await endpoint();
    const made = await world.pushes.create(input(), { owner: OWNER, audit: ctx });
    const events = await world.db.selectFrom('push_event').selectAll().execute();
    const fanout = webhookFanout({ deliveries: world.deliveries });
    const batch = events.map((ev) => ({
      id: ev.id,
      pushId: ev.push_id,
      requestId: ev.request_id,
      kind: ev.kind as 'creation',
      auditId: ev.audit_id,
      emailId: null,
      at: ev.created_at,
    }));
    await fanout.accept(batch);
    await fanout.accept(batch);
    expect(await world.deliveries.list(e.id, 1)).toHaveLength(1);
    expect(made.snapshot.push.owner).toBe(OWNER);
  });
});

describe('what the receiver answers', () => {
  test('410 disables the endpoint; its later events are not queued, new pushes not listened to', async () => {
    const { endpoint: e } = await endpoint();
    receiver.answer(() => ({ status: 410 }));
    await world.pushes.create(input(), { owner: OWNER, audit: ctx });
    await world.work();
    expect((await deliveries())[0]).toMatchObject({ status: 'failed', last_status: 410 });
    const after = await world.webhooks.get(OWNER, e.id);
    expect(after).toMatchObject({ enabled: false, disabledReason: 'the receiver answered 410 Gone' });
    expect(world.disabled).toHaveLength(1);
    const later = await world.pushes.create(input(), { owner: OWNER, audit: ctx });
    const { outbox } = await world.db
      .selectFrom('push')
      .select('outbox')
      .where('id', '=', later.snapshot.push.id)
      .executeTakeFirstOrThrow();
    expect(outbox).toBe(false);
  });

  test('a redirect is a failure and is not followed', async () => {
    await endpoint();
    receiver.answer((r) =>
      r.path === '/hook'
        ? { status: 302, headers: { location: receiver.url('/elsewhere') } }
        : { status: 204 },
    );
    await world.pushes.create(input(), { owner: OWNER, audit: ctx });
    await world.work();
    expect(receiver.received.map((r) => r.path)).toEqual(['/hook']);
    expect((await deliveries())[0]).toMatchObject({
      status: 'pending',
      last_status: 302,
      last_error: 'HTTP 302 (redirects are not followed)',
    });
  });

  test('Retry-After is honoured; the answer is kept to 4 KiB', async () => {
    await endpoint();
    receiver.answer(() => ({ status: 503, headers: { 'retry-after': '7200' }, body: 'x'.repeat(10_000) }));
    await world.pushes.create(input(), { owner: OWNER, audit: ctx });
    await world.work();
    const [d] = await deliveries();
    expect(d!.next_attempt_at.getTime() - Date.now()).toBeGreaterThan(7000 * 1000);
    expect(d!.response).toHaveLength(4096);
  });

  test('the last attempt of the schedule failing: the delivery fails and the endpoint is disabled', async () => {
    const { endpoint: e } = await endpoint();
    receiver.answer(() => ({ status: 500 }));
    await world.pushes.create(input(), { owner: OWNER, audit: ctx });
    await world.work();
    await sql`update webhook_delivery set attempts = 9, next_attempt_at = now()`.execute(world.db);
    await world.work();
    const [d] = await deliveries();
    expect(d).toMatchObject({ status: 'failed', attempts: 10 });
    expect(d!.last_error).toMatch(/^gave up after 10 attempts: HTTP 500/);
    expect(await world.webhooks.get(OWNER, e.id)).toMatchObject({ enabled: false });
    expect(world.disabled[0]).toContain(e.id);
  });

  test('a manual replay sends the same message again (same webhook-id and body), freshly signed', async () => {
    const { endpoint: e, secret } = await endpoint();
    await world.pushes.create(input(), { owner: OWNER, audit: ctx });
    await world.work();
    const [d] = await deliveries();
    const replayed = await world.webhooks.replay(OWNER, e.id, d!.id);
    expect(replayed).toMatchObject({ id: d!.id, status: 'pending', attempts: 0 });
    await world.work();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(d!.id);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    expect(() => verified(secret)(receiver.received[1]!)).not.toThrow();
  });
});

describe('destinations are checked when sending', () => {
  test('a name that resolves to a refused address is refused at send time, the receiver never reached', async () => {
    resolver.set('metadata.invalid', ['169.254.169.254']);
    await endpoint({ url: `http://metadata.invalid:${receiver.port}/hook` });
    await world.pushes.create(input(), { owner: OWNER, audit: ctx });
    await world.work();
    expect(receiver.received).toHaveLength(0);
    expect((await deliveries())[0]!.last_error).toBe('destination refused: 169.254.169.254 is linkLocal');
  });

  test('a name whose answer changes between check and connect: the connection goes to the checked address', async () => {
    // First answer: the allowed local receiver; any later answer: a refused address. The name does
    // not exist in real DNS (.invalid): a second, real resolution would fail outright.
    resolver.set('rebind.invalid', ['127.0.0.1'], ['10.0.0.1']);
    const before = resolver.lookups.length;
    await endpoint({ url: `http://rebind.invalid:${receiver.port}/hook` });
    await world.pushes.create(input(), { owner: OWNER, audit: ctx });
    await world.work();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.localAddress).toBe('127.0.0.1');
    expect(receiver.received[0]!.headers.host).toBe(`rebind.invalid:${receiver.port}`);
    expect(resolver.lookups.slice(before)).toEqual(['rebind.invalid']);
  });
});
