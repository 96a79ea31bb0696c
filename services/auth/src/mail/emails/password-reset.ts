import type { Translator } from '@secret-push/i18n';
import { type EmailContext, type EmailText, formatWhen, renderEmail } from './email-text';

/** The reset email's own details: the link (`<issuer>/reset/<token>`) and when it stops working. */
export interface PasswordResetDetails {
  link: string;
  expiresAt: Date;
}

/** Never a password or a code; the link is the only secret, and it works once. */
export function passwordResetEmail(tr: Translator, ctx: EmailContext, d: PasswordResetDetails): EmailText {
  return renderEmail(
    tr.t('email.reset.subject', { service: ctx.service }),
    [
      tr.t('email.reset.asked', {
        service: ctx.service,
        email: ctx.accountEmail,
        when: formatWhen(tr, ctx.when),
      }),
      {
        text: tr.t('email.reset.open', { expires: formatWhen(tr, d.expiresAt) }),
        link: d.link,
        label: tr.t('email.reset.link'),
      },
      tr.t('email.reset.twoFactor'),
      tr.t('email.reset.ignore'),
    ],
    tr.locale,
  );
}
