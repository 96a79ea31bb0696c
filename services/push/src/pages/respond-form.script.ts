/** Where the responder's form script is served (respond.routes.ts). */
export const RESPOND_FORM_SCRIPT = '/static/respond-form.js';

/**
 * The responder's form script (`/static/respond-form.js`, loaded only by an answer form that takes
 * files), served from our origin: no inline code, nothing evaluated. Progressive enhancement
 * only: without it the form is a plain multipart POST and the server answers a page.
 * - Chosen files are checked against the request's limits (data-max-* of the input), as the server
 *   checks them, so a refusal needs no upload.
 * - An answer with files is sent with XMLHttpRequest: the progress bar and its percentage follow
 *   the upload, a live status says what happens. The answer is a page (the 303 to the form's
 *   `data-done` path followed, or the form again with its problems, or the 404/409 page): its
 *   `<main>` replaces this one's (parsed with DOMParser, which runs no script); a form that comes
 *   back keeps the files chosen. No answer at all (the connection failed) is said in the status,
 *   the form left as it was. An answer without files is a plain POST, as without this script.
 * Its texts come from the page (`#sp-messages`, respond.views.ts), in the page's language, worded
 * with this form's limits; `{name}` and `{status}` are filled in here.
 */
export const RESPOND_FORM_JS = `(function () {
  'use strict';
  if (!window.FormData || !window.XMLHttpRequest || !window.DOMParser) { return; }

  /** The page's texts (its language), by name; a value the browser knows replaces its {placeholder}. */
  var messages = {};
  try {
    var block = document.getElementById('sp-messages');
    if (block) { messages = JSON.parse(block.textContent) || {}; }
  } catch (e) { messages = {}; }
  function message(name, values) {
    var text = typeof messages[name] === 'string' ? messages[name] : '';
    for (var key in values || {}) { text = text.split('{' + key + '}').join(String(values[key])); }
    return text;
  }

  /** The problem of the chosen files under the request's limits, or '' when none. */
  function filesProblem(input) {
    var files = input.files || [];
    var maxCount = Number(input.getAttribute('data-max-count'));
    var maxFile = Number(input.getAttribute('data-max-file-bytes'));
    var maxTotal = Number(input.getAttribute('data-max-total-bytes'));
    if (files.length > maxCount) { return message('respondTooMany'); }
    var total = 0;
    for (var i = 0; i < files.length; i++) {
      if (files[i].size > maxFile) { return message('respondFileTooLarge', { name: files[i].name }); }
      total += files[i].size;
    }
    if (total > maxTotal) { return message('respondTotalTooLarge'); }
    return '';
  }

  function enhance(form) {
    var input = form.querySelector('#files');
    var upload = form.querySelector('#upload');
    var bar = form.querySelector('#upload-progress');
    var percent = form.querySelector('#upload-percent');
    var status = form.querySelector('#upload-status');
    var button = form.querySelector('button[type="submit"]');
    if (!input || !upload || !bar || !percent || !status) { return; }
    var sending = false;

    function say(text, problem) {
      status.textContent = text;
      status.className = problem ? 'error' : '';
    }
    function progress(pct) {
      bar.value = pct;
      percent.textContent = pct + ' %';
    }
    function checkFiles() { input.setCustomValidity(filesProblem(input)); }
    input.addEventListener('change', checkFiles);
    checkFiles();

    form.addEventListener('submit', function (event) {
      if (!input.files || input.files.length === 0) { return; } // text only: a plain POST
      event.preventDefault();
      if (sending) { return; }
      sending = true;
      var chosen = input.files;
      var data = new FormData(form); // in document order: the CSRF token comes before the files
      var xhr = new XMLHttpRequest();
      function done() {
        sending = false;
        if (button) { button.disabled = false; }
      }
      if (button) { button.disabled = true; }
      progress(0);
      upload.hidden = false;
      say(message('respondUploading'));
      xhr.upload.addEventListener('progress', function (e) {
        if (e.lengthComputable && e.total > 0) { progress(Math.floor((e.loaded * 100) / e.total)); }
      });
      xhr.upload.addEventListener('load', function () {
        progress(100);
        say(message('respondUploaded'));
      });
      xhr.addEventListener('load', function () {
        done();
        var doc = new DOMParser().parseFromString(xhr.responseText, 'text/html');
        var main = doc.querySelector('main');
        if (!main) {
          upload.hidden = true;
          say(message('respondNotSent', { status: xhr.status }), true);
          return;
        }
        document.title = doc.title;
        var fresh = document.importNode(main, true);
        document.querySelector('main').replaceWith(fresh);
        var back = fresh.querySelector('form.respond[data-upload]');
        var files = back && back.querySelector('#files');
        if (files) {
          try { files.files = chosen; } catch (e) { /* an older browser: choose them again */ }
          enhance(back);
        }
        var focus = fresh.querySelector('#problems') || fresh.querySelector('h1');
        if (focus) {
          if (!focus.hasAttribute('tabindex')) { focus.setAttribute('tabindex', '-1'); }
          focus.focus();
        }
      });
      function failed() {
        done();
        upload.hidden = true;
        say(message('respondFailed'), true);
      }
      xhr.addEventListener('error', failed);
      xhr.addEventListener('timeout', failed);
      xhr.addEventListener('abort', failed);
      xhr.open('POST', form.action);
      xhr.send(data);
    });
  }

  var form = document.querySelector('form.respond[data-upload]');
  if (form) { enhance(form); }
})();
`;
