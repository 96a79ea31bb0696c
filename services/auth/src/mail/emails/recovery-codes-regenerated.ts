import type { Translator } from '@secret-push/i18n';
import { type EmailContext, type EmailText, formatWhen, notSomeoneElse, renderEmail } from './email-text';

export function recoveryCodesRegeneratedEmail(tr: Translator, ctx: EmailContext): EmailText {
  return renderEmail(
    tr.t('email.recoveryCodes.subject', { service: ctx.service }),
    [
      tr.t('email.recoveryCodes.made', {
        service: ctx.service,
        email: ctx.accountEmail,
        when: formatWhen(tr, ctx.when),
      }),
      ...notSomeoneElse(tr, ctx, tr.t('email.recoveryCodes.ifNotYou')),
    ],
    tr.locale,
  );
}
