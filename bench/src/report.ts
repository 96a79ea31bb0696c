import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

export interface Figure {
  name: string;
  value: number;
  unit: string;
  target?: string;
  pass?: boolean;
}

/** A table printed after the figures (e.g. CPU per request split by process). */
export interface Table {
  title: string;
  columns: string[];
  rows: (string | number)[][];
}

export interface BenchResult {
  benchmark: string;
  description: string;
  figures: Figure[];
  tables?: Table[];
}

export function machine(): string {
  return `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

/**
 * Writes `bench/results/latest.json` and `latest.md` (tracked) and a dated copy of each (git-ignored:
 * kept locally for comparing runs; a result worth keeping goes into a report in bench/reports/).
 */
export function writeResults(dir: string, results: BenchResult[]): string {
  mkdirSync(dir, { recursive: true });
  const date = new Date().toISOString();
  const lines = [`# Benchmark results`, '', `${date} — ${machine()}`, ''];
  for (const r of results) {
    lines.push(
      `## ${r.benchmark}`,
      '',
      r.description,
      '',
      '| figure | value | target | |',
      '|---|---|---|---|',
    );
    for (const f of r.figures) {
      const mark = f.pass === undefined ? '' : f.pass ? 'pass' : 'MISS';
      lines.push(`| ${f.name} | ${f.value} ${f.unit} | ${f.target ?? ''} | ${mark} |`);
    }
    lines.push('');
    for (const t of r.tables ?? []) {
      lines.push(
        `### ${t.title}`,
        '',
        `| ${t.columns.join(' | ')} |`,
        `|${t.columns.map(() => '---').join('|')}|`,
      );
      for (const row of t.rows) lines.push(`| ${row.join(' | ')} |`);
      lines.push('');
    }
  }
  const md = lines.join('\n');
  const json = JSON.stringify({ date, machine: machine(), results }, null, 2);
  const stamp = date.replace(/[:.]/g, '-');
  writeFileSync(join(dir, 'latest.md'), md);
  writeFileSync(join(dir, 'latest.json'), json);
  writeFileSync(join(dir, `${stamp}.md`), md);
  writeFileSync(join(dir, `${stamp}.json`), json);
  return md;
}
