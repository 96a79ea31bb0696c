import {
  DEFAULT_BRANDING,
  brandCss,
  contrast,
  darkAccent,
  html,
  imageSources,
  pageFrame,
  useBranding,
} from './index';
import { FRAME_CATALOGUES, I18n } from '@secret-push/i18n';

// The frame's texts: English, the default language outside a request.
new I18n({ dirs: [FRAME_CATALOGUES], languages: ['en'], defaultLanguage: 'en' });

const page = (recipient = false) =>
  pageFrame({
    title: 'T',
    body: html`<h1>T</h1>`,
    nav: html`<nav class="site-nav" aria-label="Site"><a href="/">Home</a></nav>`,
    homeHref: '/',
    recipient,
    stylesheet: '/static/pages.css',
    themeScript: true,
    links: [{ href: '/about', label: 'How it works' }],
  }).value;

afterEach(() => useBranding(DEFAULT_BRANDING));

describe('pageFrame', () => {
  it('puts the skip link first, then header, main and footer side by side', () => {
    const out = page();
    const order = [
      'class="skip" href="#main"',
      '<header class="site">',
      '<main id="main"',
      '<footer class="site">',
    ];
    const at = order.map((s) => out.indexOf(s));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(out.indexOf('</main>')).toBeLessThan(out.indexOf('<footer'));
    expect(out.indexOf('</header>')).toBeLessThan(out.indexOf('<main'));
    expect(out).toContain('<title>T · secret-push</title>');
    expect(out).toContain('<link rel="icon" href="/favicon.svg" />');
    expect(out).toContain('<script src="/static/theme.js"></script>');
  });

  it("escapes the operator's texts and shows the links; unbranded recipient pages show none of them", () => {
    useBranding({
      ...DEFAULT_BRANDING,
      name: 'A<b>',
      tagline: 'tag"line',
      notice: '<script>x</script>',
      contactUrl: 'mailto:it@acme.example',
      unbrandedRecipientPages: true,
    });
    const out = page();
    expect(out).toContain('A&lt;b&gt;');
    expect(out).toContain('tag&quot;line');
    expect(out).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(out).not.toContain('<script>x');
    expect(out).toContain('href="mailto:it@acme.example"');
    const plain = page(true);
    expect(plain).toContain('<title>T · Secret link</title>');
    for (const gone of [
      'A&lt;b&gt;',
      'tag&quot;line',
      'mailto:',
      'brand-logo',
      'How it works',
      'site-notice',
    ]) {
      expect(plain).not.toContain(gone);
    }
  });
});

describe('the logo', () => {
  it("is ours at /static/logo, or the operator's URL, whose origin the CSP then allows", () => {
    expect(page()).toContain('src="/static/logo"');
    expect(imageSources()).toBe("'self' data:");
    useBranding({ ...DEFAULT_BRANDING, logoUrl: 'https://cdn.acme.example/brand/logo.svg' });
    expect(page()).toContain('src="https://cdn.acme.example/brand/logo.svg"');
    expect(imageSources()).toBe("'self' data: https://cdn.acme.example");
  });
});

describe('brand colours', () => {
  it('derives a dark-page accent that reads on the dark backgrounds, whatever the accent', () => {
    for (const accent of ['#0b57d0', '#7a1fa2', '#000000', '#b3261e', '#1e6b34']) {
      const dark = darkAccent(accent);
      expect(contrast(dark, '#121212')).toBeGreaterThanOrEqual(4.5);
      expect(contrast(dark, '#1f2328')).toBeGreaterThanOrEqual(4.5);
    }
    expect(contrast('#ffffff', '#000000')).toBeCloseTo(21, 5);
  });

  it('writes the accent for light, system-dark and chosen-dark pages', () => {
    const css = brandCss({ ...DEFAULT_BRANDING, accent: '#7a1fa2' });
    expect(css).toContain(':root { --accent: #7a1fa2; --accent-fg: #ffffff; }');
    expect(css).toContain(':root:not([data-theme="light"])');
    expect(css).toContain(':root[data-theme="dark"]');
  });
});
