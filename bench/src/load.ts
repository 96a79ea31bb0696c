import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  /** Requests completed in the run. */
  total: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
}

/** What a run that did not take place reports. */
export const NO_LOAD: LoadResult = { rps: 0, total: 0, p50: 0, p99: 0, max: 0, non2xx: 0, errors: 0 };

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

/** One fixed-concurrency autocannon run against 127.0.0.1. */
export async function load(options: autocannon.Options): Promise<LoadResult> {
  const result = await autocannon({ duration: SECONDS, connections: 16, ...options });
  return {
    rps: Math.round(result.requests.average),
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/**
 * CPU seconds the whole machine has been busy (every process: services, PostgreSQL, Redis, the
 * load generator), from /proc/stat. Per request, it says what a request costs the machine; on a
 * saturated machine a ratio to a ceiling cannot exceed the ceiling's cost over the endpoint's.
 */
export function machineBusySeconds(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already in user)
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = fields;
  return (user + nice + system + irq + softirq) / 100;
}

/** Milliseconds per operation of a CPU-seconds difference, to 0.01 ms (0 when nothing completed). */
export const msPerOperation = (seconds: number, total: number) =>
  total > 0 ? Math.round(((seconds * 1000) / total) * 100) / 100 : 0;

/**
 * Runs `work` (which returns how many operations it completed) and adds the machine's CPU per
 * operation (rounded to 0.01 ms) and the machine's CPU seconds over the run (unrounded).
 */
export async function withMachineCpu<T extends { total: number }>(
  work: () => Promise<T>,
): Promise<T & { machineCpuMs: number; machineCpuSeconds: number }> {
  const before = machineBusySeconds();
  const result = await work();
  const machineCpuSeconds = machineBusySeconds() - before;
  return { ...result, machineCpuMs: msPerOperation(machineCpuSeconds, result.total), machineCpuSeconds };
}
