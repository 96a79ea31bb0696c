import type { HttpRequest } from './http-send';
import type { EndpointStats, Failure } from './runner';

/*
 * The suite's report: per endpoint, how many inputs were tried, how many reached validation, the
 * statuses they got and the time spent; then every distinct failure with its shrunk request,
 * written so it can be replayed (a curl command with the body in a file when it is not printable).
 */

const pct = (n: number, d: number) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);

function statusSummary(statuses: Map<string, number>): string {
  return [...statuses.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, n]) => `${s}:${n}`)
    .join(' ');
}

export function endpointTable(all: EndpointStats[], wallMs: number): string {
  const rows = all.map((s) => [
    s.endpoint.service,
    s.endpoint.name,
    String(s.tried),
    pct(s.reached, s.tried),
    s.tried === 0 ? '-' : (s.elapsedMs / (s.tried + s.shrinkRequests)).toFixed(1),
    s.tried === 0 ? '-' : (s.sendMs / (s.tried + s.shrinkRequests)).toFixed(1),
    s.tried === 0 ? '-' : (s.snapshotMs / (s.tried + s.shrinkRequests)).toFixed(1),
    String(s.failures.length),
    statusSummary(s.statuses),
  ]);
  const header = ['svc', 'endpoint', 'inputs', 'reached', 'ms/req', 'answer', 'snap', 'fail', 'statuses'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  const total = all.reduce((n, s) => n + s.tried, 0);
  const shrinks = all.reduce((n, s) => n + s.shrinkRequests, 0);
  const late = all.reduce((n, s) => n + s.lateChanges, 0);
  const cleanups = all.reduce((n, s) => n + s.lateCleanups, 0);
  const byService = (svc: string) =>
    all.filter((s) => s.endpoint.service === svc).reduce((n, s) => n + s.tried, 0);
  return [
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    `inputs: ${total} (push ${byService('push')}, auth ${byService('auth')}), shrink replays: ${shrinks}, ` +
      `fuzzing time: ${(all.reduce((n, s) => n + s.elapsedMs, 0) / 1000).toFixed(1)} s, wall time: ${(wallMs / 1000).toFixed(1)} s`,
    `refused multipart requests whose state still changed after the answer (judged once settled): ${late}; ` +
      `leftovers of unanswered requests cleaned up late (not blamed on the request running then): ${cleanups}`,
  ].join('\n');
}

/** Printable rendering of a body: text as is (control characters escaped), cut when long. */
function showBody(body: Buffer | undefined, limit = 1200): string {
  if (!body || body.length === 0) return '(none)';
  const text = body.toString('utf8');
  const printable = [...text.slice(0, limit)]
    .map((c) => {
      const code = c.codePointAt(0)!;
      const control =
        (code < 0x20 && c !== '\n' && c !== '\r' && c !== '\t') || code === 0x7f || code === 0xfffd;
      return control ? (code === 0xfffd ? '\\ufffd' : `\\x${code.toString(16).padStart(2, '0')}`) : c;
    })
    .join('');
  return `${printable}${text.length > limit ? `… (${body.length} bytes in all)` : ''}`;
}

export function showRequest(req: HttpRequest): string {
  const lines = [`${req.method} ${req.target}`];
  for (const [k, v] of req.headers) {
    lines.push(`${k}: ${v.length > 300 ? `${v.slice(0, 300)}… (${v.length} chars)` : v}`);
  }
  if (req.chunked && req.body) lines.push('Transfer-Encoding: chunked');
  lines.push('', showBody(req.body));
  return lines.join('\n');
}

/** A shell command replaying the request against `base` (body bytes from `bodyFile`). */
export function curlOf(req: HttpRequest, base: string, bodyFile: string): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const parts = ['curl -sS -i', '-X', req.method];
  for (const [k, v] of req.headers) parts.push('-H', q(`${k}: ${v.length > 2000 ? '…' : v}`));
  if (req.body && req.body.length > 0) parts.push('--data-binary', `@${bodyFile}`);
  parts.push(q(`${base}${req.target}`));
  return parts.join(' ');
}

export function failureReport(f: Failure, index: number): string {
  return [
    `#${index} ${f.signature}`,
    `   seen ${f.occurrences}x; input family: ${f.family}; shrunk in ${f.shrinkSteps} replays (seed ${f.seed}, path ${f.path ?? '-'})`,
    `   answer: ${f.error !== undefined ? `no answer (${f.error})` : f.status}${f.change ? `; changed: ${f.change}` : ''}`,
    `   response body: ${f.responseBody.slice(0, 300) || '(empty)'}`,
    ...(f.logs.length > 0 ? [`   logged: ${f.logs[0]!.slice(0, 600)}`] : []),
    '   minimal request:',
    ...showRequest(f.request)
      .split('\n')
      .map((l) => `     ${l}`),
  ].join('\n');
}

export function failuresReport(all: EndpointStats[]): string {
  const failures = all.flatMap((s) => s.failures);
  if (failures.length === 0) return 'no failures';
  return [`${failures.length} distinct failure(s):`, ...failures.map((f, i) => failureReport(f, i + 1))].join(
    '\n\n',
  );
}
