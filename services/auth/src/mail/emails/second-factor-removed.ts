import type { Translator } from '@secret-push/i18n';
import { type EmailContext, type EmailText, formatWhen, notSomeoneElse, renderEmail } from './email-text';

export function secondFactorRemovedEmail(tr: Translator, ctx: EmailContext): EmailText {
  return renderEmail(
    tr.t('email.secondFactorRemoved.subject', { service: ctx.service }),
    [
      tr.t('email.secondFactorRemoved.removed', {
        service: ctx.service,
        email: ctx.accountEmail,
        when: formatWhen(tr, ctx.when),
      }),
      ...notSomeoneElse(tr, ctx, tr.t('email.secondFactorRemoved.ifNotYou')),
    ],
    tr.locale,
  );
}
