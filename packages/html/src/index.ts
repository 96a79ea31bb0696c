export { Html, type HtmlValue, escapeHtml, html, trusted } from './html';
export {
  type Branding,
  DEFAULT_ACCENT,
  DEFAULT_BRANDING,
  NEUTRAL_NAME,
  brandCss,
  branding,
  contrast,
  darkAccent,
  imageSources,
  useBranding,
} from './branding';
export { type FooterLink, type FrameOptions, pageFrame } from './frame';
export { BASE_CSS } from './base-css';
export { THEME_JS } from './theme-script';
export {
  BRAND_CSS_PATH,
  FAVICON_PATH,
  FAVICON_SVG,
  LOGO_PATH,
  LOGO_SVG,
  THEME_JS_PATH,
  logoSvg,
} from './logo';
export { type StaticAsset, brandAssets } from './assets';
export { type RichValues, clientMessages, languageSelector, rich } from './i18n';
