/** One named check of the deployment files and what it found wrong (empty: it passed). */
export interface CheckResult {
  name: string;
  problems: string[];
}

export const check = (name: string, problems: string[]): CheckResult => ({ name, problems });

/** Prints every check, then the plain closing line "<label>: N passed, N failed". */
export function printReport(
  results: CheckResult[],
  out: (line: string) => void,
  label = 'deploy checks',
): boolean {
  for (const r of results) {
    out(`${r.problems.length === 0 ? 'ok  ' : 'FAIL'} ${r.name}`);
    for (const p of r.problems) out(`       ${p}`);
  }
  const failed = results.filter((r) => r.problems.length > 0).length;
  out(`${label}: ${results.length - failed} passed, ${failed} failed`);
  return failed === 0;
}
