import { randomInt } from 'node:crypto';
import { type Html, html } from '@secret-push/html';
import { t } from '@secret-push/i18n';
import { WORDS } from './create-form.words';

/*
 * The password generator of the create form. Without JavaScript: a password and a passphrase made
 * here (node's crypto) for this page, shown in read-only fields to copy. With the script
 * (/static/password-generator.js, crypto.getRandomValues in the browser): length, character sets
 * and a words mode, and a button that puts the result in the Secret field. Neither is ever logged
 * or stored: the page is `no-store`, and only what the person sends as the secret is kept.
 */

export const GENERATOR_SCRIPT = '/static/password-generator.js';

const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const DIGITS = '23456789';
const SYMBOLS = '!#$%&*+-=?@^_~';

/** A password of `length` characters, at least one of each set (upper, lower, digits, symbols). */
export function suggestPassword(length = 20): string {
  const sets = [UPPER, LOWER, DIGITS, SYMBOLS];
  const all = sets.join('');
  for (;;) {
    const chars = Array.from({ length }, () => all[randomInt(all.length)]!);
    if (sets.every((set) => chars.some((c) => set.includes(c)))) return chars.join('');
  }
}

/** A passphrase of `count` words joined by hyphens. */
export function suggestPassphrase(count = 6): string {
  return Array.from({ length: count }, () => WORDS[randomInt(WORDS.length)]!).join('-');
}

const output = (id: string, label: string, value: string) =>
  html`<div class="gen-output">
    <label for="${id}">${label}</label>
    <input id="${id}" type="text" readonly value="${value}" autocomplete="off" spellcheck="false" />
    <button type="button" class="secondary" data-copy="${id}" hidden>${t('create.generator.copy')}</button>
  </div>`;

/**
 * The generator, in a `<details>` under the Secret field. Its fields have no `name`: nothing of
 * it is sent with the form unless the person puts it in the Secret field.
 */
export function generatorPart(): Html {
  return html`<details class="generator" id="generator">
    <summary>${t('create.generator.summary')}</summary>
    <div id="gen-suggestions">
      <p class="muted">${t('create.generator.suggested')}</p>
      ${output('gen-password', t('create.generator.randomChars', { count: 20 }), suggestPassword())}
      ${output('gen-passphrase', t('create.generator.randomWords', { count: 6 }), suggestPassphrase())}
    </div>
    <div id="gen-controls" hidden>
      <label for="gen-mode">${t('create.generator.mode')}</label>
      <select id="gen-mode">
        <option value="chars" selected>${t('create.generator.chars')}</option>
        <option value="words">${t('create.generator.words')}</option>
      </select>
      <div id="gen-chars-options">
        <label for="gen-length">${t('create.generator.length')}</label>
        <input id="gen-length" type="number" inputmode="numeric" min="8" max="128" value="20" />
        <div class="gen-sets">
          ${[
            ['upper', t('create.generator.upper')],
            ['lower', t('create.generator.lower')],
            ['digits', t('create.generator.digits')],
            ['symbols', t('create.generator.symbols')],
          ].map(
            ([set, label]) =>
              html`<div class="choice">
                <input type="checkbox" id="gen-${set}" checked />
                <label for="gen-${set}">${label}</label>
              </div>`,
          )}
        </div>
      </div>
      <div id="gen-words-options" hidden>
        <label for="gen-words">${t('create.generator.wordCount')}</label>
        <input id="gen-words" type="number" inputmode="numeric" min="3" max="12" value="6" />
      </div>
      ${output('gen-output', t('create.generator.generated'), '')}
      <div class="gen-actions">
        <button type="button" class="secondary" id="gen-make">${t('create.generator.another')}</button>
        <button type="button" id="gen-use">${t('create.generator.use')}</button>
      </div>
    </div>
    <p id="gen-status" role="status" aria-live="polite"></p>
  </details>`;
}
