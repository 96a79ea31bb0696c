import { type Html, html } from '@secret-push/html';
import { type AppLink, backToApp } from './app-link';
import { layout } from './layout';

/** The console's forms; each posts to `/account/<form>`. */
export type AccountForm =
  'password' | 'two-factor/start' | 'two-factor/remove' | 'recovery-codes' | 'sessions';

export interface AccountPageInput {
  email: string;
  secondFactor: boolean;
  recoveryCodesLeft: number;
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
    <h2 id="password-heading">Password</h2>
    ${errorFor(input, 'password', 'password-error')}
    <form method="post" action="/account/password">
      ${csrf(input)}
      <input type="text" name="username" autocomplete="username" value="${input.email}" hidden />
      <label for="current-password">Current password</label>
      <input
        id="current-password"
        name="current_password"
        type="password"
        autocomplete="current-password"
        required${describedBy(input, 'password', 'password-error')}
      />
      <label for="new-password">New password</label>
      <p class="hint" id="new-password-hint">
        At least 12 characters. Your other sign-ins end; this one stays.
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
      <label for="repeat-password">New password again</label>
      <input
        id="repeat-password"
        name="repeat_password"
        type="password"
        autocomplete="new-password"
        required
        minlength="12"
      />
      <button type="submit">Change password</button>
    </form>
  </section>`;
}

function twoFactorSection(input: AccountPageInput): Html {
  if (!input.secondFactor) {
    return html`<section aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading">Two-factor authentication</h2>
      <p>Off. Signing in asks for your password only.</p>
      ${errorFor(input, 'two-factor/start', 'start-error')}
      <form method="post" action="/account/two-factor/start">
        ${csrf(input)}
        <button type="submit">Set up two-factor authentication</button>
      </form>
    </section>`;
  }
  const left = input.recoveryCodesLeft;
  return html`<section aria-labelledby="two-factor-heading">
    <h2 id="two-factor-heading">Two-factor authentication</h2>
    <p>
      On: signing in asks for a code from your authenticator app. ${left} recovery
      code${left === 1 ? '' : 's'} left.
    </p>
    ${
      input.secondFactorLocked
        ? html`<p class="error" role="alert" id="two-factor-locked">
            Locked: too many wrong codes were typed for your account, so codes from your authenticator app are
            refused. Someone may know your password: change it. To unlock, sign in with a recovery code, or
            ask the operator.
          </p>`
        : ''
    }
    <h3>New recovery codes</h3>
    ${errorFor(input, 'recovery-codes', 'recovery-error')}
    <form method="post" action="/account/recovery-codes">
      ${csrf(input)}
      <label for="recovery-credential">Password or a code from your authenticator app</label>
      <input
        id="recovery-credential"
        name="credential"
        type="password"
        autocomplete="current-password"
        required${describedBy(input, 'recovery-codes', 'recovery-error')}
      />
      <button type="submit">Generate new recovery codes</button>
    </form>
    ${
      input.totpRequired
        ? html`<p class="after">
            Two-factor authentication is required on this service: it cannot be turned off.
          </p>`
        : html`<h3>Turn off</h3>
            ${errorFor(input, 'two-factor/remove', 'remove-error')}
            <form method="post" action="/account/two-factor/remove">
              ${csrf(input)}
              <label for="remove-password">Current password</label>
              <input
                id="remove-password"
                name="password"
                type="password"
                autocomplete="current-password"
                required${describedBy(input, 'two-factor/remove', 'remove-error')}
              />
              <button type="submit" class="secondary">Turn off two-factor authentication</button>
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
    'Your account',
    html`<p class="lead">Signed in as <strong>${input.email}</strong></p>
      ${input.app?.url ? html`<p class="lead">Your sign-in settings for ${input.app.name}.</p>` : ''}
      ${input.notice ? html`<p class="notice" role="status">${input.notice}</p>` : ''}
      ${passwordSection(input)} ${twoFactorSection(input)}
      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Sessions</h2>
        <p>
          Signs you out on every other browser and device; applications there lose access within a minute.
        </p>
        <form method="post" action="/account/sessions">
          ${csrf(input)}
          <button type="submit" class="secondary">Sign out everywhere else</button>
        </form>
      </section>
      ${backToApp(input.app)}
      <p class="after"><a href="${input.signOutHref}">Sign out</a></p>`,
  );
}
