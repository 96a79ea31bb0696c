import { join } from 'node:path';
import { I18n } from '@secret-push/i18n';
import { html } from './html';
import { clientMessages, languageSelector, rich } from './i18n';
import { pageFrame } from './frame';

const i18n = new I18n({
  dirs: [
    join(__dirname, '..', '..', 'i18n', 'locales'),
    join(__dirname, '..', '..', 'i18n', 'src', 'fixtures', 'locales'),
  ],
  languages: ['en', 'de', 'pl'],
  defaultLanguage: 'en',
});

describe('rich messages', () => {
  it('escapes the text and the values, and takes markup only from the tags the caller renders', () => {
    const out = i18n.run('de', '/', () =>
      rich('demo.rich', { what: '<script>x</script>', link: (c) => html`<a href="/about">${c}</a>` }),
    );
    expect(out.value).toBe(
      'Lesen Sie, <a href="/about">wie es funktioniert</a>, oder <strong>&lt;script&gt;x&lt;/script&gt;</strong>',
    );
  });
});

describe('the frame in a language', () => {
  it('sets lang and dir, translates its own texts and offers the languages by their own names', () => {
    const page = i18n.run('de', '/p/abc', () =>
      pageFrame({ title: 'T', body: html`<p>x</p>`, stylesheet: '/s.css' }),
    ).value;
    expect(page).toContain('<html lang="de" dir="ltr">');
    expect(page).toContain('Zum Inhalt springen');
    expect(page).toMatch(/<option value="pl" lang="pl" >\s*Polski\s*<\/option>/);
    expect(page).toMatch(/<option value="de" lang="de" selected>\s*Deutsch\s*<\/option>/);
    expect(page).toContain('name="back" value="/p/abc"');
    expect(page).toContain('data-label-dark="Design: dunkel"');
  });

  it('offers no selector where only one language is offered', () => {
    const one = new I18n({
      dirs: [join(__dirname, '..', '..', 'i18n', 'locales')],
      languages: ['en'],
      defaultLanguage: 'en',
    });
    expect(one.run('en', '/', () => languageSelector('header')).value).toBe('');
  });

  it('puts script texts in a JSON data block that cannot close its script element', () => {
    const block = clientMessages({ a: '</script><b>&' }).value;
    expect(block).not.toContain('</script><b>');
    expect(JSON.parse(block.replace(/^<script[^>]*>|<\/script>$/g, ''))).toEqual({ a: '</script><b>&' });
  });
});
