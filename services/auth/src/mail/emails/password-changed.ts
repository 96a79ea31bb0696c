import { type EmailContext, type EmailText, formatWhen, notSomeoneElse, renderEmail } from './email-text';

/** How the password was changed: on the account page, or with a reset link. */
export interface PasswordChangedDetails {
  via: 'console' | 'reset';
}

export function passwordChangedEmailEn(ctx: EmailContext, d: PasswordChangedDetails): EmailText {
  const how = d.via === 'reset' ? 'with a password reset link' : 'on the account page';
  return renderEmail(`Your ${ctx.service} password was changed`, [
    `The password of your ${ctx.service} account ${ctx.accountEmail} was changed ${how} on ${formatWhen(ctx.when)}.`,
    d.via === 'reset'
      ? 'Every sign-in from before the change has been ended: sign in again with the new password.'
      : 'Every other sign-in from before the change has been ended: sign in again there with the new password.',
    ...notSomeoneElse(
      ctx,
      'someone else may have access to your email or your account: reset your password now.',
    ),
  ]);
}
