import { type Branding, DEFAULT_ACCENT, brandCss, branding } from './branding';
import { BRAND_CSS_PATH, FAVICON_PATH, LOGO_PATH, THEME_JS_PATH, logoSvg } from './logo';
import { THEME_JS } from './theme-script';

/** A file both services serve as it is, cached an hour. */
export interface StaticAsset {
  readonly path: string;
  readonly contentType: string;
  readonly body: string | Uint8Array;
}

/**
 * The files of the look that both services serve: the brand's stylesheet, the logo (the
 * operator's or ours), the favicon and the theme script. Computed from the branding in use.
 */
export function brandAssets(b: Branding = branding()): StaticAsset[] {
  const ours = logoSvg(/^#[0-9a-f]{6}$/i.test(b.accent) ? b.accent : DEFAULT_ACCENT);
  return [
    { path: BRAND_CSS_PATH, contentType: 'text/css; charset=utf-8', body: brandCss(b) },
    b.logo
      ? { path: LOGO_PATH, contentType: b.logo.contentType, body: b.logo.data }
      : { path: LOGO_PATH, contentType: 'image/svg+xml', body: ours },
    b.logo
      ? { path: FAVICON_PATH, contentType: b.logo.contentType, body: b.logo.data }
      : { path: FAVICON_PATH, contentType: 'image/svg+xml', body: ours },
    { path: THEME_JS_PATH, contentType: 'text/javascript; charset=utf-8', body: THEME_JS },
  ];
}
