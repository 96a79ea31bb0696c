import type { RequestAuditEntry, RequestView, ResponderView } from '@secret-push/client';
import { humanSize, shortTime, table } from '../output.ts';

/** The human output of `secret-push request …` and `secret-push respond --show`. */

const stateOf = (r: RequestView) =>
  r.state === 'closed' ? `closed (${r.closed_reason === 'time' ? 'by time' : 'by you'})` : r.state;

export function requestTable(requests: readonly RequestView[]): string {
  return table(
    ['NAME', 'STATE', 'CLOSES', 'LINK'],
    requests.map((r) => [
      r.name || '-',
      stateOf(r),
      r.state === 'closed' ? shortTime(r.closed_at) : shortTime(r.close_after_at),
      r.html_url,
    ]),
  );
}

const lines = (rows: [string, string][]) => rows.map(([k, v]) => `${k}: ${v}\n`).join('');

/** A request, one `name: value` line each (never the answer's content). */
export function requestDetails(r: RequestView): string {
  const rows: [string, string][] = [
    ['link', r.html_url],
    ['state', stateOf(r)],
    ['name', r.name || '-'],
    ['note', r.note || '-'],
    ['message', r.request.replace(/\s*\n\s*/g, ' ')],
    ['answerable by', r.answerable_by === 'emails' ? r.answerable_emails.join(', ') : r.answerable_by],
    ['passphrase', r.passphrase ? 'yes' : 'no'],
    ['files in the answer', r.response_file_attachments ? 'allowed' : 'no'],
    ['closes', shortTime(r.close_after_at)],
    ['answer views', String(r.expire_after_views)],
  ];
  for (const f of r.files) rows.push(['attached', `${f.filename} (${humanSize(f.size)})`]);
  if (r.answer) {
    rows.push(['answered', shortTime(r.answer.answered_at)]);
    rows.push(['answer', `${r.answer.html_url} (secret-push request answer ${r.url_token})`]);
  }
  if (r.closed_at) rows.push(['closed', shortTime(r.closed_at)]);
  return lines(rows);
}

export function requestAuditTable(entries: readonly RequestAuditEntry[]): string {
  return table(
    ['TIME', 'EVENT', 'IP', 'USER AGENT'],
    entries.map((e) => [shortTime(e.created_at), e.kind, e.ip ?? '-', e.user_agent || '-']),
  );
}

/** What the responder is asked, and how to answer. */
export function responderDetails(v: ResponderView): string {
  const rows: [string, string][] = [['from', v.requestor ?? '-']];
  rows.push(['passphrase', v.passphrase_required ? 'required (--passphrase-file PATH)' : 'no']);
  rows.push(['files', v.response_file_attachments ? `allowed (up to ${v.limits.max_files})` : 'not allowed']);
  if (v.answerable_by !== 'anyone') {
    rows.push([
      'answerable by',
      v.answerable_by === 'users' ? 'signed-in users (a token)' : 'listed addresses (--email ADDRESS)',
    ]);
  }
  rows.push(['closes', shortTime(v.close_after_at)]);
  for (const f of v.files) {
    rows.push(['attached', `${f.filename} (${humanSize(f.size)}, ${f.downloads_left} downloads left)`]);
  }
  return `${v.request}\n\n${lines(rows)}`;
}
