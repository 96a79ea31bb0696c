import { type EmailContext, type EmailText, formatWhen, notSomeoneElse, renderEmail } from './email-text';

export function secondFactorLockedEmailEn(ctx: EmailContext): EmailText {
  return renderEmail(`Codes from your authenticator app are locked for your ${ctx.service} account`, [
    `After too many wrong two-factor codes in a row, codes from your authenticator app are no longer accepted for your ${ctx.service} account ${ctx.accountEmail} (since ${formatWhen(ctx.when)}).`,
    'To unlock them, sign in with one of your recovery codes, or ask the operator to unlock your account.',
    ...notSomeoneElse(ctx, 'someone may know your password and be guessing codes: reset your password now.'),
  ]);
}
