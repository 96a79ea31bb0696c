/**
 * The sign-in pages' one stylesheet, served by the auth service at `STYLESHEET_PATH` (the CSP
 * allows styles from 'self' only: no inline style, no third-party font). Kept here as text so the
 * build needs no asset step.
 */
export const STYLESHEET_PATH = '/static/auth.css';

export const STYLESHEET = `:root {
  color-scheme: light dark;
  --fg: #1b1f24;
  --muted: #57606a;
  --bg: #f6f8fa;
  --card: #ffffff;
  --border: #d0d7de;
  --accent: #0b5cad;
  --accent-fg: #ffffff;
  --error-bg: #ffebe9;
  --error-fg: #82071e;
}
@media (prefers-color-scheme: dark) {
  :root {
    --fg: #e6edf3;
    --muted: #9da7b3;
    --bg: #0d1117;
    --card: #161b22;
    --border: #30363d;
    --accent: #4493f8;
    --accent-fg: #0d1117;
    --error-bg: #3c1618;
    --error-fg: #ffb1b1;
  }
}
*, *::before, *::after { box-sizing: border-box; }
body {
  margin: 0;
  min-height: 100vh;
  display: flex;
  align-items: flex-start;
  justify-content: center;
  padding: 3rem 1rem;
  background: var(--bg);
  color: var(--fg);
  font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
}
main {
  width: 100%;
  max-width: 24rem;
  padding: 2rem;
  background: var(--card);
  border: 1px solid var(--border);
  border-radius: 0.5rem;
}
h1 { margin: 0 0 0.25rem; font-size: 1.5rem; }
p { margin: 0 0 1rem; }
.lead { color: var(--muted); }
.error {
  padding: 0.75rem;
  border-radius: 0.375rem;
  background: var(--error-bg);
  color: var(--error-fg);
}
form { margin: 0; }
label { display: block; margin: 1rem 0 0.25rem; font-weight: 600; }
input[type="email"], input[type="password"], input[type="text"] {
  width: 100%;
  padding: 0.5rem 0.625rem;
  border: 1px solid var(--border);
  border-radius: 0.375rem;
  background: var(--card);
  color: var(--fg);
  font: inherit;
}
button {
  margin-top: 1.5rem;
  width: 100%;
  padding: 0.625rem;
  border: 1px solid var(--accent);
  border-radius: 0.375rem;
  background: var(--accent);
  color: var(--accent-fg);
  font: inherit;
  font-weight: 600;
  cursor: pointer;
}
button.secondary { margin-top: 0.75rem; background: transparent; color: var(--accent); }
input:focus-visible, button:focus-visible, a:focus-visible {
  outline: 3px solid var(--accent);
  outline-offset: 2px;
}
a { color: var(--accent); }
.alternative { margin: 1.5rem 0 0; text-align: center; }
h2 { margin: 2rem 0 0.5rem; font-size: 1.125rem; }
h3 { margin: 1.5rem 0 0; font-size: 1rem; }
section { border-top: 1px solid var(--border); }
.hint { margin: 0 0 0.25rem; color: var(--muted); font-size: 0.875rem; }
.after { margin-top: 1.5rem; }
.notice {
  padding: 0.75rem;
  border-radius: 0.375rem;
  border: 1px solid var(--border);
}
.qr svg { display: block; width: 12rem; height: 12rem; margin: 0 auto 1rem; }
code { font: 1rem/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
code.secret { display: block; margin-top: 0.5rem; word-break: break-all; }
.codes { columns: 2; padding-left: 1.25rem; }
`;
