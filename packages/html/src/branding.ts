/**
 * The operator's branding, one definition for both services (the `BRAND_*` variables of
 * `@secret-push/config`'s branding section): each service sets it once at start
 * ({@link useBranding}); the page frame, the footer and `/static/brand.css` read it. A process
 * serves one brand.
 */
export interface Branding {
  /** The product name: header, tab title, footer. */
  readonly name: string;
  readonly tagline?: string | undefined;
  /** `#rrggbb`, readable on white (checked at start). */
  readonly accent: string;
  /** The operator's logo, read at start and served at `/static/logo`; absent: ours. */
  readonly logo?: { readonly contentType: string; readonly data: Uint8Array } | undefined;
  /** Or the operator's logo at an https URL (its origin is added to the pages' `img-src`). */
  readonly logoUrl?: string | undefined;
  readonly privacyUrl?: string | undefined;
  readonly termsUrl?: string | undefined;
  readonly contactUrl?: string | undefined;
  /** A short text shown on every page (maintenance, an internal-use notice). */
  readonly notice?: string | undefined;
  /** The recipient pages (`/p/…`, `/respond/…`) show no logo, tagline or links, and a neutral name. */
  readonly unbrandedRecipientPages: boolean;
}

export const DEFAULT_ACCENT = '#0b57d0';

export const DEFAULT_BRANDING: Branding = {
  name: 'secret-push',
  accent: DEFAULT_ACCENT,
  unbrandedRecipientPages: false,
};

let current: Branding = DEFAULT_BRANDING;

/** Sets the process's branding (at start, from the configuration). */
export function useBranding(branding: Branding): void {
  current = branding;
}

export const branding = (): Branding => current;

/** The CSP `img-src` of the pages: ours, `data:`, and the origin of the operator's logo URL. */
export function imageSources(b: Branding = current): string {
  const logo = b.logoUrl ? URL.parse(b.logoUrl) : null;
  return ["'self'", 'data:', ...(logo ? [logo.origin] : [])].join(' ');
}

/** The name shown on unbranded recipient pages. */
export const NEUTRAL_NAME = 'Secret link';

const channel = (hex: string, at: number) => parseInt(hex.slice(at, at + 2), 16);
const rgb = (hex: string): [number, number, number] => [channel(hex, 1), channel(hex, 3), channel(hex, 5)];
const toHex = (c: readonly number[]) =>
  `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/** WCAG relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two `#rrggbb` colours (1–21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The dark page's background and its boxes: the dark accent must read on both. */
const DARK_BACKGROUNDS = ['#121212', '#1f2328'];

/** The accent for dark pages: the light accent mixed with white until it reads on them (≥ 4.5:1). */
export function darkAccent(accent: string): string {
  const base = rgb(accent);
  for (let t = 0; t <= 1; t += 0.05) {
    const mixed = toHex(base.map((v) => v + (255 - v) * t));
    if (DARK_BACKGROUNDS.every((bg) => contrast(mixed, bg) >= 4.5)) return mixed;
  }
  return '#ffffff';
}

/**
 * `/static/brand.css`: the accent as custom properties, after the base stylesheet. Light: the
 * operator's colour with white text; dark: its tint ({@link darkAccent}) with the dark background's text.
 */
export function brandCss(b: Branding = current): string {
  const dark = darkAccent(b.accent);
  const light = `--accent: ${b.accent}; --accent-fg: #ffffff;`;
  const darkVars = `--accent: ${dark}; --accent-fg: #121212;`;
  return `:root { ${light} }
@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) { ${darkVars} } }
:root[data-theme="dark"] { ${darkVars} }
`;
}
