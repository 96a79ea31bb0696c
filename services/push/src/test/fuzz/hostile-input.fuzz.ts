import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ENDPOINT_WEIGHTS, type Endpoint, type EndpointName, allocate, endpoints } from './endpoints';
import { type Fixture, startFixture } from './fixtures';
import { curlOf, endpointTable, failureReport, failuresReport, showRequest } from './report';
import { type EndpointStats, fuzzEndpoint } from './runner';

/*
 * The hostile-input suite (issue "Hardening", part 7): property-based inputs (fast-check) against
 * every endpoint of the push API (with the auth service's access tokens, personal API tokens and
 * the legacy X-User-Email + X-User-Token pair), the web app's create form, the recipient pages, the
 * responder's pages, the anonymous sender's receipt, "Download all", /about and the auth service, in-process, with real PostgreSQL, Redis and an s3rver. Each endpoint gets its
 * share of FUZZ_RUNS inputs (bodies, headers, paths and query strings from the generators in this
 * folder) and each answer is judged (runner.ts): never a 5xx, never a hang, a refusal changes
 * nothing, an audited refusal adds its one audit entry. Each endpoint's test also asserts that at
 * least 80% of its inputs reached validation (endpoints.ts says what that means per endpoint). The
 * report (per-endpoint table and every distinct failure with its shrunk request) is printed and
 * written to test-artifacts/fuzz/.
 *
 * Environment:
 *   FUZZ_RUNS                 total inputs across both services (default 20000, the CI size)
 *   FUZZ_SEED                 fast-check seed (default: random, printed in the report)
 *   FUZZ_REQUEST_TIMEOUT_MS   per-request deadline; no answer by then is a failure (default 10000)
 *   FUZZ_SHRINK_STEPS         replays spent shrinking one failure (default 300)
 *   FUZZ_SHRINK_MS            time spent shrinking one failure (default 20000)
 *   FUZZ_SHRINK_TOTAL_MS      time spent shrinking in the whole run (default 60000; later
 *                             failures are reported as first seen)
 *   FUZZ_SHRINK_HANG_MS       deadline of a replay while shrinking a hang, and of an endpoint's
 *                             later inputs once it has hung (default 3000)
 *   FUZZ_ONLY                 comma-separated endpoint names to run (default: all)
 *   FUZZ_ARTIFACTS            report folder (default test-artifacts/fuzz at the repository root)
 *   FUZZ_PROFILE              set: also print where each endpoint's answer time went, by input family
 */

const int = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, not ${raw}`);
  return n;
};

const TOTAL = int('FUZZ_RUNS', 20_000);
const SEED = int('FUZZ_SEED', Math.floor(Math.random() * 0x7fffffff));
const TIMEOUT_MS = int('FUZZ_REQUEST_TIMEOUT_MS', 10_000);
const SHRINK_STEPS = int('FUZZ_SHRINK_STEPS', 300);
const SHRINK_MS = int('FUZZ_SHRINK_MS', 20_000);
const SHRINK_TOTAL_MS = int('FUZZ_SHRINK_TOTAL_MS', 60_000);
const SHRINK_HANG_MS = int('FUZZ_SHRINK_HANG_MS', 3_000);
const ARTIFACTS = process.env.FUZZ_ARTIFACTS ?? resolve(__dirname, '../../../../../test-artifacts/fuzz');
const ONLY = process.env.FUZZ_ONLY?.split(',').map((s) => s.trim());
const MIN_REACHED = 0.8;

const NAMES = (Object.keys(ENDPOINT_WEIGHTS) as EndpointName[]).filter((n) => !ONLY || ONLY.includes(n));
const RUNS = allocate(TOTAL);

const poolSize = (inputs: number, perPush: number, min = 8) => Math.max(min, Math.ceil(inputs / perPush));

let fx: Fixture;
let catalogue: Map<EndpointName, Endpoint>;
const results: EndpointStats[] = [];
const shrinkBudget = { remainingMs: SHRINK_TOTAL_MS };
const started = performance.now();

beforeAll(async () => {
  // Failures of an earlier run must not be mistaken for this run's.
  mkdirSync(ARTIFACTS, { recursive: true });
  for (const f of readdirSync(ARTIFACTS)) if (/^failure-\d+\./.test(f)) rmSync(join(ARTIFACTS, f));
  fx = await startFixture(
    {
      retrieve: poolSize(RUNS['GET /pushes/:t'] + RUNS['POST /pushes/:t/reveal'], 60),
      read: poolSize(RUNS['GET /pushes/:t/preview'] + RUNS['GET /pushes/:t/audit'], 100),
      remove: poolSize(RUNS['DELETE /pushes/:t'], 30),
      pageGet: poolSize(RUNS['GET /p/:t'] + RUNS['GET /p/:t/r'] + RUNS['GET /f/:t, /r/:t (legacy)'], 100),
      // 100 views each; at most ~60 inputs per push, so the pool is never used up.
      pagePost: poolSize(RUNS['POST /p/:t[/r]'], 60),
      pageDelete: poolSize(RUNS['POST /p/:t/delete'], 30),
      // Two links per file push, 100 downloads per link.
      filePushes: poolSize(RUNS['GET /files/:id'], 150, 3),
      requests: {
        // An answer that is accepted answers its request: about one input in five is one.
        respond: poolSize(RUNS['POST|PATCH /requests/:t/respond'], 5),
        read: poolSize(RUNS['GET /requests/:t'] + RUNS['GET /requests/:t/(preview|audit)'], 60),
        close: poolSize(RUNS['DELETE /requests/:t'], 30),
        // At most PUSH_REQUEST_CODE_REQUESTS_PER_REQUEST (15) code requests per request in 10 minutes.
        code: poolSize(RUNS['POST /requests/:t/code'], 6, 4),
        // Two files of 10 downloads each (then 410, which reaches the handler too).
        files: poolSize(RUNS['GET /requests/:t/files/:id'], 40, 3),
      },
      pages: {
        // Two files per archive, 100 downloads each: about 60 archive inputs per link at most.
        archives: poolSize(RUNS['GET /files/archive'], 60, 3),
        // An accepted expire uses one up: about one input in three.
        receipts: poolSize(RUNS['POST /receipt/:r/expire'], 3),
        // As the API's answers: about one input in five answers its request.
        respond: poolSize(RUNS['POST /respond/:t'], 5),
        code: poolSize(RUNS['POST /respond/:t/code'], 6, 4),
        files: poolSize(RUNS['GET /respond/:t/files/:id'], 40, 3),
      },
    },
    TIMEOUT_MS,
  );
  catalogue = new Map(endpoints(fx).map((e) => [e.name, e]));
}, 120_000);

afterAll(async () => {
  const wall = performance.now() - started;
  const table = endpointTable(results, wall);
  const failures = failuresReport(results);
  const text = [
    `hostile-input suite: FUZZ_RUNS=${TOTAL} FUZZ_SEED=${SEED} FUZZ_REQUEST_TIMEOUT_MS=${TIMEOUT_MS}`,
    '',
    table,
    '',
    failures,
    '',
  ].join('\n');
  process.stdout.write(`\n${text}\n`);
  if (process.env.FUZZ_PROFILE) {
    for (const r of results) {
      const top = [...r.familyMs.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8);
      process.stdout.write(
        `${r.endpoint.name}: ${top.map(([k, v]) => `${k}=${(v / 1000).toFixed(1)}s/${r.families.get(k.slice(0, k.lastIndexOf(' '))) ?? '?'}`).join(' | ')}\n`,
      );
    }
  }
  try {
    writeFileSync(join(ARTIFACTS, 'report.txt'), text);
    const all = results.flatMap((s) => s.failures);
    all.forEach((f, i) => {
      const bodyFile = join(ARTIFACTS, `failure-${i + 1}.body`);
      if (f.request.body) writeFileSync(bodyFile, f.request.body);
      const base =
        f.endpoint.startsWith('POST /connect') ||
        f.endpoint.startsWith('GET discovery') ||
        f.endpoint.includes('jwks')
          ? '$AUTH_URL'
          : '$PUSH_URL';
      writeFileSync(
        join(ARTIFACTS, `failure-${i + 1}.json`),
        JSON.stringify(
          {
            ...f,
            request: { ...f.request, body: f.request.body?.toString('base64') },
            original: { ...f.original, body: f.original.body?.toString('base64') },
          },
          null,
          2,
        ),
      );
      writeFileSync(
        join(ARTIFACTS, `failure-${i + 1}.txt`),
        `${failureReport(f, i + 1)}\n\nreplay:\n${curlOf(f.request, base, bodyFile)}\n\nraw request:\n${showRequest(f.request)}\n\nfirst failing request (before shrinking):\n${showRequest(f.original)}\n`,
      );
    });
  } catch (err) {
    process.stdout.write(`could not write the report to ${ARTIFACTS}: ${(err as Error).message}\n`);
  }
  await fx?.stop();
});

describe('hostile input', () => {
  it.each(NAMES)('%s: no 5xx, no hang, refusals change nothing, inputs reach validation', async (name) => {
    const ep = catalogue.get(name)!;
    const stats = await fuzzEndpoint(ep, RUNS[name], {
      fx,
      seed: (SEED + NAMES.indexOf(name) * 7919) | 0,
      shrinkSteps: SHRINK_STEPS,
      shrinkMs: SHRINK_MS,
      shrinkBudget,
      shrinkHangMs: SHRINK_HANG_MS,
    });
    results.push(stats);
    const problems: string[] = [];
    if (stats.failures.length > 0) {
      problems.push(
        `${stats.failures.length} distinct failure(s):\n\n${stats.failures.map((f, i) => failureReport(f, i + 1)).join('\n\n')}`,
      );
    }
    const reached = stats.reached / Math.max(1, stats.tried);
    if (reached < MIN_REACHED) {
      const statuses = [...stats.statuses.entries()].map(([s, n]) => `${s}:${n}`).join(' ');
      problems.push(
        `only ${(100 * reached).toFixed(1)}% of ${stats.tried} inputs reached validation (at least ${100 * MIN_REACHED}% expected); statuses ${statuses}`,
      );
    }
    if (problems.length > 0) throw new Error(problems.join('\n\n'));
  });

  it(`tried at least FUZZ_RUNS (${TOTAL}) inputs in all`, () => {
    if (ONLY) return;
    expect(results.reduce((n, s) => n + s.tried, 0)).toBeGreaterThanOrEqual(TOTAL);
  });
});
