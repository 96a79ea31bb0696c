import pg from 'pg';
import { createClient } from '@secret-push/client';
import type { SplitColumn } from './cpu-split';
import type { Proc } from './processes';
import type { Figure } from './report';

/*
 * The API benchmark's targets on CPU per request and memory (issue 31; listed in
 * docs/performance.md), each a figure with its target and pass/miss, from the same run.
 */

/**
 * The reference machine speed: machine CPU per request of `ceiling: Express 5 JSON route` on
 * 2026-11-26 (0.06 ms; bench/results/latest.md as committed with
 * bench/reports/ab-structure-2026-11-26.md in eab7279, the run of 2026-11-26T13:38Z, 2 × AMD EPYC).
 * Printed to 0.01 ms, so the normalisation below is good to about ±10 %.
 */
export const REFERENCE_EXPRESS_CPU_MS = 0.06;
export const EXPRESS_CEILING = 'ceiling: Express 5 JSON route';

/** What the targets read of a run: its outcome and its CPU split by process (ms per request). */
export interface TargetRun {
  total: number;
  non2xx: number;
  errors: number;
  machineCpuSeconds: number;
  split?: Record<SplitColumn | 'machine', number>;
}

/**
 * Today's speed of this shared machine against the reference day: the reference ceiling cost
 * over today's (unrounded), e.g. 0.6 when the Express ceiling costs 1.6× the CPU per request it
 * cost then. Undefined when the ceiling did not run (BENCH_ONLY).
 */
export function speedFactor(express: TargetRun | undefined): number | undefined {
  if (!express || express.total === 0 || express.machineCpuSeconds <= 0) return undefined;
  return REFERENCE_EXPRESS_CPU_MS / ((express.machineCpuSeconds * 1000) / express.total);
}

const RETRIEVE = 'GET /pushes/:token (uses a view)';
const CREATE = 'POST /pushes anonymous 1 KB';
const ACTIVE = 'GET /pushes/active';

/** [run, split column, at most this many ms per request]. */
const CPU_TARGETS: [string, SplitColumn | 'machine', number][] = [
  [RETRIEVE, 'machine', 0.5],
  [CREATE, 'machine', 0.45],
  [RETRIEVE, 'push API', 0.15],
  [CREATE, 'push API', 0.15],
  [RETRIEVE, 'PostgreSQL', 0.25],
  [CREATE, 'PostgreSQL', 0.18],
  [ACTIVE, 'machine', 0.8],
];

/**
 * One figure per CPU target: the absolute figure (from the split table) decides pass/miss; the
 * figure scaled by `factor` (the machine's speed against the reference day) is printed next to
 * it for information.
 */
export function cpuTargetFigures(runs: Record<string, TargetRun>, factor: number | undefined): Figure[] {
  const figures: Figure[] = [];
  if (factor !== undefined) {
    figures.push({
      name: `machine speed factor: ${REFERENCE_EXPRESS_CPU_MS} ms (the Express ceiling's machine CPU per request on 2026-11-26) over today's ${Math.round((REFERENCE_EXPRESS_CPU_MS / factor) * 1000) / 1000} ms; "normalised" figures below are multiplied by it`,
      value: Math.round(factor * 100) / 100,
      unit: '×',
    });
  }
  for (const [name, column, max] of CPU_TARGETS) {
    const run = runs[name];
    if (!run?.split) continue;
    const ms = run.split[column];
    const what = column === 'machine' ? 'machine CPU' : `${column}'s CPU`;
    const normalised =
      factor !== undefined ? `; normalised ${Math.round(ms * factor * 100) / 100} ms` : '; not normalised';
    figures.push({
      name: `${name}: ${what} per request`,
      value: ms,
      unit: `ms${normalised}`,
      target: `≤ ${max.toFixed(2)} ms`,
      pass: ms <= max && run.non2xx === 0 && run.errors === 0,
    });
  }
  return figures;
}

export interface RssSample {
  push: number;
  worker?: number;
  auth: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Each service's RSS (VmRSS) after `ms` of idle. */
export async function rssAfterIdle(
  services: { push: Proc; worker?: Proc; auth: Proc },
  ms: number,
): Promise<RssSample> {
  await sleep(ms);
  return {
    push: services.push.rssMiB(),
    ...(services.worker ? { worker: services.worker.rssMiB() } : {}),
    auth: services.auth.rssMiB(),
  };
}

/**
 * Memory: the push API's peak RSS over the whole benchmark (≤ 200 MiB) and its RSS idle after
 * start, before any load (≤ 110 MiB); after the load and idle again, and the worker's and auth's,
 * reported.
 */
export function rssFigures(
  services: { push: Proc; worker?: Proc; auth: Proc },
  idle: RssSample,
  afterLoad: RssSample,
): Figure[] {
  const peak = services.push.peakRssMiB();
  const figures: Figure[] = [
    {
      name: 'push API RSS idle after start (VmRSS, ready and ~5 s idle, before any load)',
      value: idle.push,
      unit: 'MiB',
      target: '≤ 110 MiB',
      pass: idle.push <= 110,
    },
    {
      name: 'push API peak RSS during the API benchmark (VmHWM)',
      value: peak,
      unit: 'MiB',
      target: '≤ 200 MiB',
      pass: peak <= 200,
    },
    { name: 'push API RSS after the load runs and ~10 s idle', value: afterLoad.push, unit: 'MiB' },
  ];
  for (const who of ['worker', 'auth'] as const) {
    const proc = services[who];
    if (!proc) continue;
    figures.push(
      { name: `${who} RSS idle after start`, value: idle[who] ?? 0, unit: 'MiB' },
      { name: `${who} RSS after the load runs and ~10 s idle`, value: afterLoad[who] ?? 0, unit: 'MiB' },
      { name: `${who} peak RSS`, value: proc.peakRssMiB(), unit: 'MiB' },
    );
  }
  return figures;
}

/** A page of `GET /pushes/active` (domain/push.ts PAGE_SIZE in the push service). */
export const PAGE_SIZE = 50;

/**
 * Set-up of the `GET /pushes/active` run: the bearer's client must own at least a full page of
 * active pushes (the bearer-create run makes thousands, but BENCH_ONLY may have skipped it); the
 * missing ones are created through the SDK. Then the table is analyzed (see the caller) and the
 * size of the page the run will list is returned.
 */
export async function fullActivePage(pushUrl: string, pushDb: string, bearer: string): Promise<number> {
  const owner = createClient({ baseUrl: pushUrl, auth: { token: bearer } });
  const listed = async () => {
    const res = await fetch(`${pushUrl}/api/v2/pushes/active`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    return ((await res.json()) as unknown[]).length;
  };
  for (let i = await listed(); i < PAGE_SIZE; i++) {
    await owner.create({ payload: 'x'.repeat(1024), expire_after_views: 100 });
  }
  // By now the push table may hold tens of thousands of rows it has no statistics for: the planner
  // then reads every owned row and sorts them instead of walking push_owner_created_idx (27 ms
  // instead of 0.1 ms for 10k owned rows). Autovacuum analyzes a table within a minute of bulk
  // inserts in a running system; the bench does it at once, so the figure is the steady state.
  const client = new pg.Client({ connectionString: pushDb });
  await client.connect();
  await client.query('analyze push');
  await client.end();
  return listed();
}
