// Run outside the workspace (it needs postgres.js, which the project does not depend on):
//   mkdir /tmp/drv && cd /tmp/drv && npm i postgres@3 pg@8 && node <this file>
// 2026-11-27 (two rounds): pg 0.071, 0.077 ms client CPU per query (6629, 6175 q/s); postgres.js
// 0.094, 0.065 ms (5615, 7005 q/s); PostgreSQL 0.148-0.175 ms per query either way.
// Per-query client CPU of node-postgres (pool 10, named prepared statement) against postgres.js
// (pool 10, prepared, pipelining on its connections), 16 concurrent loops of one single-row
// UPDATE ... RETURNING (the shape of a claim), on a table of its own. Prints the client process's
// CPU per query and PostgreSQL's (all postgres processes), and queries per second.
const pg = require('pg');
const postgres = require('postgres');
const fs = require('fs');
const URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const N = Number(process.env.N ?? 20000), LOOPS = 16;
const pgCpu = () => { let t = 0; for (const p of fs.readdirSync('/proc').filter((x) => /^\d+$/.test(x))) { try { if (fs.readFileSync(`/proc/${p}/comm`, 'utf8').trim() !== 'postgres') continue; const f = fs.readFileSync(`/proc/${p}/stat`, 'utf8'); const a = f.slice(f.lastIndexOf(')') + 2).split(' '); t += (Number(a[11]) + Number(a[12])) / 100; } catch {} } return t; };
async function run(name, q) {
  const c0 = process.cpuUsage(), p0 = pgCpu(), t0 = Date.now(); let done = 0;
  await Promise.all(Array.from({ length: LOOPS }, async (_, l) => { while (done < N) { done++; await q(1 + (done % 1000)); } }));
  const c = process.cpuUsage(c0), ms = Date.now() - t0, p = pgCpu() - p0;
  console.log(`${name}: ${Math.round(N / ms * 1000)} q/s, client CPU ${((c.user + c.system) / 1000 / N).toFixed(3)} ms/q, PostgreSQL ${(p * 1000 / N).toFixed(3)} ms/q`);
}
(async () => {
  const setup = new pg.Client(URL); await setup.connect();
  await setup.query('drop table if exists drv_bench; create table drv_bench (id int primary key, views int not null default 0, payload text)');
  await setup.query(`insert into drv_bench (id, payload) select g, repeat('x', 1024) from generate_series(1, 1000) g`);
  const pool = new pg.Pool({ connectionString: URL, max: 10 });
  const sql = postgres(URL, { max: 10, prepare: true });
  const text = 'update drv_bench set views = views + 1 where id = $1 returning id, views, payload';
  for (let r = 0; r < 2; r++) {
    await run('pg      ', (id) => pool.query({ name: 'drv_claim', text, values: [id] }));
    await run('postgres', (id) => sql`update drv_bench set views = views + 1 where id = ${id} returning id, views, payload`);
  }
  await pool.end(); await sql.end(); await setup.query('drop table drv_bench'); await setup.end();
})();
