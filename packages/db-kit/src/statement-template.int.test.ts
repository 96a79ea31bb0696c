import { sql } from 'kysely';
import { createKysely, statementTemplate } from './index';

// Needs the local PostgreSQL (any database: the statements read no table).
const db = createKysely<Record<string, never>>({
  url: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  poolSize: 1,
});
afterAll(() => db.destroy());

describe('statementTemplate (a hot statement compiled once)', () => {
  it('builds and compiles once, then sends the same text with each execution’s inputs in place', async () => {
    let builds = 0;
    const echo = statementTemplate<
      { a: number; b: string | null },
      { a: number; b: string | null; k: string }
    >(['a', 'b'], (q) => {
      builds += 1;
      return sql`/*prepared:echo_test*/ select ${q.a}::int as a, ${q.b}::text as b, ${'fixed'}::text as k, ${q.a}::int + 1 as a1`;
    });
    const first = await echo.execute(db, { a: 1, b: 'x' });
    const second = await echo.execute(db, { a: 41, b: null });
    expect(first.rows).toEqual([{ a: 1, b: 'x', k: 'fixed', a1: 2 }]);
    expect(second.rows).toEqual([{ a: 41, b: null, k: 'fixed', a1: 42 }]);
    expect(builds).toBe(1);
  });

  it('refuses a value computed from an input in JavaScript, and an input the statement does not use', async () => {
    const computed = statementTemplate<{ hash: string | null }, object>(
      ['hash'],
      (q) => sql`select ${q.hash}::text as h, ${q.hash !== null} as protected`,
    );
    await expect(computed.execute(db, { hash: null })).rejects.toThrow(
      /a boolean parameter is neither an input nor a constant/,
    );
    const unused = statementTemplate<{ a: number; b: number }, object>(
      ['a', 'b'],
      (q) => sql`select ${q.a}::int`,
    );
    await expect(unused.execute(db, { a: 1, b: 2 })).rejects.toThrow(/inputs not in the statement: b/);
  });
});
