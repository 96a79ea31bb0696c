import { type Html, html } from '@secret-push/html';
import type { FileLink } from '../domain/file-link';

const UNITS = ['KB', 'MB', 'GB', 'TB'];

/** A size as people read it: "512 bytes", "2.1 KB", "14 MB" (1 KB = 1024 bytes). */
export function readableSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = value < 10 ? value.toFixed(1).replace(/\.0$/, '') : String(Math.round(value));
  return `${shown} ${UNITS[unit]}`;
}

/** Only http(s) or same-origin links are put in an href. */
const safe = (url: string) => (/^(https?:\/\/|\/(?!\/))/i.test(url) ? url : '#');

/**
 * The files of a revealed push: each name (a download link) and its readable size, no MIME type;
 * with more than one file, "Download all" as one zip (`archiveUrl`).
 */
export function fileList(files: readonly FileLink[], archiveUrl?: string): Html {
  const total = files.reduce((sum, f) => sum + f.size, 0);
  const all =
    archiveUrl && files.length > 1
      ? html`<p class="download-all">
          <a class="button" href="${safe(archiveUrl)}" download="files.zip">Download all (zip)</a>
          <span class="muted">${files.length} files, ${readableSize(total)}</span>
        </p>`
      : '';
  return html`<h2>Files</h2>
    ${all}
    <ul class="files">
      ${files.map(
        (f) =>
          html`<li>
            <a href="${safe(f.url)}" download="${f.filename}">${f.filename}</a>
            <span class="muted size">${readableSize(f.size)}</span>
          </li>`,
      )}
    </ul>
    <p class="muted">Download the files now: these links stop working soon.</p>`;
}
