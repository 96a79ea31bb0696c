import { readFileSync, readdirSync } from 'node:fs';
import { machineBusySeconds, msPerOperation } from './load';
import type { Proc } from './processes';
import { redisInfo } from './redis-info';

/*
 * Where a request's CPU goes: the machine's busy time over a run, split by process. The services
 * (push API, worker, auth) are read from /proc/<pid>/stat; PostgreSQL is every `postgres` process
 * alive (user + system time) plus what the postmaster's exited children used (its cutime +
 * cstime); Redis is the server's own `used_cpu_user + used_cpu_sys` (INFO); the load generator
 * (autocannon, in this process) is process.cpuUsage(). What is left (the kernel's network stack
 * outside these processes, other jobs) is "other".
 */

export const SPLIT_COLUMNS = [
  'push API',
  'worker',
  'auth',
  'PostgreSQL',
  'Redis',
  'load generator',
  'other',
] as const;
export type SplitColumn = (typeof SPLIT_COLUMNS)[number];

interface Sample {
  machine: number;
  columns: Record<Exclude<SplitColumn, 'other'>, number>;
}

/** utime + stime (and, with `children`, cutime + cstime) of a /proc/<pid>/stat, in seconds. */
function statSeconds(pid: number | string, children = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = Number(f[11]) + Number(f[12]);
    return (children ? own + Number(f[13]) + Number(f[14]) : own) / 100;
  } catch {
    return 0; // the process ended between the listing and the read
  }
}

function commOf(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** Every PostgreSQL process's CPU, and what the exited ones used (counted by the postmaster). */
function postgresSeconds(): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    if (commOf(pid) !== 'postgres') continue;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
    // The postmaster's parent is not a postgres process: its children's exited time counts too.
    const postmaster = ppid !== undefined && commOf(ppid) !== 'postgres';
    total += statSeconds(pid, postmaster);
  }
  return total;
}

async function redisSeconds(url: string): Promise<number> {
  const info = await redisInfo(url);
  return Number(info.used_cpu_user ?? 0) + Number(info.used_cpu_sys ?? 0);
}

export interface SplitSources {
  push?: Proc;
  worker?: Proc;
  auth?: Proc;
  redisUrl: string;
}

export async function sampleCpu(sources: SplitSources): Promise<Sample> {
  const own = process.cpuUsage();
  return {
    machine: machineBusySeconds(),
    columns: {
      'push API': sources.push?.cpuSeconds() ?? 0,
      worker: sources.worker?.cpuSeconds() ?? 0,
      auth: sources.auth?.cpuSeconds() ?? 0,
      PostgreSQL: postgresSeconds(),
      Redis: await redisSeconds(sources.redisUrl),
      'load generator': (own.user + own.system) / 1e6,
    },
  };
}

/** Milliseconds of CPU per operation, by process, between two samples (and the machine's total). */
export function splitPerOperation(
  before: Sample,
  after: Sample,
  operations: number,
): Record<SplitColumn | 'machine', number> {
  const out = {} as Record<SplitColumn | 'machine', number>;
  let accounted = 0;
  for (const [name, seconds] of Object.entries(after.columns) as [Exclude<SplitColumn, 'other'>, number][]) {
    const used = seconds - before.columns[name];
    accounted += used;
    out[name] = msPerOperation(used, operations);
  }
  const machine = after.machine - before.machine;
  out.other = msPerOperation(Math.max(0, machine - accounted), operations);
  out.machine = msPerOperation(machine, operations);
  return out;
}
