import { type EmailContext, type EmailText, formatWhen, notSomeoneElse, renderEmail } from './email-text';

export function secondFactorAddedEmailEn(ctx: EmailContext): EmailText {
  return renderEmail(`Two-factor authentication was turned on for your ${ctx.service} account`, [
    `Two-factor authentication (an authenticator app) was turned on for your ${ctx.service} account ${ctx.accountEmail} on ${formatWhen(ctx.when)}. From now on, signing in asks for a code from that app, or a recovery code.`,
    ...notSomeoneElse(
      ctx,
      'someone who knows your password signed in and set up their own authenticator app: reset your password now.',
    ),
  ]);
}
