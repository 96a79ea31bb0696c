import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { freshDatabase, type TestDatabase } from '@secret-push/testing';
import { VIEW_CASES, type ViewCase } from '../domain/view-policy.cases';
import { canView, consumeView, isPastWindow, viewsRemaining } from '../domain/view-policy';
import type { PushDatabase } from './database';
import { pushMigrations } from './migrations';
import { claimStatement } from './push/claim.sql';
import { visitStatement } from './push/visit.sql';
import { hasViewsLeft, instant, isLastView, pastWindow, viewable, withinWindow } from './view-rule.sql';

let database: TestDatabase<PushDatabase>;
beforeAll(async () => {
  database = await freshDatabase<PushDatabase>('agree', pushMigrations);
});
afterAll(() => database.drop());

const ctx = { ip: '192.0.2.1', userAgent: 'agreement-test', referrer: '' };

/** The instant every case is judged at, bound as a parameter: boundaries are exact on both sides. */
const AT = new Date('2031-05-06T07:08:09.123Z');

async function insertCase(c: ViewCase): Promise<{ id: string; tokenHash: Buffer }> {
  const id = randomUUID();
  const tokenHash = Buffer.from(id.replace(/-/g, ''), 'hex');
  const live = !c.expired;
  const expiresAt = new Date(AT.getTime() + c.windowLeftMs);
  await sql`
    insert into push (id, token_hash, token_sealed, key_id, kind, payload_sealed, expire_after_days,
                      expire_after_views, views, expires_at, retrieval_step, expired, deleted, expired_on)
    values (${id}, ${tokenHash}, ${Buffer.from('t')}, 'k', 'text', ${live ? Buffer.from('sealed') : null}, 1,
            ${c.expireAfterViews}, ${c.views}, ${expiresAt}, true,
            ${c.expired}, ${c.deleted}, ${c.expired ? AT : null})`.execute(database.db);
  return { id, tokenHash };
}

const stateOf = (c: ViewCase) => ({
  views: c.views,
  expireAfterViews: c.expireAfterViews,
  expiresAt: new Date(AT.getTime() + c.windowLeftMs),
  expired: c.expired,
  deleted: c.deleted,
});

/** The two encodings of the view rule (domain/view-policy.ts and view-rule.sql.ts) agree on every case. */
describe('view rule: every SQL predicate agrees with the pure module at an exact instant', () => {
  it.each(VIEW_CASES)('$name', async (c) => {
    const { id } = await insertCase(c);
    const at = instant(AT);
    const { rows } = await sql<{
      viewable: boolean;
      past_window: boolean;
      within_window: boolean;
      views_left: boolean;
      last_view: boolean;
    }>`
      select ${viewable(at)} as viewable, ${pastWindow(at)} as past_window, ${withinWindow(at)} as within_window,
             ${hasViewsLeft()} as views_left, ${isLastView()} as last_view
      from push where id = ${id}`.execute(database.db);
    const sqlSays = rows[0]!;
    const state = stateOf(c);
    const check = canView(state, AT);

    expect(check.ok).toBe(c.expect.ok);
    expect(sqlSays.viewable).toBe(check.ok);
    expect(sqlSays.within_window).toBe(!isPastWindow(state, AT));
    expect(sqlSays.past_window).toBe(!c.expired && isPastWindow(state, AT));
    expect(sqlSays.views_left).toBe(viewsRemaining(state) > 0);
    if (check.ok) expect(sqlSays.last_view).toBe(consumeView(state, AT).burned);
  });
});

describe('view rule: the visit statement claims exactly when the pure module allows a view', () => {
  it.each(VIEW_CASES)('$name', async (c) => {
    const { id, tokenHash } = await insertCase(c);
    const visit = await visitStatement(
      database.db,
      {
        tokenHash,
        ctx,
        mode: 'view',
        passphraseVerified: false,
        likelyViewable: false,
        fileGraceSeconds: 600,
        maxAuditEntries: 2000,
      },
      instant(AT),
    );
    const state = stateOf(c);
    const check = canView(state, AT);
    expect(visit).toBeDefined();
    expect(visit!.outcome === 'viewed').toBe(check.ok);
    expect(check.ok).toBe(c.expect.ok);
    if (visit!.outcome === 'viewed') {
      const { next, burned } = consumeView(state, AT);
      expect(visit!.snapshot.push.views).toBe(next.views);
      expect(visit!.snapshot.push.expired).toBe(burned);
      expect(visit!.payloadSealed).toEqual(Buffer.from('sealed'));
      const after = await sql<{
        payload_sealed: Buffer | null;
      }>`select payload_sealed from push where id = ${id}`.execute(database.db);
      expect(after.rows[0]!.payload_sealed).toEqual(burned ? null : Buffer.from('sealed'));
    } else {
      // A refusal counts nothing; a push found past its window is expired by it, at that instant.
      expect(visit!.snapshot.push.views).toBe(c.views);
      expect(visit!.snapshot.push.expired).toBe(c.expired || isPastWindow(state, AT));
      expect(visit!.outcome === 'refused' && visit!.expiredByTime).toBe(
        !c.expired && isPastWindow(state, AT),
      );
    }
  });
});

describe('view rule: the lean claim statement claims exactly when the pure module allows a view', () => {
  it.each(VIEW_CASES)('$name', async (c) => {
    const { id, tokenHash } = await insertCase(c);
    const claimed = await claimStatement(
      database.db,
      {
        tokenHash,
        ctx,
        mode: 'view',
        passphraseVerified: false,
        likelyViewable: true,
        fileGraceSeconds: 600,
        maxAuditEntries: 2000,
      },
      instant(AT),
    );
    const state = stateOf(c);
    const check = canView(state, AT);
    expect(claimed !== undefined).toBe(check.ok);
    const after = await sql<{ views: number; expired: boolean; payload_sealed: Buffer | null }>`
      select views, expired, payload_sealed from push where id = ${id}`.execute(database.db);
    if (check.ok) {
      const { next, burned } = consumeView(state, AT);
      expect(claimed!.snapshot.push.views).toBe(next.views);
      expect(claimed!.snapshot.push.expired).toBe(burned);
      expect(claimed!.payloadSealed).toEqual(Buffer.from('sealed'));
      expect(after.rows[0]!.payload_sealed).toEqual(burned ? null : Buffer.from('sealed'));
    } else {
      // A miss changes nothing: the full statement explains it.
      expect(after.rows[0]).toMatchObject({ views: c.views, expired: c.expired });
    }
  });
});
