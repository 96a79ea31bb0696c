import { withDeadline } from './deadline';

export type CheckState = 'ok' | 'unavailable';

export interface DependencyCheck {
  /** Resolves when the dependency answers; a rejection means it is unavailable. */
  check: () => Promise<unknown>;
  /** Whether the process is not ready without it (it is reported either way). */
  required: boolean;
  /** How long the check may take before the dependency counts as unavailable; 2000 ms if absent. */
  timeoutMs?: number;
}

export interface ReadinessReport {
  ready: boolean;
  /** Every dependency by name, in the order given. */
  checks: Record<string, CheckState>;
}

export type Readiness = () => Promise<ReadinessReport>;

export const DEFAULT_CHECK_TIMEOUT_MS = 2000;

async function probe(name: string, dependency: DependencyCheck): Promise<CheckState> {
  const timeoutMs = dependency.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  try {
    // Called inside the try: a check that throws synchronously is unavailable too.
    await withDeadline(dependency.check(), timeoutMs, name);
    return 'ok';
  } catch {
    return 'unavailable';
  }
}

/**
 * Readiness from the process's dependencies: all are checked at once, each within its own
 * deadline (a frozen dependency makes the answer late by its timeout, never hang), and the process
 * is ready when every required one answered.
 */
export function createReadiness(dependencies: Record<string, DependencyCheck>): Readiness {
  const entries = Object.entries(dependencies);
  return async () => {
    const states = await Promise.all(entries.map(([name, dependency]) => probe(name, dependency)));
    return {
      ready: entries.every(([, dependency], i) => !dependency.required || states[i] === 'ok'),
      checks: Object.fromEntries(entries.map(([name], i) => [name, states[i]!])),
    };
  };
}
