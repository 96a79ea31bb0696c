/**
 * `/static/file-drop.js`: the create form's files, done well. Without it the plain file input
 * (last in the form, so that a form refused for a file still has every field before it) works
 * as it is. With it:
 * - the files block moves up under "What do you want to share?" and is a drop zone: files dropped
 *   on it are added to the input's files (through a DataTransfer);
 * - files picked with the input replace the list (as the browser does); dropped ones are added;
 * - a list shows each file's name and size (KB, MB) with a Remove button;
 * - the upload (create-form.js) sends the files last, after every other field, as before.
 * A form brought back in place (`secret-push:form`) is set up again.
 * Each change of the files dispatches `change` on the input, so create-form.js checks the limits.
 */
export const DROP_SCRIPT = '/static/file-drop.js';

export const DROP_JS = `(function () {
  'use strict';
  // The page's texts in its language (#sp-messages, create-form.messages.ts); English as a last resort.
  var M = {};
  try { M = JSON.parse(document.getElementById('sp-messages').textContent) || {}; } catch (e) { M = {}; }
  var lang = document.documentElement.lang || 'en';
  function fill(text, values) {
    Object.keys(values).forEach(function (k) { text = text.split('{' + k + '}').join(values[k]); });
    return text;
  }
  function num(n, digits) {
    try {
      return new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
    } catch (e) { return n.toFixed(digits); }
  }
  /** A plural text: the template of n's plural category in the page's language, n in it. */
  function plural(name, arg, n, one, other) {
    var category = n === 1 ? 'one' : 'other';
    try { category = new Intl.PluralRules(lang).select(n); } catch (e) { /* English rules */ }
    var text = M[name + '.' + category] || M[name + '.other'] || (n === 1 ? one : other);
    var values = {};
    values[arg] = num(n, 0);
    return fill(text, values);
  }
  function init() {
  var input = document.getElementById('files');
  var block = document.getElementById('files-field');
  var kind = document.getElementById('kind');
  if (!input || !block || !window.DataTransfer) { return; }
  try { new DataTransfer(); } catch (e) { return; }
  var list = document.createElement('ul');
  list.className = 'file-list';
  list.id = 'file-list';
  var note = document.createElement('p');
  note.className = 'drop-note muted';
  note.textContent = M.dropNote || 'Or drop files here.';
  input.insertAdjacentElement('afterend', note);
  note.insertAdjacentElement('afterend', list);
  var status = document.getElementById('upload-status');
  block.classList.add('drop-zone');
  if (kind) { kind.insertAdjacentElement('afterend', block); }
  var files = Array.prototype.slice.call(input.files || []);
  var ours = false;

  function size(n) {
    if (n < 1000) { return plural('bytes', 'n', n, '{n} byte', '{n} bytes'); }
    if (n < 1000000) { return fill(M.kb || '{n} KB', { n: num(n / 1000, n < 10000 ? 1 : 0) }); }
    if (n < 1000000000) { return fill(M.mb || '{n} MB', { n: num(n / 1000000, n < 10000000 ? 1 : 0) }); }
    return fill(M.gb || '{n} GB', { n: num(n / 1000000000, 1) });
  }
  function chosen(count) { return plural('chosen', 'count', count, '{count} file chosen.', '{count} files chosen.'); }
  function same(a, b) { return a.name === b.name && a.size === b.size && a.lastModified === b.lastModified; }
  function say(text) { if (status) { status.textContent = text; status.className = ''; } }
  function apply() {
    var dt = new DataTransfer();
    files.forEach(function (f) { dt.items.add(f); });
    input.files = dt.files;
    ours = true;
    input.dispatchEvent(new Event('change', { bubbles: true }));
    ours = false;
    render();
  }
  function render() {
    list.textContent = '';
    files.forEach(function (f, i) {
      var item = document.createElement('li');
      var name = document.createElement('span');
      name.className = 'file-name';
      name.textContent = f.name;
      var bytes = document.createElement('span');
      bytes.className = 'muted';
      bytes.textContent = ' (' + size(f.size) + ') ';
      var remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'secondary small';
      remove.textContent = M.remove || 'Remove';
      remove.setAttribute('aria-label', fill(M.removeLabel || 'Remove {name}', { name: f.name }));
      remove.addEventListener('click', function () {
        files.splice(i, 1);
        apply();
        say(fill(M.removed || '{name} removed.', { name: f.name }) + ' ' + chosen(files.length));
        input.focus();
      });
      item.appendChild(name);
      item.appendChild(bytes);
      item.appendChild(remove);
      list.appendChild(item);
    });
  }
  function add(more) {
    Array.prototype.forEach.call(more, function (f) {
      if (!files.some(function (g) { return same(f, g); })) { files.push(f); }
    });
    apply();
    say(chosen(files.length));
  }
  // Picked with the input: the browser's choice replaces the list, as without this script.
  input.addEventListener('change', function () {
    if (ours) { return; }
    files = Array.prototype.slice.call(input.files || []);
    render();
  });
  ['dragenter', 'dragover'].forEach(function (type) {
    block.addEventListener(type, function (e) {
      e.preventDefault();
      block.classList.add('dragging');
    });
  });
  block.addEventListener('dragleave', function () { block.classList.remove('dragging'); });
  block.addEventListener('drop', function (e) {
    e.preventDefault();
    block.classList.remove('dragging');
    if (input.disabled) { return; }
    if (e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files.length) { add(e.dataTransfer.files); }
  });
  render();
  }
  init();
  // A form brought back in place with its problems (create-form.js): the same, on the new one.
  document.addEventListener('secret-push:form', init);
})();
`;
