import { type EmailContext, type EmailText, formatWhen, renderEmail } from './email-text';

/** The reset email's own details: the link (`<issuer>/reset/<token>`) and when it stops working. */
export interface PasswordResetDetails {
  link: string;
  expiresAt: Date;
}

/** English. Never a password or a code; the link is the only secret, and it works once. */
export function passwordResetEmailEn(ctx: EmailContext, d: PasswordResetDetails): EmailText {
  return renderEmail(`Reset your ${ctx.service} password`, [
    `Someone asked to reset the password of the ${ctx.service} account ${ctx.accountEmail} on ${formatWhen(ctx.when)}.`,
    {
      text: `To choose a new password, open this link before ${formatWhen(d.expiresAt)}. It works once, and a newer request replaces it.`,
      link: d.link,
      label: 'Choose a new password',
    },
    'If your account has two-factor authentication, you will still be asked for a code from your authenticator app, or one of your recovery codes.',
    'If you did not ask for this, you can ignore this email: your password stays as it is.',
  ]);
}
