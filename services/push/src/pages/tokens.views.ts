import type { PersonalToken } from '../domain/user';
import { type Html, html, rich } from '@secret-push/html';
import { t } from '@secret-push/i18n';
import { flashMessage } from './flash';
import { layout } from './layout';
import { type Cell, cardTable } from './list.views';
import { TIMES_SCRIPT, timeAt } from './time.views';
import { type WebHeader, webHeader } from './web-header';

function tokenTable(tokens: readonly PersonalToken[], now: Date): Html {
  if (tokens.length === 0) return html`<p>${t('tokens.none')}</p>`;
  const at = (d: Date | null, none: string) => (d ? timeAt(d, now) : none);
  const rows = tokens.map((token): Cell[] => [
    { content: token.name, title: true },
    { content: token.scopes.join(' ') },
    { content: at(token.createdAt, '') },
    { content: at(token.lastUsedAt, t('tokens.never')) },
    { content: at(token.expiresAt, t('tokens.noExpiry')) },
    {
      actions: true,
      content: html`<a
          class="button secondary small"
          href="/users/token/${token.id}/regenerate"
          aria-label="${t('tokens.regenerateNamed', { name: token.name })}"
          >${t('tokens.regenerate')}</a
        >
        <a
          class="button secondary small"
          href="/users/token/${token.id}/revoke"
          aria-label="${t('tokens.revokeNamed', { name: token.name })}"
          >${t('tokens.revoke')}</a
        >`,
    },
  ]);
  const columns = [
    t('tokens.column.name'),
    t('tokens.column.scopes'),
    t('tokens.column.created'),
    t('tokens.column.lastUsed'),
    t('tokens.column.expires'),
    t('tokens.column.actions'),
  ];
  return cardTable(t('tokens.caption'), columns, rows);
}

/**
 * `/users/token`: the person's personal API tokens (never their values), the form to create one,
 * and, right after a create or a regenerate, the new value, shown this once.
 */
export function tokensPage(options: {
  header: WebHeader;
  csrf: string;
  tokens: readonly PersonalToken[];
  issued?: { name: string; value: string };
  errors?: Record<string, string[]>;
  values?: { name?: string; expires_days?: string };
  flash?: string;
}): Html {
  const { csrf, tokens, issued } = options;
  const errors = options.errors ?? {};
  const problem = (name: string) =>
    errors[name]?.length ? html`<p class="error" id="${name}-error">${errors[name].join(' ')}</p>` : '';
  const shown = issued
    ? html`<section class="issued" aria-labelledby="issued-title">
        <h2 id="issued-title">${t('tokens.issued.title', { name: issued.name })}</h2>
        <label for="new-token">${t('tokens.issued.label')}</label>
        <p class="muted" id="new-token-hint">${t('tokens.issued.hint')}</p>
        <input
          id="new-token"
          type="text"
          readonly
          value="${issued.value}"
          aria-describedby="new-token-hint"
          autocomplete="off"
          spellcheck="false"
        />
        <button type="button" class="secondary" data-copy="new-token" hidden>
          ${t('tokens.issued.copy')}
        </button>
        <p id="copy-status" class="muted" role="status" aria-live="polite"></p>
        <p class="muted">
          ${rich('tokens.issued.usage', {
            bearer: html`<code>Authorization: Bearer &lt;token&gt;</code>`,
            userToken: html`<code>X-User-Token</code>`,
            userEmail: html`<code>X-User-Email</code>`,
          })}
        </p>
      </section>`
    : '';
  return layout(
    t('tokens.title'),
    html`${webHeader(options.header)}
      <h1>${t('tokens.title')}</h1>
      <p>${t('tokens.intro')}</p>
      ${flashMessage(options.flash)} ${shown} ${tokenTable(tokens, new Date())}
      <h2>${t('tokens.create.heading')}</h2>
      <form method="post" action="/users/token" class="create">
        <input type="hidden" name="csrf" value="${csrf}" />
        <label for="name">${t('tokens.create.name')}</label>
        <p class="muted" id="name-hint">${t('tokens.create.nameHint')}</p>
        ${problem('name')}
        <input
          id="name"
          name="name"
          type="text"
          maxlength="100"
          value="${options.values?.name ?? ''}"
          aria-describedby="name-hint${errors.name?.length ? ' name-error' : ''}"
        />
        <fieldset>
          <legend>${t('tokens.create.scopes')}</legend>
          ${problem('scopes')}
          <div class="choice">
            <input type="checkbox" id="scope-read" name="scopes" value="pushes:read" checked />
            <label for="scope-read">${t('tokens.create.scopeRead', { scope: 'pushes:read' })}</label>
          </div>
          <div class="choice">
            <input type="checkbox" id="scope-write" name="scopes" value="pushes:write" checked />
            <label for="scope-write">${t('tokens.create.scopeWrite', { scope: 'pushes:write' })}</label>
          </div>
        </fieldset>
        <label for="expires_days">${t('tokens.create.expires')}</label>
        <p class="muted" id="expires_days-hint">${t('tokens.create.expiresHint')}</p>
        ${problem('expires_days')}
        <input
          id="expires_days"
          name="expires_days"
          type="number"
          inputmode="numeric"
          min="1"
          max="3650"
          value="${options.values?.expires_days ?? ''}"
          aria-describedby="expires_days-hint${errors.expires_days?.length ? ' expires_days-error' : ''}"
        />
        <button type="submit">${t('tokens.create.submit')}</button>
      </form>`,
    { scripts: [TIMES_SCRIPT] },
  );
}
