/**
 * The base stylesheet of both services' pages (the push service's `/static/pages.css` and the
 * auth service's `/static/auth.css` start with it): colours as custom properties, light and dark
 * (the system's, or the theme button's `data-theme`), the accent from `/static/brand.css`,
 * typography, forms, buttons (primary solid, `.secondary` outline, `.quiet`, `.danger`, and
 * `.danger.secondary` for lists), `.card`, status messages, and the frame's header and footer.
 */
const LIGHT = `color-scheme: light; --fg: #1a1a1a; --bg: #ffffff; --muted: #4a4a4a; --box: #f3f4f6;
  --border: #6b7280; --line: #d1d5db; --danger: #b3261e; --danger-fg: #ffffff; --ok: #1e6b34;
  --ok-box: #e7f4ea; --warn-box: #fff4d6; --danger-box: #fdecea;`;
const DARK = `color-scheme: dark; --fg: #f1f1f1; --bg: #121212; --muted: #c4c4c4; --box: #1f2328;
  --border: #9ca3af; --line: #3a3f45; --danger: #ffb4ab; --danger-fg: #690005; --ok: #8fd19e;
  --ok-box: #16281b; --warn-box: #2e2610; --danger-box: #3a1714;`;
const MONO = `ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace`;

export const BASE_CSS = `
:root { ${LIGHT} --accent: #0b57d0; --accent-fg: #ffffff; }
@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) { ${DARK} --accent: #a8c7fa; --accent-fg: #121212; } }
:root[data-theme="dark"] { ${DARK} --accent: #a8c7fa; --accent-fg: #121212; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html { font-size: 100%; -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg); min-height: 100vh; display: flex; flex-direction: column;
  font: 1.0625rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
main { width: 100%; max-width: 44rem; margin: 0 auto; padding: 1.5rem 1rem 2.5rem; flex: 1 0 auto; }
main:focus { outline: none; }
main.narrow { max-width: 28rem; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 0.5rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 0.5rem; }
h3 { font-size: 1rem; margin: 1.25rem 0 0.25rem; }
p { margin: 0 0 1rem; }
a { color: var(--accent); text-underline-offset: 0.15em; }
code, kbd, pre { font-family: ${MONO}; }
.muted { color: var(--muted); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.skip { position: absolute; left: -999px; top: 0.5rem; z-index: 2; }
.skip:focus { left: 1rem; background: var(--bg); color: var(--accent); padding: 0.5rem 0.75rem; border: 2px solid var(--accent); border-radius: 0.4rem; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }

header.site { border-bottom: 1px solid var(--line); background: var(--box); }
header.site .bar, footer.site .bar { max-width: 72rem; margin: 0 auto; padding: 0.5rem 1rem; display: flex; flex-wrap: wrap;
  align-items: center; gap: 0.25rem 1.25rem; }
.brand { display: inline-flex; align-items: center; gap: 0.5rem; font-weight: 700; font-size: 1.1rem; color: var(--fg);
  text-decoration: none; min-height: 2.75rem; margin-right: auto; }
.brand-logo { width: 2rem; height: 2rem; object-fit: contain; }
header.site nav { display: flex; flex-wrap: wrap; align-items: center; justify-content: flex-end; gap: 0 0.9rem;
  font-size: 0.95rem; }
header.site nav a, header.site nav button.link { text-decoration: none; }
header.site nav a:hover, header.site nav a:focus-visible, header.site nav button.link:hover { text-decoration: underline; }
header.site nav a, header.site nav button.link { display: inline-flex; align-items: center; min-height: 2.75rem; }
header.site nav a[aria-current="page"] { font-weight: 700; }
.who { color: var(--muted); font-size: 0.95rem; }
.site-notice { margin: 0; padding: 0.5rem max(1rem, calc((100% - 72rem) / 2 + 1rem)); border-top: 1px solid var(--line); background: var(--warn-box); }
footer.site { border-top: 1px solid var(--line); font-size: 0.92rem; color: var(--muted); }
footer.site p { margin: 0; margin-right: auto; }
.footer-links { display: flex; flex-wrap: wrap; gap: 0 1rem; list-style: none; margin: 0; padding: 0; }
.footer-links a { display: inline-flex; align-items: center; min-height: 2.75rem; }
form.lang-form { display: inline-flex; align-items: center; gap: 0.4rem; margin: 0; }
form.lang-form label { margin: 0; font-weight: 400; }
form.lang-form select { width: auto; min-height: 2.75rem; padding: 0.25rem 0.5rem; margin: 0; }
form.lang-form button { margin: 0; }
@media (max-width: 40rem) {
  header.site .bar { padding: 0.25rem 0.75rem; gap: 0 0.75rem; }
  header.site nav { flex-wrap: nowrap; overflow-x: auto; width: 100%; justify-content: flex-start; gap: 0 0.9rem;
    white-space: nowrap; }
  main { padding: 1rem 0.85rem 2rem; }
  header.site nav { order: 1; }
  h1 { font-size: 1.4rem; }
}

form { margin: 0 0 1.25rem; }
form.inline { display: inline; margin: 0; }
label { display: block; font-weight: 600; margin-bottom: 0.35rem; }
input[type="password"], input[type="email"], input[type="text"], input[type="number"], input[type="url"],
input[type="search"], input[type="tel"], textarea, select {
  width: 100%; font: inherit; padding: 0.6rem 0.7rem; border: 1px solid var(--border); border-radius: 0.4rem;
  background: var(--bg); color: var(--fg); margin-bottom: 0.75rem; display: block; }
input[type="password"] { max-width: 24rem; }
textarea { font-family: ${MONO}; }
input[type="file"] { display: block; font: inherit; margin-bottom: 0.75rem; max-width: 100%; }
fieldset { border: 1px solid var(--border); border-radius: 0.5rem; padding: 0.75rem 1rem; margin: 0 0 1rem; }
legend { font-weight: 600; padding: 0 0.25rem; }
[aria-invalid="true"] { border-color: var(--danger); }
.hint { margin: 0 0 0.35rem; color: var(--muted); font-size: 0.9rem; }

button, .button { display: inline-flex; align-items: center; justify-content: center; gap: 0.4rem; font: inherit;
  font-weight: 600; min-height: 2.75rem; padding: 0.55rem 1.1rem; border-radius: 0.4rem; border: 2px solid var(--accent);
  cursor: pointer; background: var(--accent); color: var(--accent-fg); text-decoration: none; }
button:hover, .button:hover { filter: brightness(1.08); }
button.secondary, .button.secondary { background: transparent; color: var(--accent); border-color: var(--accent); }
button.quiet, .button.quiet { background: transparent; color: var(--fg); border-color: var(--line); font-weight: 500; }
button.danger, .button.danger { background: var(--danger); border-color: var(--danger); color: var(--danger-fg); }
button.danger.secondary, button.danger.quiet, .button.danger.secondary { background: transparent; color: var(--danger); border-color: var(--danger); }
button.link { background: none; border: none; color: var(--accent); text-decoration: underline; padding: 0; font-weight: 400; }
button[data-copied="true"] { border-color: var(--ok); }
.actions { display: flex; flex-wrap: wrap; gap: 0.5rem 0.75rem; align-items: center; margin: 0 0 1rem; }

.card { background: var(--box); border: 1px solid var(--line); border-radius: 0.6rem; padding: 1rem 1.1rem; margin: 0 0 1rem; }
.card > :last-child { margin-bottom: 0; }
.secret { background: var(--box); border: 1px solid var(--border); border-radius: 0.5rem; padding: 1rem; margin: 0 0 1rem;
  white-space: pre-wrap; overflow-wrap: anywhere; word-break: break-word; font: 1rem/1.5 ${MONO}; }
.flash, .status { border: 1px solid var(--border); border-left-width: 0.35rem; border-radius: 0.4rem; padding: 0.65rem 0.9rem; margin: 0 0 1rem; }
.flash.ok, .status.ok { border-color: var(--ok); background: var(--ok-box); }
.flash.error, .status.error { border-color: var(--danger); background: var(--danger-box); color: var(--fg); font-weight: 400; }
.flash.warn, .status.warn { background: var(--warn-box); }
.error { color: var(--danger); font-weight: 600; }
.error-summary { border: 2px solid var(--danger); border-radius: 0.5rem; padding: 0.75rem 1rem; margin: 0 0 1rem; }
.error-summary h2 { font-size: 1.1rem; margin: 0 0 0.5rem; }
details { margin: 0 0 1rem; }
summary { cursor: pointer; min-height: 2rem; }
table.list { width: 100%; border-collapse: collapse; margin: 0 0 1.5rem; font-size: 0.95rem; }
table.list caption { text-align: left; font-weight: 600; margin-bottom: 0.5rem; }
table.list th, table.list td { text-align: left; padding: 0.45rem 0.5rem 0.45rem 0; border-bottom: 1px solid var(--line); vertical-align: top; }
.qr { background: #ffffff; padding: 0.75rem; border-radius: 0.5rem; width: min(100%, 18rem); margin: 0 0 1rem; }
.qr svg { display: block; width: 100%; height: auto; }
.prose h2 { margin-top: 2rem; }
.prose li { margin-bottom: 0.4rem; }
`;
