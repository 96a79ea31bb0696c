import { OWNER_CSS } from './css/owner.css';

/**
 * The pages' only stylesheet and script, served from our own origin (`/static/…`) so the CSP can
 * say `script-src 'self'; style-src 'self'` with no inline code and no third-party hosts.
 */
export const PAGES_CSS = `
:root { color-scheme: light dark; --fg: #1a1a1a; --bg: #ffffff; --muted: #4a4a4a; --box: #f3f4f6;
  --accent: #0b57d0; --accent-fg: #ffffff; --danger: #b3261e; --danger-fg: #ffffff; --border: #6b7280; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #f1f1f1; --bg: #121212; --muted: #c4c4c4; --box: #1f2328; --accent: #a8c7fa;
    --accent-fg: #062e6f; --danger: #ffb4ab; --danger-fg: #690005; --border: #9ca3af; }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html { font-size: 100%; -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 1.0625rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
main { max-width: 42rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0.5rem 0 1rem; }
p { margin: 0 0 1rem; }
.muted { color: var(--muted); }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: 0.5rem; }
.secret { background: var(--box); border: 1px solid var(--border); border-radius: 0.5rem; padding: 1rem;
  margin: 0 0 1rem; white-space: pre-wrap; overflow-wrap: anywhere; word-break: break-word;
  font: 1rem/1.5 ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; }
form { margin: 0 0 1.25rem; }
label { display: block; font-weight: 600; margin-bottom: 0.35rem; }
input[type="password"] { width: 100%; max-width: 24rem; font: inherit; padding: 0.6rem 0.7rem;
  border: 1px solid var(--border); border-radius: 0.4rem; background: var(--bg); color: var(--fg);
  margin-bottom: 0.75rem; display: block; }
button, .button { display: inline-block; font: inherit; font-weight: 600; min-height: 2.75rem;
  padding: 0.6rem 1.1rem; border-radius: 0.4rem; border: 2px solid var(--accent); cursor: pointer;
  background: var(--accent); color: var(--accent-fg); text-decoration: none; }
button.secondary { background: transparent; color: var(--fg); border-color: var(--border); }
button.danger { background: var(--danger); border-color: var(--danger); color: var(--danger-fg); }
button[data-copied="true"] { border-color: #1e7e34; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.error { color: var(--danger); font-weight: 600; }
.qr { background: #ffffff; padding: 0.75rem; border-radius: 0.5rem; width: min(100%, 18rem); margin: 0 0 1rem; }
.qr svg { display: block; width: 100%; height: auto; }
.files { padding-left: 1.25rem; }
.files li { margin-bottom: 0.5rem; }
a { color: var(--accent); }
details { margin: 0 0 1rem; }
summary { cursor: pointer; min-height: 2rem; }
#copy-status { margin-top: 0.5rem; }
footer { margin-top: 2rem; font-size: 0.9rem; }
textarea, select, input[type="number"], input[type="text"] { width: 100%; font: inherit; padding: 0.6rem 0.7rem;
  border: 1px solid var(--border); border-radius: 0.4rem; background: var(--bg); color: var(--fg);
  margin-bottom: 0.75rem; display: block; }
textarea { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; }
fieldset { border: 1px solid var(--border); border-radius: 0.5rem; padding: 0.75rem 1rem; margin: 0 0 1rem; }
legend { font-weight: 600; padding: 0 0.25rem; }
.choice { margin: 0 0 0.75rem; }
.choice input { width: 1.25rem; height: 1.25rem; margin: 0 0.5rem 0 0; vertical-align: middle; }
.choice label { display: inline; }
.choice p { margin: 0.25rem 0 0 1.75rem; }
.row { display: flex; flex-wrap: wrap; gap: 0 1rem; }
.row > div { flex: 1 1 12rem; }
.error-summary { border: 2px solid var(--danger); border-radius: 0.5rem; padding: 0.75rem 1rem; margin: 0 0 1rem; }
.error-summary h2 { font-size: 1.1rem; margin: 0 0 0.5rem; }
[aria-invalid="true"] { border-color: var(--danger); }
header.site nav { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; margin: 0 0 1rem;
  padding-bottom: 0.5rem; border-bottom: 1px solid var(--border); }
form.inline { display: inline; margin: 0; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.pager { display: flex; gap: 1rem; margin: 0 0 1rem; }
table.list { width: 100%; border-collapse: collapse; margin: 0 0 1.5rem; font-size: 0.95rem; }
table.list caption { text-align: left; font-weight: 600; margin-bottom: 0.5rem; }
table.list th, table.list td { text-align: left; padding: 0.4rem 0.5rem 0.4rem 0; border-bottom: 1px solid var(--border); vertical-align: top; }
.issued { border: 2px solid var(--accent); border-radius: 0.5rem; padding: 0.75rem 1rem; margin: 0 0 1.5rem; }
.issued h2, h2 { font-size: 1.15rem; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; }
input[type="file"] { display: block; font: inherit; margin-bottom: 0.75rem; max-width: 100%; }
.upload { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.75rem; margin: 0 0 0.5rem; }
.upload label { margin: 0; }
.upload progress { flex: 1 1 12rem; height: 1.25rem; accent-color: var(--accent); }
#upload-status:empty { display: none; }
button.link { background: none; border: none; color: var(--accent); text-decoration: underline; padding: 0;
  min-height: 2.75rem; font-weight: 400; }
${OWNER_CSS}`;

/**
 * Progressive enhancement only: every action is a plain form that works without it.
 * - copy buttons (hidden until this script shows them), also in content a script puts in the
 *   page later: such a script dispatches `secret-push:content` on the document when it has;
 * - the automatic reveal when the push has no retrieval step, but not when the page was reached
 *   by reload or history (so going back does not spend another view).
 */
export const PAGES_JS = `(function () {
  'use strict';
  function say(text) {
    var status = document.getElementById('copy-status');
    if (status) { status.textContent = text; }
  }
  function enhanceCopyButtons() {
    document.querySelectorAll('button[data-copy]:not([data-enhanced])').forEach(function (button) {
      var target = document.getElementById(button.getAttribute('data-copy'));
      if (!target) { return; }
      button.setAttribute('data-enhanced', 'true');
      button.hidden = false;
      button.addEventListener('click', function () {
        var done = function () {
          button.textContent = 'Copied';
          button.setAttribute('data-copied', 'true');
          say('Copied to the clipboard.');
        };
        var select = function () {
          if (target.select) { target.select(); say('Could not copy automatically: the text is selected, press Ctrl+C (or Cmd+C).'); return; }
          var range = document.createRange();
          range.selectNodeContents(target);
          var selection = window.getSelection();
          selection.removeAllRanges();
          selection.addRange(range);
          say('Could not copy automatically: the text is selected, press Ctrl+C (or Cmd+C).');
        };
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(target.value !== undefined ? target.value : target.textContent).then(done, select);
        } else {
          select();
        }
      });
    });
  }
  enhanceCopyButtons();
  document.addEventListener('secret-push:content', enhanceCopyButtons);
  var form = document.querySelector('form[data-autosubmit]');
  if (form) {
    var nav = performance.getEntriesByType ? performance.getEntriesByType('navigation')[0] : undefined;
    if (!nav || nav.type === 'navigate') {
      var note = document.getElementById('autosubmit-note');
      if (note) { note.textContent = 'Opening the secret…'; }
      if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
    }
  }
})();
`;
