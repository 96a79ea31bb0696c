import { BASE_CSS } from '@secret-push/html';

/**
 * The sign-in pages' one stylesheet, served by the auth service at `STYLESHEET_PATH` (the CSP
 * allows styles from 'self' only: no inline style, no third-party font). Kept here as text so the
 * build needs no asset step.
 */
export const STYLESHEET_PATH = '/static/auth.css';

/** The sign-in pages' own rules, after the base stylesheet both services share. */
const SIGN_IN_CSS = `
main.narrow { margin-top: 2rem; margin-bottom: 2rem; padding: 2rem; background: var(--box);
  border: 1px solid var(--line); border-radius: 0.6rem; flex: 0 0 auto; }
@media (max-width: 40rem) { main.narrow { margin: 0; border: none; border-radius: 0; padding: 1.25rem 1rem; flex: 1 0 auto; } }
main.narrow h1 { margin: 0 0 0.25rem; font-size: 1.5rem; }
.lead { color: var(--muted); }
p.error { padding: 0.75rem; border-radius: 0.4rem; border: 1px solid var(--danger); background: var(--danger-box);
  color: var(--fg); font-weight: 400; }
label { margin: 1rem 0 0.25rem; }
input[type="email"], input[type="password"], input[type="text"] { max-width: none; margin-bottom: 0; }
main.narrow form button { margin-top: 1.5rem; width: 100%; }
main.narrow form button.secondary { margin-top: 0.75rem; }
.alternative { margin: 1.5rem 0 0; text-align: center; }
h2 { margin: 2rem 0 0.5rem; font-size: 1.125rem; }
h3 { margin: 1.5rem 0 0; font-size: 1rem; }
section { border-top: 1px solid var(--line); }
.hint { margin: 0 0 0.25rem; }
.after { margin-top: 1.5rem; }
.notice { padding: 0.75rem; border-radius: 0.4rem; border: 1px solid var(--border); }
.qr { width: auto; background: none; padding: 0; }
.qr svg { display: block; width: 12rem; height: 12rem; margin: 0 auto 1rem; background: #ffffff; padding: 0.5rem; }
code { font-size: 1rem; }
code.secret { display: block; margin-top: 0.5rem; word-break: break-all; }
.codes { columns: 2; padding-left: 1.25rem; }
`;

export const STYLESHEET = BASE_CSS + SIGN_IN_CSS;
