/**
 * /static/times.js: each `<time data-at>` of the page (written by timeAt in UTC) shown in the
 * viewer's time zone and in the page's language (`<html lang>`), its title the zone's name (the
 * texts from the page's `#sp-messages`, layout.ts). Without JavaScript the UTC text stays.
 */
export const TIMES_JS = `(function () {
  'use strict';
  if (!window.Intl || !Intl.DateTimeFormat) { return; }
  var messages = {};
  try {
    var block = document.getElementById('sp-messages');
    if (block) { messages = JSON.parse(block.textContent) || {}; }
  } catch (e) { messages = {}; }
  var lang = document.documentElement.lang || undefined;
  var format;
  try {
    format = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  } catch (e) {
    format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  }
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone || messages.pagesYourZone || 'your time zone';
  var titled = messages.pagesTimeTitle || '{exact} (shown in {zone})';
  document.querySelectorAll('time[data-at]').forEach(function (el) {
    var at = new Date(el.getAttribute('data-at'));
    if (isNaN(at.getTime())) { return; }
    el.textContent = format.format(at);
    el.setAttribute('title', titled.split('{exact}').join(el.getAttribute('title') || '').split('{zone}').join(zone));
    el.setAttribute('data-local', 'true');
  });
})();
`;
