import type { Translator } from '@secret-push/i18n';
import { type EmailContext, type EmailText, formatWhen, notSomeoneElse, renderEmail } from './email-text';

/** How the password was changed: on the account page, or with a reset link. */
export interface PasswordChangedDetails {
  via: 'console' | 'reset';
}

export function passwordChangedEmail(
  tr: Translator,
  ctx: EmailContext,
  d: PasswordChangedDetails,
): EmailText {
  const args = { service: ctx.service, email: ctx.accountEmail, when: formatWhen(tr, ctx.when), via: d.via };
  return renderEmail(
    tr.t('email.passwordChanged.subject', { service: ctx.service }),
    [
      tr.t('email.passwordChanged.changed', args),
      tr.t('email.passwordChanged.ended', { via: d.via }),
      ...notSomeoneElse(tr, ctx, tr.t('email.passwordChanged.ifNotYou')),
    ],
    tr.locale,
  );
}
