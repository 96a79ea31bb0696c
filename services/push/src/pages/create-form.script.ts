/**
 * The create form's own script (`/static/create-form.js`, loaded only by the form that offers
 * files), served from our origin like pages.js: no inline code, nothing evaluated. Progressive
 * enhancement only; without it the form is a plain multipart POST and the server answers a page.
 * - The Files block shows only while "Files" is chosen; the file input is disabled otherwise (so
 *   a text secret never sends files picked earlier), and the secret text is required otherwise.
 * - Chosen files are checked against the instance's limits (data-max-* of the input), as the
 *   server checks them, so a refusal needs no upload.
 * - The files are sent after every other field, wherever their block is in the page; a form
 *   brought back in place is announced with `secret-push:form` on the document (file-drop.js).
 * - A Files secret is sent with XMLHttpRequest: the progress bar and its percentage follow the
 *   upload, a live status says what happens. The answer is a page (the create's 303 to `/created`
 *   followed): the created page replaces the
 *   `<main>` of this one (parsed with DOMParser, which runs no script; the link is shown once, this
 *   page's address stays `/`), a form with problems (422, 413) has its problems shown in place,
 *   keeping everything typed and the chosen files, and any other answer (403, 429, 503, no
 *   answer) is said in the status, the form left as it was.
 */
export const CREATE_FORM_JS = `(function () {
  'use strict';
  if (!window.FormData || !window.XMLHttpRequest || !window.DOMParser) { return; }

  // The page's texts in its language, formatted by the server with the instance's limits
  // (#sp-messages, create-form.messages.ts); English as a last resort.
  var M = {};
  try { M = JSON.parse(document.getElementById('sp-messages').textContent) || {}; } catch (e) { M = {}; }
  function fill(text, values) {
    Object.keys(values).forEach(function (k) { text = text.split('{' + k + '}').join(values[k]); });
    return text;
  }

  /** The form's kind of secret. */
  function chosenKind(form) {
    var checked = form.querySelector('input[name="kind"]:checked');
    return checked ? checked.value : '';
  }

  /** The problem of the chosen files under the instance's limits, or '' when none. */
  function filesProblem(input) {
    var files = input.files || [];
    var maxCount = Number(input.getAttribute('data-max-count'));
    var maxFile = Number(input.getAttribute('data-max-file-bytes'));
    var maxTotal = Number(input.getAttribute('data-max-total-bytes'));
    if (files.length > maxCount) {
      return M.tooManyFiles || 'You can only attach up to ' + maxCount + ' files per push.';
    }
    var total = 0;
    for (var i = 0; i < files.length; i++) {
      if (files[i].size > maxFile) {
        return fill(M.fileTooLarge || '{name} exceeds the limit of ' + maxFile + ' bytes.', { name: files[i].name });
      }
      total += files[i].size;
    }
    if (total > maxTotal) { return M.filesTooLarge || 'The files together exceed ' + maxTotal + ' bytes.'; }
    return '';
  }

  /** The message of an error page: its heading and first paragraph. */
  function pageMessage(doc, fallback) {
    var main = doc.querySelector('main');
    var heading = main && main.querySelector('h1');
    var text = main && main.querySelector('h1 ~ p');
    if (!heading) { return fallback; }
    return heading.textContent.trim() + (text ? ': ' + text.textContent.trim() : '');
  }

  /** Everything typed and chosen in \`from\`, copied into the same fields of \`to\` (a fresh copy of the form). */
  function keepValues(from, to) {
    Array.prototype.forEach.call(from.elements, function (field) {
      if (!field.id || field.type === 'hidden' || field.type === 'submit') { return; }
      var copy = to.querySelector('#' + field.id);
      if (!copy) { return; }
      if (field.type === 'checkbox' || field.type === 'radio') { copy.checked = field.checked; }
      else if (field.type === 'file') { copy.files = field.files; }
      else { copy.value = field.value; }
    });
  }

  function enhance(form) {
    var input = form.querySelector('#files');
    var block = form.querySelector('#files-field');
    var payload = form.querySelector('#payload');
    var upload = form.querySelector('#upload');
    var bar = form.querySelector('#upload-progress');
    var percent = form.querySelector('#upload-percent');
    var status = form.querySelector('#upload-status');
    var button = form.querySelector('button[type="submit"]');
    if (!input || !block || !upload || !bar || !percent || !status) { return; }
    var sending = false;

    function say(text, problem) {
      status.textContent = text;
      status.className = problem ? 'error' : '';
    }
    function showKind() {
      var files = chosenKind(form) === 'file';
      block.hidden = !files;
      input.disabled = !files;
      if (payload) { payload.required = !files; }
    }
    function checkFiles() { input.setCustomValidity(filesProblem(input)); }
    function progress(pct) {
      bar.value = pct;
      percent.textContent = pct + ' %';
    }

    form.querySelectorAll('input[name="kind"]').forEach(function (radio) {
      radio.addEventListener('change', showKind);
    });
    input.addEventListener('change', checkFiles);
    showKind();
    checkFiles();

    form.addEventListener('submit', function (event) {
      if (chosenKind(form) !== 'file') { return; } // a plain POST, as without this script
      event.preventDefault();
      if (sending) { return; }
      sending = true;
      var data = new FormData(form); // in document order: the CSRF token comes first
      // The files last, after every other field (file-drop.js may have moved their block up).
      var picked = data.getAll(input.name);
      data.delete(input.name);
      picked.forEach(function (f) { data.append(input.name, f); });
      var xhr = new XMLHttpRequest();
      function done() {
        sending = false;
        if (button) { button.disabled = false; }
      }
      if (button) { button.disabled = true; }
      progress(0);
      upload.hidden = false;
      say(M.uploading || 'Uploading…');
      xhr.upload.addEventListener('progress', function (e) {
        if (e.lengthComputable && e.total > 0) { progress(Math.floor((e.loaded * 100) / e.total)); }
      });
      xhr.upload.addEventListener('load', function () {
        progress(100);
        say(M.uploaded || 'Uploaded. Creating the secret link…');
      });
      xhr.addEventListener('load', function () {
        done();
        var doc = new DOMParser().parseFromString(xhr.responseText, 'text/html');
        var main = doc.querySelector('main');
        // The create answers 303 to /created (Post/Redirect/Get), which XMLHttpRequest follows.
        var url = (xhr.responseURL || '').split('?')[0];
        var created = xhr.status === 200 && url.slice(-'/created'.length) === '/created';
        if (created && main) {
          document.title = doc.title;
          document.querySelector('main').replaceWith(document.importNode(main, true));
          document.dispatchEvent(new CustomEvent('secret-push:content'));
          var heading = document.querySelector('main h1');
          if (heading) { heading.setAttribute('tabindex', '-1'); heading.focus(); }
          return;
        }
        var returned = doc.querySelector('form[data-upload]');
        var formBack = xhr.status === 422 || xhr.status === 413;
        if (formBack && returned) {
          var fresh = document.importNode(returned, true);
          keepValues(form, fresh);
          var old = document.getElementById('problems');
          if (old) { old.remove(); }
          var problems = doc.getElementById('problems');
          // The passphrase is kept here (the server never echoes it): its "enter it again" goes.
          var kept = fresh.querySelector('#passphrase');
          var again = fresh.querySelector('#passphrase-error');
          var againText = M.passphraseAgain || 'Enter the passphrase again';
          if (kept && kept.value && again && again.textContent.trim().indexOf(againText) === 0) {
            again.remove();
            var item = problems && problems.querySelector('a[href="#passphrase"]');
            if (item && item.closest('li')) { item.closest('li').remove(); }
          }
          form.replaceWith(fresh);
          if (problems) { fresh.before(document.importNode(problems, true)); }
          enhance(fresh);
          document.dispatchEvent(new CustomEvent('secret-push:form'));
          var summary = document.getElementById('problems');
          if (summary) { summary.focus(); }
          return;
        }
        upload.hidden = true;
        var notCreated = fill(M.notCreated || 'The secret could not be created ({status}).', {
          status: String(xhr.status)
        });
        say(pageMessage(doc, notCreated) + ' ' + (M.stillHere || 'What you typed is still here.'), true);
      });
      function failed() {
        done();
        upload.hidden = true;
        say(M.connectionFailed ||
          'The upload did not complete: the connection failed. What you typed is still here; please try again.', true);
      }
      xhr.addEventListener('error', failed);
      xhr.addEventListener('timeout', failed);
      xhr.addEventListener('abort', failed);
      xhr.open('POST', form.action);
      xhr.send(data);
    });
  }

  var form = document.querySelector('form.create[data-upload]');
  if (form) { enhance(form); }
})();
`;
