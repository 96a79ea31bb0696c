import { type ChildProcess, spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { join } from 'node:path';

export interface Service {
  name: string;
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

/** Starts `command` in `cwd` with exactly `env` (plus PATH), as `user` if given, output in logs/<name>.log. */
export function startProcess(
  name: string,
  command: string[],
  cwd: string,
  env: Record<string, string>,
  logDir: string,
  user?: { uid: number; gid: number },
): Service {
  const log = openSync(join(logDir, `${name}.log`), 'a');
  const child = spawn(command[0]!, command.slice(1), {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    stdio: ['ignore', log, log],
    ...user,
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { name, child, exited };
}

/** Runs a one-shot to completion; rejects on a non-zero exit. */
export async function runToCompletion(
  name: string,
  command: string[],
  cwd: string,
  env: Record<string, string>,
  logDir: string,
): Promise<void> {
  const code = await startProcess(name, command, cwd, env, logDir).exited;
  if (code !== 0) throw new Error(`${name} exited with ${code} (see ${join(logDir, `${name}.log`)})`);
}

/** Polls `url` until it answers 200, or throws after `timeoutMs`, or as soon as the process dies. */
export async function waitReady(service: Service, url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let dead = false;
  void service.exited.then(() => (dead = true));
  while (Date.now() < deadline) {
    if (dead) throw new Error(`${service.name} exited before it was ready`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${service.name} not ready at ${url} after ${timeoutMs} ms`);
}

/** SIGTERM, as Kubernetes sends it; SIGKILL after the grace period. Returns the exit code. */
export async function stopProcess(service: Service, graceMs = 15_000): Promise<number | null> {
  if (service.child.exitCode !== null || service.child.signalCode !== null) return service.child.exitCode;
  service.child.kill('SIGTERM');
  const timer = setTimeout(() => service.child.kill('SIGKILL'), graceMs);
  const code = await service.exited;
  clearTimeout(timer);
  return code;
}
