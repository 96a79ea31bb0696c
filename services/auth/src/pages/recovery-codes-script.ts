/**
 * `GET /static/recovery-codes.js`: the "Copy" and "Print" buttons of the recovery codes page
 * (recovery-codes-page.ts). Both are `hidden` in the page and shown only here, where they work:
 * without JavaScript the page still has the codes and their download link. "Copy" puts the codes
 * on the clipboard, one a line, and says "Copied" in the page's status line (a live region). Its
 * texts are the page's, in the page's language (`#sp-messages`, the layout's `clientMessages`); the
 * English ones here are only a last resort.
 */
export const RECOVERY_CODES_SCRIPT_PATH = '/static/recovery-codes.js';

export const RECOVERY_CODES_SCRIPT = `(function () {
  'use strict';
  var list = document.getElementById('recovery-codes');
  var status = document.getElementById('codes-status');
  if (!list || !status) return;
  var messages = {};
  try {
    var block = document.getElementById('sp-messages');
    if (block) messages = JSON.parse(block.textContent) || {};
  } catch (e) {
    messages = {};
  }
  function text(key, fallback) {
    return typeof messages[key] === 'string' ? messages[key] : fallback;
  }
  var codes = Array.prototype.map.call(list.querySelectorAll('code'), function (code) {
    return code.textContent.trim();
  });
  function say(text) {
    status.textContent = '';
    window.setTimeout(function () { status.textContent = text; }, 50);
  }
  var copy = document.getElementById('copy-codes');
  if (copy && navigator.clipboard && window.isSecureContext) {
    copy.hidden = false;
    copy.addEventListener('click', function () {
      navigator.clipboard.writeText(codes.join('\\n') + '\\n').then(
        function () { say(text('copied', 'Copied')); },
        function () {
          say(text('copyFailed', 'Could not copy: select the codes and copy them, or download them.'));
        }
      );
    });
  }
  var print = document.getElementById('print-codes');
  if (print && typeof window.print === 'function') {
    print.hidden = false;
    print.addEventListener('click', function () { window.print(); });
  }
})();
`;
