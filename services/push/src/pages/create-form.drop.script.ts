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
  note.textContent = 'Or drop files here.';
  input.insertAdjacentElement('afterend', note);
  note.insertAdjacentElement('afterend', list);
  var status = document.getElementById('upload-status');
  block.classList.add('drop-zone');
  if (kind) { kind.insertAdjacentElement('afterend', block); }
  var files = Array.prototype.slice.call(input.files || []);
  var ours = false;

  function size(n) {
    if (n < 1000) { return n + ' bytes'; }
    if (n < 1000000) { return (n / 1000).toFixed(n < 10000 ? 1 : 0) + ' KB'; }
    if (n < 1000000000) { return (n / 1000000).toFixed(n < 10000000 ? 1 : 0) + ' MB'; }
    return (n / 1000000000).toFixed(1) + ' GB';
  }
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
      remove.textContent = 'Remove';
      remove.setAttribute('aria-label', 'Remove ' + f.name);
      remove.addEventListener('click', function () {
        files.splice(i, 1);
        apply();
        say(f.name + ' removed. ' + files.length + (files.length === 1 ? ' file' : ' files') + ' chosen.');
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
    say(files.length + (files.length === 1 ? ' file' : ' files') + ' chosen.');
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
