/**
 * `/static/form-presets.js`: the expiry presets of the create and request forms
 * (create-form.expiry.ts). A group's custom number field shows only while its "Custom" is chosen
 * (and is required then); without this script it is always shown and used only with "Custom".
 */
export const PRESETS_SCRIPT = '/static/form-presets.js';

export const PRESETS_JS = `(function () {
  'use strict';
  document.querySelectorAll('[data-custom-of]').forEach(function (box) {
    var group = box.getAttribute('data-custom-of');
    var radios = document.querySelectorAll('input[type="radio"][name="' + group + '"]');
    var field = box.querySelector('input');
    if (!field || radios.length === 0) { return; }
    function update(focus) {
      var custom = document.getElementById(group + '-custom');
      var on = !!(custom && custom.checked);
      box.hidden = !on;
      field.required = on;
      if (on && focus) { field.focus(); }
    }
    radios.forEach(function (radio) {
      radio.addEventListener('change', function () { update(true); });
    });
    update(false);
  });
})();
`;
