import { t } from '@secret-push/i18n';
import { html } from '@secret-push/html';
import { layout } from './layout';
import { RECOVERY_CODES_SCRIPT_PATH } from './recovery-codes-script';

/**
 * The file "Download" saves: the codes, one a line, under a line saying what they are (in the
 * page's language).
 */
export function recoveryCodesText(codes: readonly string[]): string {
  return [
    t('factor.codes.fileTitle', { brand: 'secret-push' }),
    t('factor.codes.fileText'),
    '',
    ...codes,
    '',
  ].join('\n');
}

/**
 * The download as a `data:` link (`download` attribute): the codes are already in this page, shown
 * once; nothing more is kept on the server, and it works without JavaScript. (A CSP does not govern
 * downloads; Chromium refuses only navigations to `data:`, not downloads.)
 */
const downloadHref = (codes: readonly string[]): string =>
  `data:text/plain;charset=utf-8,${encodeURIComponent(recoveryCodesText(codes))}`;

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
    t('factor.codes.title'),
    html`<p class="lead">${t('factor.codes.lead')}</p>
      <ul class="codes" id="recovery-codes" aria-label="${t('factor.codes.list')}">
        ${input.codes.map((code) => html`<li><code>${code}</code></li>`)}
      </ul>
      <div class="code-actions">
        <button type="button" class="secondary" id="copy-codes" hidden>${t('factor.codes.copy')}</button>
        <a class="download" href="${downloadHref(input.codes)}" download="secret-push-recovery-codes.txt"
          >${t('factor.codes.download')}</a
        >
        <button type="button" class="secondary" id="print-codes" hidden>${t('factor.codes.print')}</button>
      </div>
      <p class="hint" id="codes-status" role="status"></p>
      ${
        'form' in next
          ? html`<form method="post" action="${next.form.action}">
              <input type="hidden" name="csrf" value="${next.form.csrfToken}" />
              <button type="submit">${next.form.label}</button>
            </form>`
          : html`<p class="after"><a href="${next.link.href}">${next.link.label}</a></p>`
      }
      <script src="${RECOVERY_CODES_SCRIPT_PATH}" defer></script>`,
    { clientMessages: { copied: t('factor.codes.copied'), copyFailed: t('factor.codes.copyFailed') } },
  );
}

/** The sign-in page after enrolment when the codes were already shown (the page was reloaded). */
export function enrolledPage(input: { action: string; csrfToken: string; label: string }): string {
  return layout(
    t('factor.enrolled.title'),
    html`<p>${t('factor.enrolled.text')}</p>
      <form method="post" action="${input.action}">
        <input type="hidden" name="csrf" value="${input.csrfToken}" />
        <button type="submit">${input.label}</button>
      </form>`,
  );
}
