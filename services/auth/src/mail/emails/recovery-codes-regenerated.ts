import { type EmailContext, type EmailText, formatWhen, notSomeoneElse, renderEmail } from './email-text';

export function recoveryCodesRegeneratedEmailEn(ctx: EmailContext): EmailText {
  return renderEmail(`New recovery codes were made for your ${ctx.service} account`, [
    `A new set of recovery codes was made for your ${ctx.service} account ${ctx.accountEmail} on ${formatWhen(ctx.when)}. The codes you had before no longer work.`,
    ...notSomeoneElse(
      ctx,
      'someone who knows your password and has your second factor signed in: reset your password now.',
    ),
  ]);
}
