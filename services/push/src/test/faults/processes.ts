import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/*
 * Child processes of the fault suite: each in its own process group (detached), output appended to
 * logs/<name>.log, with the three faults the suite injects: killed (SIGKILL of the whole process
 * tree), stopped gracefully (the process's own shutdown signal), frozen (SIGSTOP of the tree, then
 * SIGCONT). Exits the suite did not ask for are recorded, so a phase can assert that nothing but
 * its target went away.
 */

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** True when `promise` settles within `ms`; the timer is cleared either way (nothing keeps the run alive). */
export function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((r) => {
    timer = setTimeout(() => r(false), ms);
  });
  return Promise.race([promise.then(() => true), timeout]).finally(() => clearTimeout(timer));
}

/** Every process alive whose parent chain reaches `root` (root first, parents before children). */
export function processTree(root: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 4 (ppid) follows the `(comm)` field, which may itself contain spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parentOf.set(Number(entry), Number(fields[1]));
    } catch {
      // the process went away while we looked
    }
  }
  if (!parentOf.has(root)) return [];
  const tree = [root];
  for (let i = 0; i < tree.length && i < 10_000; i++) {
    for (const [pid, ppid] of parentOf) if (ppid === tree[i]) tree.push(pid);
  }
  return tree;
}

/**
 * Sends `signal` to `root`'s process group and to every process of its tree (PostgreSQL's children
 * call setsid(), so they are not in the postmaster's group). SIGCONT goes to the children first and
 * to `root` last (a resumed postmaster starts working through its backlog at once, and the rest of
 * the tree should not wait behind it); any other signal goes to parents first (a stopped parent
 * forks nothing new), and the tree is read twice to catch a child forked in between.
 */
export function signalTree(root: number, signal: NodeJS.Signals): number {
  const signalled = new Set<number>();
  const send = (pid: number) => {
    if (signalled.has(pid)) return;
    signalled.add(pid);
    try {
      process.kill(pid, signal);
    } catch {
      // gone
    }
  };
  // Read before anything is signalled: once a parent dies its children are re-parented.
  const tree = processTree(root);
  if (tree.length === 0) return 0;
  const group = () => {
    try {
      process.kill(-root, signal);
    } catch {
      // not a group leader
    }
  };
  if (signal === 'SIGCONT') {
    // Stopped processes fork nothing: one reading of the tree is complete.
    for (const pid of [...tree].reverse()) send(pid);
    group();
  } else {
    group();
    for (const pid of tree) send(pid);
    // A child forked between the reading and the signal (the root is stopped or gone by now).
    for (const pid of processTree(root)) send(pid);
  }
  return signalled.size;
}

export interface ChildSpec {
  name: string;
  command: string;
  args: string[];
  /** The whole environment of the child (plus PATH): nothing of the test runner's leaks in. */
  env: Record<string, string>;
  cwd?: string;
  uid?: number;
  gid?: number;
  /** The signal of a graceful stop (SIGTERM unless given). */
  stopSignal?: NodeJS.Signals;
}

export interface ExitRecord {
  name: string;
  pid: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  expected: boolean;
  at: number;
}

/** One long-running child; `start()` may be called again after it exited (same spec, same port). */
export class Child {
  private proc: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private expectingExit = false;
  readonly exits: ExitRecord[] = [];
  /** The pid of every start, in order. */
  readonly pids: number[] = [];
  frozen = false;

  constructor(
    readonly spec: ChildSpec,
    private readonly logDir: string,
  ) {}

  get name(): string {
    return this.spec.name;
  }

  get pid(): number | undefined {
    return this.running ? this.proc?.pid : undefined;
  }

  get running(): boolean {
    return this.proc !== undefined && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  start(): void {
    if (this.running) throw new Error(`${this.name} is already running`);
    const log = openSync(join(this.logDir, `${this.name}.log`), 'a');
    const child = spawn(this.spec.command, this.spec.args, {
      cwd: this.spec.cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...this.spec.env },
      stdio: ['ignore', log, log],
      detached: true,
      ...(this.spec.uid !== undefined ? { uid: this.spec.uid, gid: this.spec.gid } : {}),
    });
    closeSync(log);
    this.proc = child;
    this.expectingExit = false;
    this.frozen = false;
    if (child.pid !== undefined) this.pids.push(child.pid);
    this.exited = new Promise<void>((resolve) => {
      child.once('error', () => resolve());
      child.once('exit', (code, signal) => {
        this.exits.push({
          name: this.name,
          pid: child.pid ?? -1,
          code,
          signal,
          expected: this.expectingExit,
          at: Date.now(),
        });
        resolve();
      });
    });
  }

  /** Exits nobody asked for, since `since` (epoch ms). */
  unexpectedExits(since = 0): ExitRecord[] {
    return this.exits.filter((e) => !e.expected && e.at >= since);
  }

  /** SIGKILL of the whole tree (a crash); resolves once the child is gone (bounded). */
  async kill(): Promise<void> {
    const pid = this.pid;
    if (pid === undefined) return;
    this.expectingExit = true;
    signalTree(pid, 'SIGKILL');
    this.frozen = false;
    await within(this.exited, 10_000);
  }

  /**
   * The process's own graceful shutdown (SIGTERM, or the spec's signal), SIGKILL of the tree after
   * `graceMs`. A frozen process is thawed first so that it can act on the signal.
   */
  async stop(graceMs = 10_000): Promise<void> {
    const pid = this.pid;
    if (pid === undefined) return;
    this.expectingExit = true;
    if (this.frozen) this.thaw();
    try {
      process.kill(pid, this.spec.stopSignal ?? 'SIGTERM');
    } catch {
      // already gone
    }
    if (!(await within(this.exited, graceMs))) await this.kill();
  }

  /** SIGSTOP of the process group and of every process in the tree. */
  freeze(): number {
    const pid = this.pid;
    if (pid === undefined) throw new Error(`${this.name} is not running`);
    this.frozen = true;
    return signalTree(pid, 'SIGSTOP');
  }

  thaw(): number {
    const pid = this.pid;
    if (pid === undefined) return 0;
    this.frozen = false;
    return signalTree(pid, 'SIGCONT');
  }

  /** For clean-up: thaw, SIGKILL the tree; never throws. */
  async destroy(): Promise<void> {
    try {
      if (this.frozen) this.thaw();
      await this.kill();
    } catch {
      // best effort
    }
  }
}

/** Runs a one-shot to completion (bounded); resolves with its stdout, rejects on a non-zero exit. */
export function runOnce(
  command: string,
  args: string[],
  options: { env: Record<string, string>; cwd?: string; timeoutMs?: number },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString('utf8');
      if (code === 0) resolve(stdout);
      else {
        const why = signal ? `signal ${signal}` : `code ${code}`;
        reject(
          new Error(`${command} ${args.join(' ')} exited with ${why}: ${Buffer.concat(err).toString()}`),
        );
      }
    });
  });
}

/** Polls `check` every `everyMs` (at least once) until it resolves true; false after `timeoutMs`. */
export async function waitFor(
  check: () => Promise<boolean>,
  timeoutMs: number,
  everyMs = 100,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; i < 100_000; i++) {
    if (await check().catch(() => false)) return true;
    if (Date.now() >= deadline) break;
    await sleep(everyMs);
  }
  return false;
}

/** True when an HTTP GET of `url` answers `want(status)` within `timeoutMs`. */
export async function httpAnswers(
  url: string,
  want: (status: number) => boolean = (s) => s === 200,
  timeoutMs = 1000,
): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return want(res.status);
  } catch {
    return false;
  }
}
