import { join } from 'node:path';
import { apiBenchmark } from './api.bench';
import { emailBenchmark } from './email.bench';
import { expiryBenchmark } from './expiry.bench';
import { filesBenchmark } from './files.bench';
import { outboxBenchmark } from './outbox.bench';
import { type BenchResult, writeResults } from './report';

/** `pnpm bench [name…]`: runs the benchmarks (all by default) and writes bench/results/. */
async function main(): Promise<void> {
  // `BENCH_SERVICES_ROOT=<checkout>`: the services (and ceiling servers) of another built checkout,
  // measured by this harness (A/B against an earlier commit).
  const root = process.env.BENCH_SERVICES_ROOT ?? join(__dirname, '../..');
  const all: Record<string, (root: string) => Promise<BenchResult>> = {
    api: apiBenchmark,
    expiry: expiryBenchmark,
    files: filesBenchmark,
    email: emailBenchmark,
    outbox: outboxBenchmark,
  };
  const wanted = process.argv.slice(2).filter((a) => a !== '--');
  const names = wanted.length > 0 ? wanted : Object.keys(all);
  const results: BenchResult[] = [];
  for (const name of names) {
    const bench = all[name];
    if (!bench) throw new Error(`unknown benchmark ${name}; known: ${Object.keys(all).join(', ')}`);
    results.push(await bench(root));
  }
  console.log(writeResults(join(__dirname, '../../bench/results'), results));
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});
