import { WORDS } from './create-form.words';

/**
 * `/static/password-generator.js`: the create form's password generator (create-form.generator.ts)
 * in the browser. Randomness only from `crypto.getRandomValues`, unbiased (rejection sampling);
 * the server's suggestions give way to the controls (length, character sets, words). "Use it"
 * puts the result in the Secret field; the generator shows only while "Text" is the kind chosen.
 * Nothing is sent anywhere or kept.
 */
export const GENERATOR_JS = `(function () {
  'use strict';
  var cryptoObj = window.crypto;
  var controls = document.getElementById('gen-controls');
  var suggestions = document.getElementById('gen-suggestions');
  if (!cryptoObj || !cryptoObj.getRandomValues || !controls || !suggestions) { return; }
  var WORDS = ${JSON.stringify(WORDS.join(' '))}.split(' ');
  var SETS = {
    upper: 'ABCDEFGHJKLMNPQRSTUVWXYZ',
    lower: 'abcdefghijkmnopqrstuvwxyz',
    digits: '23456789',
    symbols: '!#$%&*+-=?@^_~'
  };
  var $ = function (id) { return document.getElementById(id); };
  var out = $('gen-output');
  var status = $('gen-status');
  var mode = $('gen-mode');
  // The page's texts in its language (#sp-messages, create-form.messages.ts); English as a last resort.
  var M = {};
  try { M = JSON.parse($('sp-messages').textContent) || {}; } catch (e) { M = {}; }

  /** A uniform integer in [0, n), without modulo bias. */
  function below(n) {
    var limit = Math.floor(4294967296 / n) * n;
    var buf = new Uint32Array(1);
    do { cryptoObj.getRandomValues(buf); } while (buf[0] >= limit);
    return buf[0] % n;
  }
  function clamp(field, min, max, fallback) {
    var n = Math.floor(Number(field.value));
    if (!isFinite(n)) { n = fallback; }
    n = Math.min(max, Math.max(min, n));
    field.value = String(n);
    return n;
  }
  function chars() {
    var sets = Object.keys(SETS).filter(function (k) { return $('gen-' + k).checked; })
      .map(function (k) { return SETS[k]; });
    if (sets.length === 0) { return ''; }
    var all = sets.join('');
    var length = clamp($('gen-length'), 8, 128, 20);
    for (;;) {
      var s = '';
      for (var i = 0; i < length; i++) { s += all.charAt(below(all.length)); }
      var hasEach = sets.every(function (set) {
        for (var j = 0; j < s.length; j++) { if (set.indexOf(s.charAt(j)) >= 0) { return true; } }
        return false;
      });
      if (hasEach) { return s; }
    }
  }
  function words() {
    var count = clamp($('gen-words'), 3, 12, 6);
    var picked = [];
    for (var i = 0; i < count; i++) { picked.push(WORDS[below(WORDS.length)]); }
    return picked.join('-');
  }
  function make() {
    var wordsMode = mode.value === 'words';
    $('gen-chars-options').hidden = wordsMode;
    $('gen-words-options').hidden = !wordsMode;
    out.value = wordsMode ? words() : chars();
    status.textContent = out.value ? '' : (M.genNoSet || 'Choose at least one kind of character.');
  }

  // Only a text secret is a password: the generator shows while "Text" is chosen (or no choice is offered).
  var generator = $('generator');
  function showForKind() {
    var kind = document.querySelector('input[name="kind"]:checked');
    if (generator) { generator.hidden = !!kind && kind.value !== 'text'; }
  }
  document.querySelectorAll('input[name="kind"]').forEach(function (radio) {
    radio.addEventListener('change', showForKind);
  });
  showForKind();
  suggestions.hidden = true;
  controls.hidden = false;
  ['gen-mode', 'gen-length', 'gen-words', 'gen-upper', 'gen-lower', 'gen-digits', 'gen-symbols']
    .forEach(function (id) { $(id).addEventListener('change', make); });
  $('gen-make').addEventListener('click', make);
  $('gen-use').addEventListener('click', function () {
    var payload = document.getElementById('payload');
    if (!payload || !out.value) { return; }
    payload.value = out.value;
    status.textContent = M.genUsed || 'Put in the Secret field.';
    payload.focus();
  });
  make();
})();
`;
