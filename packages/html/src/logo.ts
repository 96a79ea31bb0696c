import { DEFAULT_ACCENT } from './branding';

/**
 * The default logo and favicon (served at `/static/logo` and `/favicon.svg` by both services): a
 * padlock on a speech bubble, in the accent colour (`BRAND_ACCENT_COLOR`, checked as `#rrggbb`).
 * Operators replace the logo with `BRAND_LOGO_FILE` or `BRAND_LOGO_URL`.
 */
export const logoSvg = (
  accent: string,
): string => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
<path d="M8 6h48a6 6 0 0 1 6 6v30a6 6 0 0 1-6 6H26l-12 10v-10H8a6 6 0 0 1-6-6V12a6 6 0 0 1 6-6z" fill="${accent}"/>
<path d="M24 26v-5a8 8 0 0 1 16 0v5" fill="none" stroke="#ffffff" stroke-width="4"/>
<rect x="20" y="25" width="24" height="16" rx="3" fill="#ffffff"/>
<circle cx="32" cy="32" r="3" fill="${accent}"/><rect x="30.5" y="33" width="3" height="5" fill="${accent}"/>
</svg>
`;

export const LOGO_SVG = logoSvg(DEFAULT_ACCENT);
export const FAVICON_SVG = LOGO_SVG;

export const LOGO_PATH = '/static/logo';
export const FAVICON_PATH = '/favicon.svg';
export const BRAND_CSS_PATH = '/static/brand.css';
export const THEME_JS_PATH = '/static/theme.js';
