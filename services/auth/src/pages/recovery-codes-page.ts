import { html } from '@secret-push/html';
import { layout } from './layout';

export interface RecoveryCodesPageInput {
  codes: readonly string[];
  /** How the person goes on: the sign-in's "continue" form, or a link back to the account page. */
  next:
    | { form: { action: string; csrfToken: string; label: string } }
    | { link: { href: string; label: string } };
}

/** A new set of recovery codes, shown this once (only their hashes are stored). */
export function recoveryCodesPage(input: RecoveryCodesPageInput): string {
  const { next } = input;
  return layout(
    'Your recovery codes',
    html`<p class="lead">
        If you lose your authenticator, each of these codes signs you in once instead of a code from the app.
        Store them somewhere safe now: they are not shown again. Any older codes no longer work.
      </p>
      <ul class="codes" id="recovery-codes">
        ${input.codes.map((code) => html`<li><code>${code}</code></li>`)}
      </ul>
      ${
        'form' in next
          ? html`<form method="post" action="${next.form.action}">
              <input type="hidden" name="csrf" value="${next.form.csrfToken}" />
              <button type="submit">${next.form.label}</button>
            </form>`
          : html`<p class="after"><a href="${next.link.href}">${next.link.label}</a></p>`
      }`,
  );
}

/** The sign-in page after enrolment when the codes were already shown (the page was reloaded). */
export function enrolledPage(input: { action: string; csrfToken: string; label: string }): string {
  return layout(
    'Two-factor authentication is on',
    html`<p>Your recovery codes were shown once, when you turned it on.</p>
      <form method="post" action="${input.action}">
        <input type="hidden" name="csrf" value="${input.csrfToken}" />
        <button type="submit">${input.label}</button>
      </form>`,
  );
}
