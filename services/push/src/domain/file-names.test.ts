import { safeContentType, safeFilename } from './file-names';

describe('safeFilename', () => {
  it.each([
    ['report.pdf', 'report.pdf'],
    ['résumé 2026.pdf', 'résumé 2026.pdf'],
    ['日本語のファイル.txt', '日本語のファイル.txt'],
    ['.hidden', '.hidden'],
    ['archive.tar.gz', 'archive.tar.gz'],
  ])('keeps a plain name: %j', (raw, expected) => {
    expect(safeFilename(raw)).toBe(expected);
  });

  it.each([
    ['../../etc/passwd', 'passwd'],
    ['/absolute/path/to/key.pem', 'key.pem'],
    ['C:\\Users\\me\\Desktop\\secret.docx', 'secret.docx'],
    ['mixed/dirs\\and/back\\slashes.txt', 'slashes.txt'],
    ['..\\..\\windows\\system.ini', 'system.ini'],
  ])('strips directories: %j', (raw, expected) => {
    expect(safeFilename(raw)).toBe(expected);
  });

  it.each([
    ['a\u0000b.txt', 'ab.txt'],
    ['line\nbreak\r.txt', 'linebreak.txt'],
    ['tab\there.txt', 'tabhere.txt'],
    ['esc\u001b[31mred.txt', 'esc[31mred.txt'],
    ['del\u007f.txt', 'del.txt'],
    ['c1\u0085\u009f.txt', 'c1.txt'],
    ['\u0001\u001f name.txt \u0000', 'name.txt'],
  ])('removes control characters: %j', (raw, expected) => {
    expect(safeFilename(raw)).toBe(expected);
  });

  it.each([
    ['invoice\u202efdp.exe', 'invoicefdp.exe'], // RLO: would show as "invoiceexe.pdf"
    ['a\u202ab\u202bc\u202cd\u202de.txt', 'abcde.txt'], // embeddings, pop, LRO
    ['\u2066x\u2067y\u2068z\u2069.txt', 'xyz.txt'], // isolates
    ['l\u200em\u200fa\u061c.txt', 'lma.txt'], // LRM, RLM, ALM
    ['zero\u200bwidth\u200c\u200d.txt', 'zerowidth.txt'], // ZWSP, ZWNJ, ZWJ
    ['\ufeffbom.txt', 'bom.txt'],
    ['\u202e\u2066', 'file'],
  ])('removes bidirectional and invisible formatting characters: %j', (raw, expected) => {
    expect(safeFilename(raw)).toBe(expected);
  });

  it('keeps letters of right-to-left scripts and visible punctuation', () => {
    expect(safeFilename('تقرير.pdf')).toBe('تقرير.pdf');
    expect(safeFilename('שלום-עולם.txt')).toBe('שלום-עולם.txt');
    expect(safeFilename('a\u2010b\u2013c.txt')).toBe('a\u2010b\u2013c.txt'); // hyphen, en dash
  });

  it('is idempotent (names are cleaned again when read)', () => {
    for (const raw of ['x\u202ey.exe', '../a\u0000b', ' \u200b.\u200b ', 'é'.repeat(300)]) {
      expect(safeFilename(safeFilename(raw))).toBe(safeFilename(raw));
    }
  });

  it.each([
    '',
    '   ',
    '.',
    '..',
    ' .. ',
    'dir/',
    'a/b/',
    'C:\\dir\\',
    '\u0000\u0001',
    '../..',
    'x/.',
    '\t.\n',
  ])('names %j "file"', (raw) => {
    expect(safeFilename(raw)).toBe('file');
  });

  it('caps the name at 255 characters', () => {
    expect(safeFilename('x'.repeat(255))).toBe('x'.repeat(255));
    expect(safeFilename('y'.repeat(1000))).toBe('y'.repeat(255));
  });

  it('counts the cap in code points and never splits a surrogate pair', () => {
    const name = safeFilename('😀'.repeat(300));
    expect([...name]).toHaveLength(255);
    expect(name).toBe('😀'.repeat(255));
    expect(name.length).toBe(510); // UTF-16 units: twice the code points

    const mixed = safeFilename(`a${'😀'.repeat(300)}`);
    expect([...mixed]).toHaveLength(255);
    expect(mixed).toBe(`a${'😀'.repeat(254)}`);
    // no lone surrogate: a UTF-8 round trip would turn one into U+FFFD
    expect(Buffer.from(mixed, 'utf8').toString('utf8')).toBe(mixed);
  });

  it('caps after removing directories and control characters', () => {
    expect(safeFilename(`${'d'.repeat(300)}/${'\u0000'.repeat(50)}${'n'.repeat(10)}`)).toBe('n'.repeat(10));
  });
});

describe('safeContentType', () => {
  it.each([
    ['text/plain', 'text/plain'],
    ['application/pdf', 'application/pdf'],
    ['image/svg+xml', 'image/svg+xml'],
    ['application/vnd.ms-excel', 'application/vnd.ms-excel'],
    [
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ],
    ['application/x-7z-compressed', 'application/x-7z-compressed'],
  ])('keeps %j', (raw, expected) => {
    expect(safeContentType(raw)).toBe(expected);
  });

  it.each([
    ['Text/HTML', 'text/html'],
    ['text/plain; charset=utf-8', 'text/plain'],
    ['  IMAGE/PNG ; q=1', 'image/png'],
    ['application/json;', 'application/json'],
  ])('normalises %j to %j', (raw, expected) => {
    expect(safeContentType(raw)).toBe(expected);
  });

  it.each([
    undefined,
    '',
    '   ',
    'text',
    'text/',
    '/plain',
    'text/plain/extra',
    'text /plain',
    'text/pl ain',
    '*/*',
    'text/*',
    '-text/plain',
    'text/plain\r\nX-Injected: 1',
    'text/plain\u0000',
    'tëxt/plain',
    '; charset=utf-8',
  ])('falls back to application/octet-stream for %j', (raw) => {
    expect(safeContentType(raw)).toBe('application/octet-stream');
  });

  it('keeps at most 127 characters', () => {
    const at127 = `a/${'b'.repeat(125)}`;
    expect(at127).toHaveLength(127);
    expect(safeContentType(at127)).toBe(at127);
    expect(safeContentType(`a/${'b'.repeat(126)}`)).toBe('application/octet-stream');
  });
});
