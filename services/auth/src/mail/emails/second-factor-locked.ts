import type { Translator } from '@secret-push/i18n';
import { type EmailContext, type EmailText, formatWhen, notSomeoneElse, renderEmail } from './email-text';

export function secondFactorLockedEmail(tr: Translator, ctx: EmailContext): EmailText {
  return renderEmail(
    tr.t('email.secondFactorLocked.subject', { service: ctx.service }),
    [
      tr.t('email.secondFactorLocked.locked', {
        service: ctx.service,
        email: ctx.accountEmail,
        when: formatWhen(tr, ctx.when),
      }),
      tr.t('email.secondFactorLocked.unlock'),
      ...notSomeoneElse(tr, ctx, tr.t('email.secondFactorLocked.ifNotYou')),
    ],
    tr.locale,
  );
}
