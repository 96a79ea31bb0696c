import { BASE_CSS } from '@secret-push/html';

import { RECIPIENT_CSS } from './css/recipient.css';
import { CREATE_CSS } from './css/create.css';
import { OWNER_CSS } from './css/owner.css';
/**
 * The pages' stylesheet and script, served from our own origin (`/static/…`) so the CSP can say
 * `script-src 'self'; style-src 'self'` with no inline code and no third-party hosts. The
 * stylesheet is the shared base of @secret-push/html (both services) and the web app's own rules.
 */
const WEB_CSS = `
.files { padding-left: 1.25rem; }
.files li { margin-bottom: 0.5rem; }
#copy-status { margin-top: 0.5rem; }
.choice { margin: 0 0 0.75rem; }
.choice input { width: 1.25rem; height: 1.25rem; margin: 0 0.5rem 0 0; vertical-align: middle; }
.choice label { display: inline; }
.choice p { margin: 0.25rem 0 0 1.75rem; }
.row { display: flex; flex-wrap: wrap; gap: 0 1rem; }
.row > div { flex: 1 1 12rem; }
.pager { display: flex; gap: 1rem; margin: 0 0 1rem; }
.issued { border: 2px solid var(--accent); border-radius: 0.5rem; padding: 0.75rem 1rem; margin: 0 0 1.5rem; }
.issued h2 { font-size: 1.15rem; }
.upload { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.75rem; margin: 0 0 0.5rem; }
.upload label { margin: 0; }
.upload progress { flex: 1 1 12rem; height: 1.25rem; accent-color: var(--accent); }
#upload-status:empty { display: none; }
`;

export const PAGES_CSS = BASE_CSS + WEB_CSS + RECIPIENT_CSS + CREATE_CSS + OWNER_CSS;

/**
 * Progressive enhancement only: every action is a plain form that works without it. Its texts
 * come from the page's `#sp-messages` (layout.ts), in the page's language; English only when absent.
 * - copy buttons (hidden until this script shows them), also in content a script puts in the
 *   page later: such a script dispatches `secret-push:content` on the document when it has;
 * - the automatic reveal when the push has no retrieval step, but not when the page was reached
 *   by reload or history (so going back does not spend another view).
 */
export const PAGES_JS = `(function () {
  'use strict';
  var messages = {};
  try {
    var block = document.getElementById('sp-messages');
    if (block) { messages = JSON.parse(block.textContent) || {}; }
  } catch (e) { messages = {}; }
  function text(key, fallback) { return typeof messages[key] === 'string' ? messages[key] : fallback; }
  function say(message) {
    var status = document.getElementById('copy-status');
    if (status) { status.textContent = message; }
  }
  function enhanceCopyButtons() {
    document.querySelectorAll('button[data-copy]:not([data-enhanced])').forEach(function (button) {
      var target = document.getElementById(button.getAttribute('data-copy'));
      if (!target) { return; }
      button.setAttribute('data-enhanced', 'true');
      button.hidden = false;
      button.addEventListener('click', function () {
        var done = function () {
          button.textContent = text('pagesCopied', 'Copied');
          button.setAttribute('data-copied', 'true');
          say(text('pagesCopiedStatus', 'Copied to the clipboard.'));
        };
        var select = function () {
          var failed = text('pagesCopyFailed', 'Could not copy automatically: the text is selected, press Ctrl+C (or Cmd+C).');
          if (target.select) { target.select(); say(failed); return; }
          var range = document.createRange();
          range.selectNodeContents(target);
          var selection = window.getSelection();
          selection.removeAllRanges();
          selection.addRange(range);
          say(failed);
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
      if (note) { note.textContent = text('pagesOpening', 'Opening the secret…'); }
      if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
    }
  }
})();
`;
