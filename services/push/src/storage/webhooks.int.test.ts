import { randomBytes, randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { freshDatabase, type TestDatabase } from '@secret-push/testing';
import type { NewPushRecord, PushStore } from '../domain/ports/push-store';
import type { WebhookEndpointStore } from '../domain/ports/webhook-store';
import type { PushDatabase } from './database';
import { pushMigrations } from './migrations';
import { createPushRepository } from './push.repository';
import { createWebhookEndpointRepository } from './webhook-endpoint.repository';

// Who listens: a push is created with `outbox` when its owner has an enabled endpoint (decided by
// the insert statement itself), and an endpoint created or enabled marks its owner's active pushes.

let database: TestDatabase<PushDatabase>;
let db: Kysely<PushDatabase>;
let store: PushStore;
let endpoints: WebhookEndpointStore;
const ctx = { ip: null, userAgent: 'webhooks-storage-test', referrer: '' };
const A = 'user:00000000-0000-0000-0000-0000000000aa';
const B = 'client:other';

beforeAll(async () => {
  database = await freshDatabase<PushDatabase>('webhooks_storage', pushMigrations);
  db = database.db;
  store = createPushRepository(db);
  endpoints = createWebhookEndpointRepository(db);
});
afterAll(() => database.drop());
beforeEach(async () => {
  await sql`truncate push, audit_entry, push_event, webhook_endpoint, webhook_delivery, request cascade`.execute(
    db,
  );
});

async function create(owner: string | null, over: Partial<NewPushRecord> = {}): Promise<string> {
  const id = randomUUID();
  await store.insert(
    {
      id,
      tokenHash: randomBytes(32),
      tokenSealed: Buffer.from('t'),
      keyId: 'k',
      kind: 'text',
      owner,
      name: null,
      payloadSealed: Buffer.from('p'),
      noteSealed: null,
      passphraseHash: null,
      expireAfterDays: 1,
      expireAfterViews: 2,
      ttlSeconds: 86_400,
      deletableByViewer: null,
      retrievalStep: false,
      outbox: false,
      ...over,
    },
    ctx,
  );
  return id;
}

const outboxOf = async (id: string) =>
  (await db.selectFrom('push').select('outbox').where('id', '=', id).executeTakeFirstOrThrow()).outbox;
const eventsOf = async (id: string) =>
  (await db.selectFrom('push_event').select('kind').where('push_id', '=', id).execute()).map((e) => e.kind);

const endpoint = (owner: string, enabled = true) =>
  endpoints.create(
    {
      id: randomUUID(),
      owner,
      url: 'https://hooks.example/x',
      eventTypes: ['push.viewed'],
      enabled,
      secret: { keyId: 'k', data: Buffer.from('sealed') },
    },
    10,
  );

test('without an endpoint: no outbox, no event (unless another listener asked)', async () => {
  const id = await create(A);
  expect(await outboxOf(id)).toBe(false);
  expect(await eventsOf(id)).toEqual([]);
  expect(await outboxOf(await create(A, { outbox: true }))).toBe(true);
  expect(await outboxOf(await create(null))).toBe(false);
});

test("an enabled endpoint: the owner's new pushes want events, written by the insert itself", async () => {
  await endpoint(A);
  const mine = await create(A);
  expect(await outboxOf(mine)).toBe(true);
  expect(await eventsOf(mine)).toEqual(['creation']);
  expect(await outboxOf(await create(B))).toBe(false);
  expect(await outboxOf(await create(null))).toBe(false);
});

test('an endpoint created disabled marks nothing and listens to nothing until enabled', async () => {
  const C = 'user:00000000-0000-0000-0000-0000000000cc';
  const before = await create(C);
  const made = await endpoint(C, false);
  if (made === 'limit') throw new Error('limit');
  expect(made).toMatchObject({ enabled: false, disabledReason: 'disabled by its owner' });
  const after = await create(C);
  expect([await outboxOf(before), await outboxOf(after)]).toEqual([false, false]);
  await endpoints.update(C, made.id, { enabled: true });
  expect([await outboxOf(before), await outboxOf(after)]).toEqual([true, true]);
});

test("creating an endpoint marks the owner's active pushes, not expired ones nor another owner's", async () => {
  const active = await create(A);
  const expired = await create(A);
  await store.expireManually(expired, ctx);
  const other = await create(B);
  await endpoint(A);
  expect(await outboxOf(active)).toBe(true);
  expect(await outboxOf(expired)).toBe(false);
  expect(await outboxOf(other)).toBe(false);
});

test('a disabled endpoint listens to nothing; enabling it again marks the active pushes', async () => {
  const made = await endpoint(A);
  if (made === 'limit') throw new Error('limit');
  expect(await endpoints.disable(made.id, 'the receiver answered 410 Gone', { notifyOwner: true })).toEqual({
    disabled: true,
    noticeQueued: false, // A is not a person with a verified address
  });
  expect(await endpoints.disable(made.id, 'again', { notifyOwner: true })).toMatchObject({ disabled: false });
  const later = await create(A);
  expect(await outboxOf(later)).toBe(false);
  const enabled = await endpoints.update(A, made.id, { enabled: true });
  expect(enabled).toMatchObject({ enabled: true, disabledReason: null });
  expect(await outboxOf(later)).toBe(true);
});

test('the limit per owner holds under concurrent creates', async () => {
  const results = await Promise.all(Array.from({ length: 14 }, () => endpoint(A)));
  expect(results.filter((r) => r === 'limit')).toHaveLength(4);
  expect(await endpoints.list(A)).toHaveLength(10);
});

test("every call is scoped by owner: another owner's endpoint is not found", async () => {
  const made = await endpoint(A);
  if (made === 'limit') throw new Error('limit');
  expect(await endpoints.find(B, made.id)).toBeUndefined();
  expect(await endpoints.update(B, made.id, { enabled: false })).toBeUndefined();
  expect(await endpoints.remove(B, made.id)).toBe(false);
  expect(await endpoints.find(A, made.id)).toMatchObject({ enabled: true });
});

test("removeAllOf deletes an owner's endpoints and their deliveries, nobody else's", async () => {
  const mine = await endpoint(A);
  const theirs = await endpoint(B);
  if (mine === 'limit' || theirs === 'limit') throw new Error('limit');
  await sql`insert into webhook_delivery (endpoint_id, event_id, type, body)
    values (${mine.id}, gen_random_uuid(), 'webhook.test', '{}'), (${theirs.id}, gen_random_uuid(), 'webhook.test', '{}')`.execute(
    db,
  );
  expect(await endpoints.removeAllOf(A)).toBe(1);
  expect(await endpoints.list(A)).toEqual([]);
  expect(await endpoints.list(B)).toHaveLength(1);
  const left = await db.selectFrom('webhook_delivery').select('endpoint_id').execute();
  expect(left.map((d) => d.endpoint_id)).toEqual([theirs.id]);
});
