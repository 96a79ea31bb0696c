/**
 * Characters a name never keeps: C0 and C1 controls and DEL; the bidirectional embeddings,
 * overrides and isolates (U+202A–U+202E, U+2066–U+2069) and marks (U+200E, U+200F, U+061C), with
 * which `invoice` U+202E `fdp.exe` shows as `invoiceexe.pdf`; the zero-width space, joiners and
 * non-joiner (U+200B–U+200D) and the BOM / zero-width no-break space (U+FEFF), which hide
 * characters between others.
 */
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * A file name as stored, shown and served: no directories, no control or invisible formatting
 * characters (INVISIBLE), at most 255 characters. Applied when a file is stored and again when a
 * stored name is read (names stored before a character joined INVISIBLE).
 */
export function safeFilename(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  const clean = base.replace(INVISIBLE, '').trim();
  const name = clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
  return [...name].slice(0, 255).join('');
}

/** A declared content type kept only if it is a plain `type/subtype`; otherwise octet-stream. */
export function safeContentType(raw: string | undefined): string {
  const t = (raw ?? '').toLowerCase().split(';')[0]!.trim();
  return /^[a-z0-9][\w.+-]*\/[a-z0-9][\w.+-]*$/.test(t) && t.length <= 127 ? t : 'application/octet-stream';
}
