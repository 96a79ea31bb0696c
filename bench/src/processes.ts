import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Proc {
  child: ChildProcess;
  url: string;
  peakRssMiB(): number;
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

/**
 * Node/V8 flags for the push API process only; the results' descriptions name them. By default the
 * heap limit its pods run with (NODE_OPTIONS in k8s/base/push/deployment.yaml and
 * docker-compose.yml: 75% of the 512 MiB memory limit), so that its peak RSS is the one a pod
 * would see (without it V8 lets the heap grow towards its own default, gigabytes on this machine).
 * `BENCH_PUSH_NODE_FLAGS="…"` replaces them (tuning experiments; empty: none).
 */
export const PUSH_NODE_FLAGS = (process.env.BENCH_PUSH_NODE_FLAGS ?? '--max-old-space-size=384')
  .split(' ')
  .filter(Boolean);
const pushNodeFlags = (script: string) => (script.includes('main-api') ? PUSH_NODE_FLAGS : []);
export const PUSH_FLAGS_NOTE =
  PUSH_NODE_FLAGS.length > 0 ? ` The push API ran with \`node ${PUSH_NODE_FLAGS.join(' ')}\`.` : '';

/** Starts a Node script as its own process (the load generator must not share its event loop). */
export async function startProcess(
  script: string,
  env: Record<string, string>,
  readyUrl: string,
  args: string[] = [],
): Promise<Proc> {
  const child = spawn(
    process.execPath,
    [...pushNodeFlags(script), ...profileFlags(script), script, ...args],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
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
    peakRssMiB() {
      const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
      return Math.round(kb / 1024);
    },
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
