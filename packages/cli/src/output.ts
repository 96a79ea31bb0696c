import type { AuditEntry, OwnedPush } from '@secret-push/client';

/** A plain text table: columns padded to their widest cell, the last one not padded. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].map((l) => `${l}\n`).join('');
}

/** `2026-11-24 14:05 UTC`. */
export function shortTime(iso: string | null | undefined): string {
  if (!iso) return '-';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function pushTable(pushes: readonly OwnedPush[]): string {
  return table(
    ['NAME', 'KIND', 'VIEWS LEFT', 'EXPIRES', 'LINK'],
    pushes.map((p) => [
      p.name || '-',
      p.kind,
      String(p.views_remaining),
      p.expired ? `expired ${shortTime(p.expired_on)}` : shortTime(p.expires_at),
      p.html_url,
    ]),
  );
}

export function auditTable(entries: readonly AuditEntry[]): string {
  return table(
    ['TIME', 'EVENT', 'IP', 'USER AGENT'],
    entries.map((e) => [shortTime(e.created_at), e.kind, e.ip ?? '-', e.user_agent || '-']),
  );
}

export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 'B';
  for (const u of units) {
    if (value < 1024) break;
    value /= 1024;
    unit = u;
  }
  return `${value.toFixed(1)} ${unit}`;
}

/**
 * A progress bar on stderr, redrawn in place (only when stderr is a terminal; otherwise every
 * method does nothing).
 */
export function progressBar(
  stderr: { write(s: string): unknown },
  enabled: boolean,
  label: string,
  total: number | undefined,
) {
  let last = 0;
  let drawn = false;
  const draw = (done: number) => {
    const width = 30;
    if (total && total > 0) {
      const ratio = Math.min(1, done / total);
      const filled = Math.round(ratio * width);
      stderr.write(
        `\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}% ${humanSize(Math.min(done, total))}`,
      );
    } else {
      stderr.write(`\r${label} ${humanSize(done)}`);
    }
    drawn = true;
  };
  return {
    update(done: number) {
      if (!enabled) return;
      const now = Date.now();
      if (now - last < 100 && (!total || done < total)) return;
      last = now;
      draw(done);
    },
    finish() {
      if (enabled && drawn) stderr.write('\n');
    },
  };
}
