import { withTranslator } from '@secret-push/i18n';
import type { I18n } from '@secret-push/i18n';
import { readableSize, respondPage } from './respond.views';
import { pushI18n } from '../languages';

// The views speak the default language (English) outside a request.
let i18n: I18n;
beforeAll(() => {
  i18n = pushI18n();
});

describe('readableSize', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [999, '999 bytes'],
    [1000, '1 kB'],
    [1500, '1.5 kB'],
    [999_949, '999.9 kB'],
    [999_950, '1 MB'],
    [2_411_212, '2.4 MB'],
    [1_100_000_000, '1.1 GB'],
    [5_000_000_000_000_000, '5,000 TB'],
  ])('%d → %s', (n, words) => {
    expect(readableSize(n)).toBe(words);
  });

  it('in the page’s language: German and Polish numbers and units', () => {
    const inLanguage = (tag: string, n: number) =>
      withTranslator(i18n.translator(tag), () => readableSize(n));
    expect(inLanguage('de', 1500)).toBe('1,5 kB');
    expect(inLanguage('de', 512)).toBe('512 Byte');
    expect(inLanguage('pl', 2_411_212)).toBe('2,4 MB');
  });
});

describe('respondPage', () => {
  const request = {
    message: 'Send the <key>',
    requestor: null,
    passphraseRequired: false,
    fileAnswers: true,
    answerableBy: 'anyone' as const,
    closeAfterAt: new Date('2030-01-01T00:00:00Z'),
    files: [
      { id: 'f1', filename: 'a "b".pdf', contentType: 'application/pdf', size: 2048, downloadsLeft: 2 },
    ],
    limits: { maxFiles: 3, maxFileBytes: 1024 * 1024, maxTotalBytes: 2 * 1024 * 1024 },
  };

  it('a request that takes files: a multipart form with its limits and the upload script; the files linked, escaped', () => {
    const page = respondPage({ token: 'T', request, files: true, downloads: true }).value;
    expect(page).toContain('enctype="multipart/form-data"');
    expect(page).toContain('Up to 3 files, each at most 1 MiB, 2 MiB together.');
    expect(page).toContain('<script src="/static/respond-form.js" defer></script>');
    expect(page).toContain(
      '<a href="/respond/T/files/f1" download="a &quot;b&quot;.pdf">a &quot;b&quot;.pdf</a>',
    );
    expect(page).toMatch(/\(2 kB;\s+2 downloads left\)/);
    expect(page).toContain('Send the &lt;key&gt;');
  });

  it('without an object store: a text form, no upload script, the files named but not linked', () => {
    const page = respondPage({ token: 'T', request, files: false, downloads: false }).value;
    expect(page).not.toContain('multipart/form-data');
    expect(page).not.toContain('respond-form.js');
    expect(page).not.toContain('/respond/T/files/');
    expect(page).toContain('<span>a &quot;b&quot;.pdf</span>');
  });

  it('listed addresses: the code request first, then (the code sent) the address kept in the answer form', () => {
    const listed = { ...request, answerableBy: 'emails' as const };
    const first = respondPage({ token: 'T', request: listed, files: false }).value;
    expect(first).toContain('<form method="post" action="/respond/T/code">');
    const sent = respondPage({
      token: 'T',
      request: listed,
      files: false,
      codeSent: true,
      values: { email: 'a@example.org' },
    }).value;
    expect(sent).not.toContain('action="/respond/T/code"');
    expect(sent).toContain('a code was sent to it');
    expect(sent).toContain('<a href="/respond/T">Ask for a new code</a>');
    expect(sent).toMatch(/id="email"[^>]*value="a@example.org"/);
  });

  it('says when the request closes like the owner pages: relative, then the exact time the times script converts', () => {
    const now = new Date('2029-12-26T00:00:00Z');
    const page = respondPage({ token: 'T', request, files: false, now }).value;
    expect(page).toMatch(/You can answer once\. The request closes\s+<span class="when"\s*>in 6 days\s/);
    expect(page).toContain('<time datetime="2030-01-01T00:00:00.000Z" data-at="2030-01-01T00:00:00.000Z"');
    expect(page).toContain('Jan 1, 2030, 00:00 UTC</time');
    expect(page).toContain('<script src="/static/times.js" defer></script>');
  });

  it('a request made of files alone: a line that says so, no empty message box', () => {
    const page = respondPage({ token: 'T', request: { ...request, message: '' }, files: false }).value;
    expect(page).not.toContain('class="secret" id="request-message"');
    expect(page).toMatch(
      /<p id="request-message">\s*The requester sent no message, only the files below, and asks/,
    );
    const blank = respondPage({
      token: 'T',
      request: { ...request, message: ' \n ', files: [] },
      files: false,
    });
    expect(blank.value).toMatch(
      /<p id="request-message">\s*The requester sent no message and asks for your answer\./,
    );
  });

  it('a request with a message: the message in its box', () => {
    const page = respondPage({ token: 'T', request, files: false }).value;
    expect(page).toContain('<div class="secret" id="request-message">Send the &lt;key&gt;</div>');
  });
});
