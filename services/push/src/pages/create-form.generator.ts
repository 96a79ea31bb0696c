import { randomInt } from 'node:crypto';
import { type Html, html } from '@secret-push/html';
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
    <button type="button" class="secondary" data-copy="${id}" hidden>Copy</button>
  </div>`;

/**
 * The generator, in a `<details>` under the Secret field. Its fields have no `name`: nothing of
 * it is sent with the form unless the person puts it in the Secret field.
 */
export function generatorPart(): Html {
  return html`<details class="generator" id="generator">
    <summary>Generate a password</summary>
    <div id="gen-suggestions">
      <p class="muted">
        Made for you just now. Copy one into the Secret field, or reload the page for others.
      </p>
      ${output('gen-password', '20 random characters', suggestPassword())}
      ${output('gen-passphrase', '6 random words', suggestPassphrase())}
    </div>
    <div id="gen-controls" hidden>
      <label for="gen-mode">Made of</label>
      <select id="gen-mode">
        <option value="chars" selected>Characters</option>
        <option value="words">Words (a passphrase)</option>
      </select>
      <div id="gen-chars-options">
        <label for="gen-length">Length</label>
        <input id="gen-length" type="number" inputmode="numeric" min="8" max="128" value="20" />
        <div class="gen-sets">
          ${[
            ['upper', 'Upper case (A–Z)'],
            ['lower', 'Lower case (a–z)'],
            ['digits', 'Digits (2–9)'],
            ['symbols', 'Symbols (!#$…)'],
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
        <label for="gen-words">Number of words</label>
        <input id="gen-words" type="number" inputmode="numeric" min="3" max="12" value="6" />
      </div>
      ${output('gen-output', 'Generated', '')}
      <div class="gen-actions">
        <button type="button" class="secondary" id="gen-make">Generate another</button>
        <button type="button" id="gen-use">Use it as the secret</button>
      </div>
    </div>
    <p id="gen-status" role="status" aria-live="polite"></p>
  </details>`;
}
