import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, brandingSection, defineConfig } from './index';

const config = defineConfig([brandingSection]);
const problems = (env: Record<string, string>): string => {
  try {
    config.load(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  return '';
};

describe('branding (BRAND_*)', () => {
  it('defaults to secret-push in its blue, branded everywhere', () => {
    expect(config.load({}).branding).toEqual({
      name: 'secret-push',
      accent: '#0b57d0',
      unbrandedRecipientPages: false,
    });
  });

  it("takes the operator's name, tagline, accent, links, notice and unbranded recipient pages", () => {
    const b = config.load({
      BRAND_NAME: '  Acme Vault ',
      BRAND_TAGLINE: 'Secrets for Acme',
      BRAND_ACCENT_COLOR: '#7A1FA2',
      BRAND_PRIVACY_URL: 'https://acme.example/privacy',
      BRAND_TERMS_URL: 'https://acme.example/terms',
      BRAND_CONTACT_URL: 'mailto:it@acme.example',
      BRAND_NOTICE: 'For staff only.',
      BRAND_UNBRANDED_RECIPIENT_PAGES: 'yes',
    }).branding;
    expect(b).toEqual({
      name: 'Acme Vault',
      tagline: 'Secrets for Acme',
      accent: '#7a1fa2',
      privacyUrl: 'https://acme.example/privacy',
      termsUrl: 'https://acme.example/terms',
      contactUrl: 'mailto:it@acme.example',
      notice: 'For staff only.',
      unbrandedRecipientPages: true,
    });
  });

  it.each([
    ['BRAND_ACCENT_COLOR', 'blue', 'must be a colour as #rrggbb'],
    ['BRAND_ACCENT_COLOR', '#ffd700', 'contrast at least 4.5:1 with white'],
    ['BRAND_PRIVACY_URL', 'http://acme.example/privacy', 'must be an https:// URL or a mailto: address'],
    ['BRAND_CONTACT_URL', 'javascript:alert(1)', 'must be an https:// URL or a mailto: address'],
    ['BRAND_TERMS_URL', 'mailto:', 'must be an https:// URL or a mailto: address'],
    ['BRAND_NAME', '   ', 'must not be blank'],
    ['BRAND_NAME', 'x'.repeat(61), 'at most 60 characters'],
    ['BRAND_NOTICE', 'line\nbreak', 'must not contain control characters'],
    ['BRAND_UNBRANDED_RECIPIENT_PAGES', 'maybe', 'must be true or false'],
    ['BRAND_LOGO_FILE', '/nonexistent/logo.svg', 'cannot be read (ENOENT)'],
    ['BRAND_LOGO_FILE', '/etc/hostname', 'must be a .svg, .png or .webp file'],
    ['BRAND_LOGO_URL', 'http://acme.example/logo.svg', 'must be an https:// URL'],
  ])('refuses %s=%j at start', (name, value, message) => {
    const text = problems({ [name]: value });
    expect(text).toContain(name);
    expect(text).toContain(message);
  });

  it('reads the logo file once at start, with its type; refuses an empty or too large one', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'brand-'));
    const svg = path.join(dir, 'logo.svg');
    writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const logo = config.load({ BRAND_LOGO_FILE: svg }).branding.logo;
    expect(logo?.contentType).toBe('image/svg+xml');
    expect(Buffer.from(logo!.data).toString()).toBe('<svg xmlns="http://www.w3.org/2000/svg"/>');
    const big = path.join(dir, 'big.png');
    writeFileSync(big, Buffer.alloc(100 * 1024 + 1));
    expect(problems({ BRAND_LOGO_FILE: big })).toContain('must be a file of 1 byte to 100 KiB');
    expect(problems({ BRAND_LOGO_FILE: svg, BRAND_LOGO_URL: 'https://cdn.acme.example/l.svg' })).toContain(
      'set BRAND_LOGO_FILE or BRAND_LOGO_URL, not both',
    );
    expect(config.load({ BRAND_LOGO_URL: 'https://cdn.acme.example/l.svg' }).branding.logoUrl).toBe(
      'https://cdn.acme.example/l.svg',
    );
    const empty = path.join(dir, 'empty.webp');
    writeFileSync(empty, '');
    expect(problems({ BRAND_LOGO_FILE: empty })).toContain('must be a file of 1 byte to 100 KiB');
  });
});
