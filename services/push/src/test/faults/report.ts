import type { Target } from './deadlines';
import type { Outcome } from './load';

/* What each phase's answers say against the suite's rules, and the table printed at the end. */

export type Mode = 'stop' | 'restart' | 'freeze';

export interface PhaseResult {
  name: string;
  target: Target | 'none';
  mode: Mode | 'none';
  requests: number;
  /** Answers of the requests the rules apply to, by status (`err` for no answer). */
  byStatus: Record<string, number>;
  /** Requests sent to the faulted process itself (the push replica, or the auth service's token endpoint). */
  toFaulted: number;
  slowest?: { ms: number; kind: string; status: string };
  boundMs: number;
  /** From the end of the fault (start again / SIGCONT) until the process answered again. */
  backAfterMs?: number;
  /** From then until a probe round succeeded. */
  recoveryMs?: number;
  notes: string[];
  problems: string[];
}

/** The requests a fault of `target` may break: those sent to the faulted process itself. */
export function sentToFaulted(o: Outcome, target: Target | 'none'): boolean {
  if (target === 'push-1') return o.kind !== 'token' && o.upstream === 0;
  if (target === 'auth') return o.kind === 'token';
  return false;
}

const statusKey = (o: Outcome) => (o.error !== undefined ? 'err' : String(o.status));
const validRetryAfter = (v: string | undefined) => v !== undefined && /^\d+$/.test(v.trim()) && Number(v) > 0;

/** The phase's counts, and every broken rule grouped by request kind and answer. */
export function evaluate(
  outcomes: Outcome[],
  target: Target | 'none',
  boundMs: number,
): Pick<PhaseResult, 'requests' | 'byStatus' | 'toFaulted' | 'slowest' | 'problems'> & { byKind: string } {
  const byStatus: Record<string, number> = {};
  /** Answers other than 2xx, by request kind: `create 503 ×12`. */
  const unusual = new Map<string, number>();
  const groups = new Map<
    string,
    { n: number; maxMs: number; answers: Map<string, number>; slowest: { id: string; ms: number }[] }
  >();
  const note = (label: string, o: Outcome) => {
    const g = groups.get(label) ?? { n: 0, maxMs: 0, answers: new Map<string, number>(), slowest: [] };
    g.n++;
    g.maxMs = Math.max(g.maxMs, o.ms);
    g.slowest = [...g.slowest, { id: o.id, ms: o.ms }].sort((a, b) => b.ms - a.ms).slice(0, 3);
    const answer = o.error ?? `${o.status}${o.code ? ` ${o.code}` : ''}`;
    g.answers.set(answer, (g.answers.get(answer) ?? 0) + 1);
    groups.set(label, g);
  };
  let toFaulted = 0;
  let slowest: PhaseResult['slowest'];
  for (const o of outcomes) {
    if (sentToFaulted(o, target)) {
      toFaulted++;
      continue;
    }
    const key = statusKey(o);
    byStatus[key] = (byStatus[key] ?? 0) + 1;
    if (!key.startsWith('2')) unusual.set(`${o.kind} ${key}`, (unusual.get(`${o.kind} ${key}`) ?? 0) + 1);
    if (!slowest || o.ms > slowest.ms) slowest = { ms: o.ms, kind: o.kind, status: key };
    if (o.problem) note(`${o.kind}: ${o.problem}`, o);
    if (o.error !== undefined) {
      note(`${o.kind}: no answer (connection error or timeout)`, o);
    } else if (o.kind.startsWith('respond') && o.status === 409 && o.code === 'already_answered') {
      // The other answer of a pair won (or an earlier answer answered with 503 had committed).
    } else if (o.status === 503 || o.status === 429) {
      if (!validRetryAfter(o.retryAfter)) note(`${o.kind}: ${o.status} without a valid Retry-After`, o);
    } else if (o.status === undefined || o.status < 200 || o.status > 299) {
      note(`${o.kind}: answered ${o.status}${o.code ? ` ${o.code}` : ''}`, o);
    }
    if (o.ms > boundMs) note(`${o.kind}: slower than ${boundMs} ms`, o);
  }
  const problems = [...groups].map(([label, g]) => {
    const answers = [...g.answers].map(([a, n]) => `${a} ×${n}`).join(', ');
    const ids = g.slowest.map((x) => `${x.id} ${x.ms} ms`).join(', ');
    return `${label}: ${g.n} request(s), slowest ${g.maxMs} ms; answers: ${answers} (e.g. ${ids})`;
  });
  const byKind = [...unusual].map(([k, n]) => `${k} ×${n}`).join(', ');
  return {
    requests: outcomes.length,
    byStatus,
    toFaulted,
    ...(slowest ? { slowest } : {}),
    problems,
    byKind,
  };
}

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

/** The table: one row per phase. */
export function table(results: PhaseResult[]): string {
  const head = [
    'fault',
    'requests',
    'outcomes by status (rules apply)',
    'to faulted',
    'slowest (bound)',
    'back',
    'recovered',
    'ok',
  ];
  const rows = results.map((r) => {
    const statuses = Object.entries(r.byStatus)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([s, n]) => `${s}:${n}`)
      .join(' ');
    return [
      r.name,
      String(r.requests),
      statuses,
      r.target === 'push-1' || r.target === 'auth' ? String(r.toFaulted) : '-',
      r.slowest ? `${r.slowest.ms} ms ${r.slowest.kind} ${r.slowest.status} (${r.boundMs})` : '-',
      r.backAfterMs !== undefined ? `${r.backAfterMs} ms` : '-',
      r.recoveryMs !== undefined ? `${r.recoveryMs} ms` : r.mode === 'none' ? '-' : 'NO',
      r.problems.length === 0 ? 'yes' : `NO (${r.problems.length})`,
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i]!)).join(' | ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line)].join('\n');
}
