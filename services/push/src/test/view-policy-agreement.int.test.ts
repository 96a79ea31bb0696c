import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { freshDatabase, type TestDatabase } from '@secret-push/testing';
import { VIEW_CASES } from '../domain/view-policy.cases';
import { canView, consumeView } from '../domain/view-policy';
import type { PushDatabase } from '../storage/database';
import { pushMigrations } from '../storage/migrations';
import { claimView } from '../storage/push.repository';

let database: TestDatabase<PushDatabase>;
beforeAll(async () => {
  database = await freshDatabase<PushDatabase>('agree', pushMigrations);
});
afterAll(() => database.drop());

const ctx = { ip: '192.0.2.1', userAgent: 'agreement-test', referrer: '' };

/** The two encodings of the view rule (domain/view-policy.ts and the SQL claim) agree on every case. */
describe('view policy: pure module and SQL agree', () => {
  it.each(VIEW_CASES)('$name', async (c) => {
    const id = randomUUID();
    const tokenHash = Buffer.from(id.replace(/-/g, ''), 'hex');
    const live = !c.expired;
    await sql`
      insert into push (id, token_hash, token_sealed, key_id, kind, payload_sealed, expire_after_days,
                        expire_after_views, views, expires_at, retrieval_step, expired, deleted, expired_on)
      values (${id}, ${tokenHash}, ${Buffer.from('t')}, 'k', 'text', ${live ? Buffer.from('sealed') : null}, 1,
              ${c.expireAfterViews}, ${c.views}, now() + make_interval(secs => ${c.windowLeftMs / 1000}), true,
              ${c.expired}, ${c.deleted}, ${c.expired ? sql`now()` : null})`.execute(database.db);

    const claimed = await claimView(database.db, tokenHash, ctx, false, 600);

    // The pure module judges the same state at the statement's clock.
    const now =
      claimed?.now ?? (await sql<{ now: Date }>`select now() as now`.execute(database.db)).rows[0]!.now;
    const { rows } = await sql<{ expires_at: Date }>`select expires_at from push where id = ${id}`.execute(
      database.db,
    );
    const state = {
      views: c.views,
      expireAfterViews: c.expireAfterViews,
      expiresAt: rows[0]!.expires_at,
      expired: c.expired,
      deleted: c.deleted,
    };
    const check = canView(state, now);
    expect(check.ok).toBe(claimed !== undefined);
    expect(check.ok).toBe(c.expect.ok);
    if (claimed) {
      const { next, burned } = consumeView(state, now);
      expect(claimed.push.views).toBe(next.views);
      expect(claimed.push.expired).toBe(burned);
      expect(claimed.payloadSealed).toEqual(Buffer.from('sealed'));
      const after = await sql<{
        payload_sealed: Buffer | null;
      }>`select payload_sealed from push where id = ${id}`.execute(database.db);
      expect(after.rows[0]!.payload_sealed).toEqual(burned ? null : Buffer.from('sealed'));
    }
  });
});
