import type { PersonalToken } from '../domain/user';
import { type Html, html } from '@secret-push/html';
import { flashMessage } from './flash';
import { layout } from './layout';
import { type Cell, cardTable } from './list.views';
import { TIMES_SCRIPT, timeAt } from './time.views';
import { type WebHeader, webHeader } from './web-header';

function tokenTable(tokens: readonly PersonalToken[], now: Date): Html {
  if (tokens.length === 0) return html`<p>You have no API tokens yet.</p>`;
  const at = (d: Date | null, none: string) => (d ? timeAt(d, now) : none);
  const rows = tokens.map((t): Cell[] => [
    { content: t.name, title: true },
    { content: t.scopes.join(' ') },
    { content: at(t.createdAt, '') },
    { content: at(t.lastUsedAt, 'never') },
    { content: at(t.expiresAt, 'no expiry') },
    {
      actions: true,
      content: html`<a
          class="button secondary small"
          href="/users/token/${t.id}/regenerate"
          aria-label="Regenerate ${t.name}"
          >Regenerate</a
        >
        <a class="button secondary small" href="/users/token/${t.id}/revoke" aria-label="Revoke ${t.name}"
          >Revoke</a
        >`,
    },
  ]);
  return cardTable('Your API tokens', ['Name', 'Scopes', 'Created', 'Last used', 'Expires', 'Actions'], rows);
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
        <h2 id="issued-title">Token "${issued.name}"</h2>
        <label for="new-token">Your new API token</label>
        <p class="muted" id="new-token-hint">
          Copy it now: it is shown only once, and stored only as a hash.
        </p>
        <input
          id="new-token"
          type="text"
          readonly
          value="${issued.value}"
          aria-describedby="new-token-hint"
          autocomplete="off"
          spellcheck="false"
        />
        <button type="button" class="secondary" data-copy="new-token" hidden>Copy the token</button>
        <p id="copy-status" class="muted" role="status" aria-live="polite"></p>
        <p class="muted">
          Use it as <code>Authorization: Bearer &lt;token&gt;</code>, or with Password Pusher's clients as
          <code>X-User-Token</code> with your email in <code>X-User-Email</code>.
        </p>
      </section>`
    : '';
  return layout(
    'API tokens',
    html`${webHeader(options.header)}
      <h1>API tokens</h1>
      <p>Personal API tokens let your scripts and tools use the API as you.</p>
      ${flashMessage(options.flash)} ${shown} ${tokenTable(tokens, new Date())}
      <h2>Create a token</h2>
      <form method="post" action="/users/token" class="create">
        <input type="hidden" name="csrf" value="${csrf}" />
        <label for="name">Name (optional)</label>
        <p class="muted" id="name-hint">To tell your tokens apart, e.g. "CI pipeline".</p>
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
          <legend>Scopes</legend>
          ${problem('scopes')}
          <div class="choice">
            <input type="checkbox" id="scope-read" name="scopes" value="pushes:read" checked />
            <label for="scope-read">pushes:read (list your pushes and their audit logs)</label>
          </div>
          <div class="choice">
            <input type="checkbox" id="scope-write" name="scopes" value="pushes:write" checked />
            <label for="scope-write">pushes:write (create and expire pushes)</label>
          </div>
        </fieldset>
        <label for="expires_days">Expires after days (optional)</label>
        <p class="muted" id="expires_days-hint">Empty: the token does not expire; revoke it when done.</p>
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
        <button type="submit">Create token</button>
      </form>`,
    { scripts: [TIMES_SCRIPT] },
  );
}
