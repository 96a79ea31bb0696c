import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join, resolve } from 'node:path';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Proc {
  child: ChildProcess;
  url: string;
  /** Peak resident set size so far (VmHWM), MiB. */
  peakRssMiB(): number;
  /** Resident set size now (VmRSS), MiB. */
  rssMiB(): number;
  /** CPU seconds (user + system) the process has used so far: per-request cost, whatever the load of the machine. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/**
 * `BENCH_CPU_PROF=dir`: the services (not the ceiling servers) run with `--cpu-prof`, writing
 * `<dir>/<script>-<ms>.cpuprofile` when they stop (summarise with bench/cpuprofile-summary.cjs).
 */
function profileFlags(script: string): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir || script.includes('/servers/')) return [];
  mkdirSync(dir, { recursive: true });
  return [
    '--cpu-prof',
    `--cpu-prof-dir=${resolve(dir)}`,
    `--cpu-prof-name=${basename(script, '.js')}-${Date.now()}.cpuprofile`,
  ];
}

const ROOT = join(__dirname, '../..');
type Service = 'push' | 'worker' | 'auth';
const { podNodeOptions } = createRequire(__filename)(join(ROOT, 'scripts/pod-node-options.cjs')) as {
  podNodeOptions: (service: Service) => string;
};

/**
 * Node/V8 flags of each service's process, by default the NODE_OPTIONS its pods run with (read
 * from k8s/base/{push,auth}/deployment.yaml and push/worker-deployment.yaml by
 * scripts/pod-node-options.cjs, as `make up` does): the heap limit at ~75 % of the pod's memory
 * limit, so that RSS is the one a pod would see (without it V8 lets the heap grow towards its own
 * default, gigabytes on this machine). `BENCH_PUSH_NODE_FLAGS`, `BENCH_WORKER_NODE_FLAGS` and
 * `BENCH_AUTH_NODE_FLAGS` replace them (tuning experiments; empty: none). The results name them.
 */
const flagsOf = (service: Service, override: string | undefined) =>
  (override ?? podNodeOptions(service)).split(' ').filter(Boolean);
export const NODE_FLAGS: Record<Service, string[]> = {
  push: flagsOf('push', process.env.BENCH_PUSH_NODE_FLAGS),
  worker: flagsOf('worker', process.env.BENCH_WORKER_NODE_FLAGS),
  auth: flagsOf('auth', process.env.BENCH_AUTH_NODE_FLAGS),
};
export const PUSH_NODE_FLAGS = NODE_FLAGS.push;
function nodeFlags(script: string): string[] {
  if (script.endsWith('services/push/dist/main-api.js')) return NODE_FLAGS.push;
  if (script.endsWith('services/push/dist/main-worker.js')) return NODE_FLAGS.worker;
  if (script.endsWith('services/auth/dist/main.js')) return NODE_FLAGS.auth;
  return [];
}
const shown = (flags: string[]) => (flags.length > 0 ? `\`${flags.join(' ')}\`` : 'none');
export const PUSH_FLAGS_NOTE =
  PUSH_NODE_FLAGS.length > 0 ? ` The push API ran with \`node ${PUSH_NODE_FLAGS.join(' ')}\`.` : '';
/** For the benchmarks that run all three services. */
export const NODE_FLAGS_NOTE = ` Node flags (the pods' NODE_OPTIONS unless overridden): push API ${shown(NODE_FLAGS.push)}, worker ${shown(NODE_FLAGS.worker)}, auth ${shown(NODE_FLAGS.auth)}.`;

/** A memory line (`VmHWM`, `VmRSS`) of /proc/<pid>/status, in MiB. */
function statusMiB(pid: number | undefined, field: string): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** Starts a Node script as its own process (the load generator must not share its event loop). */
export async function startProcess(
  script: string,
  env: Record<string, string>,
  readyUrl: string,
  args: string[] = [],
): Promise<Proc> {
  const child = spawn(process.execPath, [...nodeFlags(script), ...profileFlags(script), script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
    const ok = await fetch(readyUrl).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) break;
    await sleep(100);
  }
  return {
    child,
    url: new URL(readyUrl).origin,
    peakRssMiB: () => statusMiB(child.pid, 'VmHWM'),
    rssMiB: () => statusMiB(child.pid, 'VmRSS'),
    cpuSeconds() {
      // /proc/<pid>/stat: fields 14 and 15 (utime, stime) in clock ticks, after the `(comm)` field.
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
