/** A file name as stored and served: no directories, no control characters, at most 255 characters. */
export function safeFilename(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const clean = base.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim();
  const name = clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
  return [...name].slice(0, 255).join('');
}

/** A declared content type kept only if it is a plain `type/subtype`; otherwise octet-stream. */
export function safeContentType(raw: string | undefined): string {
  const t = (raw ?? '').toLowerCase().split(';')[0]!.trim();
  return /^[a-z0-9][\w.+-]*\/[a-z0-9][\w.+-]*$/.test(t) && t.length <= 127 ? t : 'application/octet-stream';
}
