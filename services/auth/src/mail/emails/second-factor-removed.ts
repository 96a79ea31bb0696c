import { type EmailContext, type EmailText, formatWhen, notSomeoneElse, renderEmail } from './email-text';

export function secondFactorRemovedEmailEn(ctx: EmailContext): EmailText {
  return renderEmail(`Two-factor authentication was turned off for your ${ctx.service} account`, [
    `Two-factor authentication was turned off for your ${ctx.service} account ${ctx.accountEmail} on ${formatWhen(ctx.when)}. Signing in now asks only for the password; your recovery codes no longer work.`,
    ...notSomeoneElse(
      ctx,
      'someone who knows your password signed in and removed it: reset your password now, then turn two-factor authentication on again.',
    ),
  ]);
}
