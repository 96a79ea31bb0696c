import type { Translator } from '@secret-push/i18n';
import { type EmailContext, type EmailText, formatWhen, notSomeoneElse, renderEmail } from './email-text';

export function secondFactorAddedEmail(tr: Translator, ctx: EmailContext): EmailText {
  return renderEmail(
    tr.t('email.secondFactorAdded.subject', { service: ctx.service }),
    [
      tr.t('email.secondFactorAdded.added', {
        service: ctx.service,
        email: ctx.accountEmail,
        when: formatWhen(tr, ctx.when),
      }),
      ...notSomeoneElse(tr, ctx, tr.t('email.secondFactorAdded.ifNotYou')),
    ],
    tr.locale,
  );
}
