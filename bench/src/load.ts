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
