import { type Html, html } from '@secret-push/html';
import { t, translator } from '@secret-push/i18n';
import type { FileLink } from '../domain/file-link';

const UNITS = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/**
 * A size as people read it, in the page's language (`Intl` units): "512 bytes", "2.1 kB", "14 MB";
 * "512 octets", "2,1 ko" in French (1 kB = 1024 bytes here, as file managers count).
 */
export function readableSize(bytes: number): string {
  const tr = translator();
  if (bytes < 1024) {
    return tr.number(bytes, { style: 'unit', unit: 'byte', unitDisplay: 'long', useGrouping: false });
  }
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = value < 10 ? Math.round(value * 10) / 10 : Math.round(value);
  return tr.number(shown, {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: 1,
    useGrouping: false,
  });
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
          <a class="button" href="${safe(archiveUrl)}" download="files.zip"
            >${t('recipient.files.downloadAll')}</a
          >
          <span class="muted"
            >${t('recipient.files.summary', { count: files.length, size: readableSize(total) })}</span
          >
        </p>`
      : '';
  return html`<h2>${t('recipient.files.heading')}</h2>
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
    <p class="muted">${t('recipient.files.note')}</p>`;
}
