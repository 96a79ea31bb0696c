/**
 * `/static/theme.js`, loaded in `<head>` (a served file, no inline script) so that the remembered
 * theme is set before the page is drawn: no flash of the other theme. It sets `data-theme` on
 * `<html>` from localStorage (`light` or `dark`; nothing: the system's, through
 * `prefers-color-scheme`), then shows the theme buttons (`[data-theme-toggle]`, hidden without
 * JavaScript, where the pages follow the system) and cycles system → light → dark on a click; the
 * button's labels come from the page (`data-label-*`, in its language). It also makes the language
 * selectors submit on change (their button hides).
 */
export const THEME_JS = `(function () {
  'use strict';
  var KEY = 'secret-push-theme';
  var root = document.documentElement;
  function stored() {
    try { var v = localStorage.getItem(KEY); return v === 'light' || v === 'dark' ? v : 'system'; } catch (e) { return 'system'; }
  }
  function apply(choice) {
    if (choice === 'system') { root.removeAttribute('data-theme'); } else { root.setAttribute('data-theme', choice); }
  }
  apply(stored());
  var NEXT = { system: 'light', light: 'dark', dark: 'system' };
  function label(button, choice) { return button.getAttribute('data-label-' + choice) || choice; }
  function wire() {
    document.querySelectorAll('[data-lang-select]').forEach(function (select) {
      var form = select.form;
      var submit = form && form.querySelector('[data-lang-submit]');
      if (submit) { submit.hidden = true; }
      select.addEventListener('change', function () { if (form) { form.submit(); } });
    });
    document.querySelectorAll('[data-theme-toggle]').forEach(function (button) {
      button.textContent = label(button, stored());
      button.hidden = false;
      button.addEventListener('click', function () {
        var choice = NEXT[stored()];
        try { if (choice === 'system') { localStorage.removeItem(KEY); } else { localStorage.setItem(KEY, choice); } } catch (e) {}
        apply(choice);
        document.querySelectorAll('[data-theme-toggle]').forEach(function (b) { b.textContent = label(b, choice); });
      });
    });
  }
  if (document.readyState === 'loading') { document.addEventListener('DOMContentLoaded', wire); } else { wire(); }
})();
`;
