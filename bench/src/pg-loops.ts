import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { SECONDS, withMachineCpu } from './load';

export interface PgLoopResult {
  /** Statements per second. */
  rate: number;
  total: number;
  /** The whole machine's CPU per statement during the loop (set-up excluded). */
  machineCpuMs: number;
}

/**
 * Ceilings for the database-bound endpoints: `concurrency` loops issuing the statement back to
 * back for SECONDS through a pool of the app's size, without HTTP.
 */
async function loop(
  url: string,
  concurrency: number,
  poolSize: number,
  statement: (c: pg.Pool) => Promise<unknown>,
): Promise<PgLoopResult> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const { total, machineCpuMs } = await withMachineCpu(async () => {
    let done = 0;
    const until = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (Date.now() < until) {
          await statement(pool);
          done++;
        }
      }),
    );
    return { total: done };
  });
  await pool.end();
  return { rate: Math.round(total / SECONDS), total, machineCpuMs };
}

const PAYLOAD = Buffer.alloc(1024 + 28, 7);

/** Single-row INSERT of a push-sized row (1 KB sealed payload). */
export function insertLoop(url: string, concurrency: number, poolSize: number): Promise<PgLoopResult> {
  let i = 0;
  return loop(url, concurrency, poolSize, (pool) =>
    pool.query(
      `insert into push (id, token_hash, token_sealed, key_id, kind, payload_sealed, expire_after_days,
                         expire_after_views, expires_at, retrieval_step)
       values ($1, sha256($2::bytea), $3, 'k', 'text', $3, 7, 5, now() + interval '7 days', true)`,
      [randomUUID(), Buffer.from(`ceiling-${process.pid}-${i++}`), PAYLOAD],
    ),
  );
}

/** Single-row UPDATE … RETURNING of a view counter (the consume step without the CTE and audit). */
export async function updateLoop(url: string, concurrency: number, poolSize: number): Promise<PgLoopResult> {
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  const { rows } = await setup.query<{ id: string }>(
    `insert into push (id, token_hash, token_sealed, key_id, kind, payload_sealed, expire_after_days, expire_after_views,
                       expires_at, retrieval_step)
     select gen_random_uuid(), sha256(convert_to('u' || i, 'UTF8')), '\\x00', 'k', 'text', $1, 7, 1000000,
            now() + interval '7 days', true from generate_series(1, 1000) i returning id`,
    [PAYLOAD],
  );
  await setup.end();
  let i = 0;
  return loop(url, concurrency, poolSize, (pool) =>
    pool.query(
      'update push set views = views + 1 where id = $1 and views < expire_after_views returning payload_sealed',
      [rows[i++ % rows.length]!.id],
    ),
  );
}
