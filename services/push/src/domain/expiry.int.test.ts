import { randomBytes, randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { freshDatabase, type TestDatabase } from '@secret-push/testing';
import type { PushDatabase } from '../storage/database';
import { pushMigrations } from '../storage/migrations';
import { createPushRepository } from '../storage/push.repository';
import { createExpiry } from './expiry';
import type { NewPushRecord, PushStore } from './ports/push-store';
import type { Push } from './push';
import type { ExpiryReason } from './push-events';

// createExpiry over the real PostgreSQL push repository; the events are a plain recorder.

let database: TestDatabase<PushDatabase>;
let db: Kysely<PushDatabase>;
let store: PushStore;

beforeAll(async () => {
  database = await freshDatabase<PushDatabase>('expiry', pushMigrations);
  db = database.db;
  store = createPushRepository(db);
});
afterAll(() => database.drop());
beforeEach(async () => {
  await sql`truncate push, audit_entry, push_file, upload_intent, file_download, idempotency_key, push_email_batch, push_email, request, request_audit_entry, request_file, request_answer_code`.execute(
    db,
  );
});

const ctx = { ip: null, userAgent: 'expiry-test', referrer: '' };

function recorder() {
  const calls: { id: string; reason: ExpiryReason; expired: boolean }[] = [];
  return {
    calls,
    expired(push: Push, reason: ExpiryReason) {
      calls.push({ id: push.id, reason, expired: push.expired });
    },
  };
}

async function create(over: Partial<NewPushRecord> = {}): Promise<string> {
  const id = randomUUID();
  await store.insert(
    {
      id,
      tokenHash: randomBytes(32),
      tokenSealed: Buffer.from('t'),
      keyId: 'k',
      kind: 'text',
      owner: null,
      name: null,
      payloadSealed: Buffer.from('payload'),
      noteSealed: null,
      passphraseHash: null,
      expireAfterDays: 1,
      expireAfterViews: 5,
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

async function pastWindow(id: string, seconds = 1): Promise<void> {
  await sql`update push set expires_at = now() - make_interval(secs => ${seconds}) where id = ${id}`.execute(
    db,
  );
}

async function expiredIds(): Promise<string[]> {
  const rows = await db.selectFrom('push').select('id').where('expired', '=', true).execute();
  return rows.map((r) => r.id).sort();
}

describe('expireIfPastWindow', () => {
  it('expires a push past its window and announces expired(push, "time") once', async () => {
    const events = recorder();
    const expiry = createExpiry({ store, events });
    const id = await create();
    await pastWindow(id);

    const s = await expiry.expireIfPastWindow(id);
    expect(s?.push).toMatchObject({ id, expired: true });
    expect(events.calls).toEqual([{ id, reason: 'time', expired: true }]);

    expect(await expiry.expireIfPastWindow(id)).toBeUndefined();
    expect(events.calls).toHaveLength(1);
    const audit = await db
      .selectFrom('audit_entry')
      .select('kind')
      .where('push_id', '=', id)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.kind)).toEqual(['creation', 'expire_by_time']);
  });

  it('announces nothing for a push within its window, expired otherwise, or unknown', async () => {
    const events = recorder();
    const expiry = createExpiry({ store, events });
    const live = await create();
    const deleted = await create();
    await store.expireManually(deleted, ctx);
    await pastWindow(deleted);
    expect(await expiry.expireIfPastWindow(live)).toBeUndefined();
    expect(await expiry.expireIfPastWindow(deleted)).toBeUndefined();
    expect(await expiry.expireIfPastWindow(randomUUID())).toBeUndefined();
    expect(events.calls).toEqual([]);
    expect(await expiredIds()).toEqual([deleted]);
  });

  it('waits for an async announcement before returning', async () => {
    let announced = false;
    const expiry = createExpiry({
      store,
      events: {
        async expired() {
          await new Promise((resolve) => setTimeout(resolve, 30));
          announced = true;
        },
      },
    });
    const id = await create();
    await pastWindow(id);
    await expiry.expireIfPastWindow(id);
    expect(announced).toBe(true);
  });
});

describe('expireDue', () => {
  it('expires every push past its window in batches and announces each once', async () => {
    const due: string[] = [];
    for (let i = 0; i < 7; i++) {
      const id = await create();
      await pastWindow(id, 10 + i);
      due.push(id);
    }
    const live = await create();
    const events = recorder();
    const batches = jest.spyOn(store, 'expireDueBatch');
    try {
      const expiry = createExpiry({ store, events });
      const swept = await expiry.expireDue(3);
      expect(swept.map((s) => s.push.id).sort()).toEqual([...due].sort());
      expect(swept.every((s) => s.push.expired)).toBe(true);
      // 3 + 3 + 1: the short batch ends the call
      expect(batches.mock.calls).toEqual([[3], [3], [3]]);
      expect(events.calls.map((c) => c.id).sort()).toEqual([...due].sort());
      expect(events.calls.every((c) => c.reason === 'time' && c.expired)).toBe(true);
      expect(await expiredIds()).toEqual([...due].sort());
      expect(await expiredIds()).not.toContain(live);

      batches.mockClear();
      expect(await expiry.expireDue(3)).toEqual([]);
      expect(batches).toHaveBeenCalledTimes(1);
      expect(events.calls).toHaveLength(7);
    } finally {
      batches.mockRestore();
    }
  });

  it('when a batch comes back full, asks again (and stops on an empty one)', async () => {
    for (let i = 0; i < 4; i++) await pastWindow(await create());
    const events = recorder();
    const batches = jest.spyOn(store, 'expireDueBatch');
    try {
      const swept = await createExpiry({ store, events }).expireDue(2);
      expect(swept).toHaveLength(4);
      expect(batches).toHaveBeenCalledTimes(3);
      expect(events.calls).toHaveLength(4);
    } finally {
      batches.mockRestore();
    }
  });

  it('stops after maxBatches, leaving the rest for the next call', async () => {
    const due: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = await create();
      await pastWindow(id);
      due.push(id);
    }
    const events = recorder();
    const expiry = createExpiry({ store, events });
    expect(await expiry.expireDue(2, { maxBatches: 1 })).toHaveLength(2);
    expect(events.calls).toHaveLength(2);
    expect(await expiredIds()).toHaveLength(2);
    expect(await expiry.expireDue(2)).toHaveLength(3);
    expect(events.calls).toHaveLength(5);
    expect(new Set(events.calls.map((c) => c.id)).size).toBe(5);
    expect(await expiredIds()).toEqual([...due].sort());
  });

  it('stops before the next statement when asked to (shutdown), and announces nothing without events', async () => {
    for (let i = 0; i < 5; i++) await pastWindow(await create());
    const expiry = createExpiry({ store });
    let statements = 0;
    const batches = jest.spyOn(store, 'expireDueBatch');
    try {
      const first = await expiry.expireDue(2, { shouldStop: () => statements++ >= 1 });
      expect(first).toHaveLength(2);
      expect(batches).toHaveBeenCalledTimes(1);
      expect(await expiry.expireDue(2, { shouldStop: () => true })).toEqual([]);
      expect(await expiry.expireDue(2)).toHaveLength(3);
      expect(await expiredIds()).toHaveLength(5);
    } finally {
      batches.mockRestore();
    }
  });
});
