import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { z } from 'zod';
import { envSection } from './env-config';
import { envBoolean } from './env-types';

const LOGO_TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
};
const LOGO_MAX_BYTES = 100 * 1024;

/** A line of text people read: no control characters, at most `max` characters. */
const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be blank')
    .max(max, `must be at most ${max} characters`)
    // eslint-disable-next-line no-control-regex -- refusing control characters is the point
    .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'must not contain control characters');

/** A footer link: an https URL or a mailto: address. */
const link = () =>
  z
    .string()
    .refine((v) => {
      const url = URL.parse(v);
      return (
        url !== null && (url.protocol === 'https:' || (url.protocol === 'mailto:' && url.pathname !== ''))
      );
    }, 'must be an https:// URL or a mailto: address')
    .optional();

/** `#rrggbb` that white text reads on, and that reads on white (WCAG AA, 4.5:1). */
const accent = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour as #rrggbb')
  .transform((v) => v.toLowerCase())
  .refine(
    (v) => whiteContrast(v) >= 4.5,
    'must be dark enough for white text on it and for links on white (contrast at least 4.5:1 with white)',
  );

function whiteContrast(hex: string): number {
  const lin = [1, 3, 5].map((i) => {
    const s = parseInt(hex.slice(i, i + 2), 16) / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const l = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
  return 1.05 / (l + 0.05);
}

/** The logo file, read once at start: `.svg`, `.png` or `.webp`, at most 100 KiB. */
const logoFile = z
  .string()
  .transform((path, ctx) => {
    const contentType = LOGO_TYPES[extname(path).toLowerCase()];
    if (!contentType) {
      ctx.addIssue({ code: 'custom', message: 'must be a .svg, .png or .webp file' });
      return z.NEVER;
    }
    let data: Buffer;
    try {
      data = readFileSync(path);
    } catch (err) {
      ctx.addIssue({
        code: 'custom',
        message: `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      });
      return z.NEVER;
    }
    if (data.length === 0 || data.length > LOGO_MAX_BYTES) {
      ctx.addIssue({ code: 'custom', message: 'must be a file of 1 byte to 100 KiB' });
      return z.NEVER;
    }
    return { contentType, data: new Uint8Array(data) };
  })
  .optional();

/**
 * The operator's branding, shared by the push service (web app, recipient pages) and the auth
 * service (sign-in pages): one definition, read by both services' loaders, so both look the same.
 * `branding` of the config object is what `useBranding` of @secret-push/html takes.
 */
export const brandingSection = envSection(
  'Branding',
  {
    BRAND_NAME: text(60)
      .default('secret-push')
      .describe('The product name people see: header, tab title, footer (at most 60 characters)'),
    BRAND_TAGLINE: text(120)
      .optional()
      .describe('A line after the name in the footer (at most 120 characters)'),
    BRAND_ACCENT_COLOR: accent
      .default('#0b57d0')
      .describe(
        'The accent colour (`#rrggbb`) of buttons, links and focus rings; it must read on white (contrast ' +
          'at least 4.5:1); dark pages use a lighter tint of it, computed to read on their background',
      ),
    BRAND_LOGO_FILE: logoFile.describe(
      'A logo file (`.svg`, `.png` or `.webp`, at most 100 KiB), read at start and served at `/static/logo` ' +
        'and as the favicon; unset: the default logo',
    ),
    BRAND_LOGO_URL: z
      .string()
      .refine((v) => URL.parse(v)?.protocol === 'https:', 'must be an https:// URL')
      .optional()
      .describe(
        "Or a logo at an https:// URL (its origin is added to the pages' CSP `img-src`); not with BRAND_LOGO_FILE",
      ),
    BRAND_PRIVACY_URL: link().describe(
      'A "Privacy" link in the footer: an https:// URL or a mailto: address',
    ),
    BRAND_TERMS_URL: link().describe('A "Terms" link in the footer: an https:// URL or a mailto: address'),
    BRAND_CONTACT_URL: link().describe(
      'A "Contact" link in the footer: an https:// URL or a mailto: address',
    ),
    BRAND_NOTICE: text(500)
      .optional()
      .describe(
        'A notice shown under the header of every page (at most 500 characters), e.g. "For staff only"',
      ),
    BRAND_UNBRANDED_RECIPIENT_PAGES: envBoolean()
      .default(false)
      .describe(
        "The pages a link's recipient sees (`/p/…`, `/respond/…`) show no logo, tagline or footer links, " +
          'and "Secret link" for the name',
      ),
  },
  (v) => ({
    branding: {
      name: v.BRAND_NAME,
      tagline: v.BRAND_TAGLINE,
      accent: v.BRAND_ACCENT_COLOR,
      logo: v.BRAND_LOGO_FILE,
      logoUrl: v.BRAND_LOGO_URL,
      privacyUrl: v.BRAND_PRIVACY_URL,
      termsUrl: v.BRAND_TERMS_URL,
      contactUrl: v.BRAND_CONTACT_URL,
      notice: v.BRAND_NOTICE,
      unbrandedRecipientPages: v.BRAND_UNBRANDED_RECIPIENT_PAGES,
    },
  }),
  {
    check: (v) =>
      v.BRAND_LOGO_FILE && v.BRAND_LOGO_URL
        ? ['BRAND_LOGO_URL: set BRAND_LOGO_FILE or BRAND_LOGO_URL, not both']
        : [],
  },
);
