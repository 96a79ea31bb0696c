/**
 * /static/times.js: each `<time data-at>` of the page (written by timeAt in UTC) shown in the
 * viewer's time zone, its title the zone's name. Without JavaScript the UTC text stays.
 */
export const TIMES_JS = `(function () {
  'use strict';
  if (!window.Intl || !Intl.DateTimeFormat) { return; }
  var format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'your time zone';
  document.querySelectorAll('time[data-at]').forEach(function (el) {
    var at = new Date(el.getAttribute('data-at'));
    if (isNaN(at.getTime())) { return; }
    el.textContent = format.format(at);
    el.setAttribute('title', el.getAttribute('title') + ' (shown in ' + zone + ')');
    el.setAttribute('data-local', 'true');
  });
})();
`;
