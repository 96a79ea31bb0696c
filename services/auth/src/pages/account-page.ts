import { type Html, html, rich } from '@secret-push/html';
import { t } from '@secret-push/i18n';
import { type AppLink, backToApp } from './app-link';
import { layout } from './layout';

/** The console's forms; each posts to `/account/<form>`. */
export type AccountForm =
  'password' | 'two-factor/start' | 'two-factor/remove' | 'recovery-codes' | 'sessions';

export interface AccountPageInput {
  email: string;
  secondFactor: boolean;
  recoveryCodesLeft: number;
  /** The shortest password accepted (characters; users/password.ts), for the hint: 12 unless given. */
  passwordMinLength?: number;
  /** Locked after too many wrong codes in a row: codes from the app are refused. */
  secondFactorLocked?: boolean;
  /** AUTH_REQUIRE_TOTP: the second factor cannot be turned off here. */
  totpRequired: boolean;
  csrfToken: string;
  /** What the last form did (after its redirect), announced politely. */
  notice?: string;
  /** Why the last form was refused, shown by that form. */
  error?: { form: AccountForm; message: string };
  /** RP-initiated logout of this browser. */
  signOutHref: string;
  /** The web app (AUTH_APP_URL): "Back to …" at the top and the bottom. */
  app?: AppLink | undefined;
}

function errorFor(input: AccountPageInput, form: AccountForm, id: string): Html | '' {
  return input.error?.form === form
    ? html`<p class="error" role="alert" id="${id}">${input.error.message}</p>`
    : '';
}

const describedBy = (input: AccountPageInput, form: AccountForm, id: string): Html | '' =>
  input.error?.form === form ? html` aria-describedby="${id}"` : '';

function csrf(input: AccountPageInput): Html {
  return html`<input type="hidden" name="csrf" value="${input.csrfToken}" />`;
}

function passwordSection(input: AccountPageInput): Html {
  return html`<section aria-labelledby="password-heading">
    <h2 id="password-heading">${t('account.password.heading')}</h2>
    ${errorFor(input, 'password', 'password-error')}
    <form method="post" action="/account/password">
      ${csrf(input)}
      <input type="text" name="username" autocomplete="username" value="${input.email}" hidden />
      <label for="current-password">${t('account.password.current')}</label>
      <input
        id="current-password"
        name="current_password"
        type="password"
        autocomplete="current-password"
        required${describedBy(input, 'password', 'password-error')}
      />
      <label for="new-password">${t('account.password.new')}</label>
      <p class="hint" id="new-password-hint">
        ${t('account.password.newHint', { min: input.passwordMinLength ?? 12 })}
      </p>
      <input
        id="new-password"
        name="new_password"
        type="password"
        autocomplete="new-password"
        required
        minlength="12"
        aria-describedby="new-password-hint"
      />
      <label for="repeat-password">${t('account.password.repeat')}</label>
      <input
        id="repeat-password"
        name="repeat_password"
        type="password"
        autocomplete="new-password"
        required
        minlength="12"
      />
      <button type="submit">${t('account.password.submit')}</button>
    </form>
  </section>`;
}

function twoFactorSection(input: AccountPageInput): Html {
  if (!input.secondFactor) {
    return html`<section aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading">${t('account.twoFactor.heading')}</h2>
      <p>${t('account.twoFactor.off')}</p>
      ${errorFor(input, 'two-factor/start', 'start-error')}
      <form method="post" action="/account/two-factor/start">
        ${csrf(input)}
        <button type="submit">${t('account.twoFactor.start')}</button>
      </form>
    </section>`;
  }
  return html`<section aria-labelledby="two-factor-heading">
    <h2 id="two-factor-heading">${t('account.twoFactor.heading')}</h2>
    <p>${t('account.twoFactor.on', { count: input.recoveryCodesLeft })}</p>
    ${
      input.secondFactorLocked
        ? html`<p class="error" role="alert" id="two-factor-locked">${t('account.twoFactor.locked')}</p>`
        : ''
    }
    <h3>${t('account.recovery.heading')}</h3>
    ${errorFor(input, 'recovery-codes', 'recovery-error')}
    <form method="post" action="/account/recovery-codes">
      ${csrf(input)}
      <label for="recovery-credential">${t('account.recovery.credential')}</label>
      <input
        id="recovery-credential"
        name="credential"
        type="password"
        autocomplete="current-password"
        required${describedBy(input, 'recovery-codes', 'recovery-error')}
      />
      <button type="submit">${t('account.recovery.submit')}</button>
    </form>
    ${
      input.totpRequired
        ? html`<p class="after">${t('account.twoFactor.required')}</p>`
        : html`<h3>${t('account.twoFactor.removeHeading')}</h3>
            ${errorFor(input, 'two-factor/remove', 'remove-error')}
            <form method="post" action="/account/two-factor/remove">
              ${csrf(input)}
              <label for="remove-password">${t('account.password.current')}</label>
              <input
                id="remove-password"
                name="password"
                type="password"
                autocomplete="current-password"
                required${describedBy(input, 'two-factor/remove', 'remove-error')}
              />
              <button type="submit" class="secondary">${t('account.twoFactor.remove')}</button>
            </form>`
    }
  </section>`;
}

/**
 * The account console (`GET /account`): the signed-in person's own credentials (password, second
 * factor, recovery codes) and sign-in sessions. The web app's own account page links here, and
 * this page back to it (AUTH_APP_URL); deleting the account is done there.
 */
export function accountPage(input: AccountPageInput): string {
  return layout(
    t('account.title'),
    html`<p class="lead">${rich('account.signedInAs', { email: input.email })}</p>
      ${input.app?.url ? html`<p class="lead">${t('account.settingsFor', { app: input.app.name })}</p>` : ''}
      ${input.notice ? html`<p class="notice" role="status">${input.notice}</p>` : ''}
      ${passwordSection(input)} ${twoFactorSection(input)}
      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">${t('account.sessions.heading')}</h2>
        <p>${t('account.sessions.text')}</p>
        <form method="post" action="/account/sessions">
          ${csrf(input)}
          <button type="submit" class="secondary">${t('account.sessions.submit')}</button>
        </form>
      </section>
      ${backToApp(input.app)}
      <p class="after"><a href="${input.signOutHref}">${t('account.signOut')}</a></p>`,
  );
}
