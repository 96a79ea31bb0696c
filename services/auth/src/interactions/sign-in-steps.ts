import type { VerifiedAccount } from '../users/sign-in';

/**
 * A sign-in as a small state machine: each step that passes says which comes next. Today there is
 * one step: the password, then done. The second factor (TOTP, recovery codes) comes later as a
 * step between the two: `afterPassword` already sends an account with one enrolled to
 * `second_factor`, which the login routes refuse for now, so that a password alone never signs in
 * an account that has a second factor.
 */
export type SignInStep =
  | { step: 'done'; login: { accountId: string; amr: string[] } }
  | { step: 'second_factor'; accountId: string };

/** Where a sign-in goes once the password of `account` was verified. */
export function afterPassword(account: VerifiedAccount): SignInStep {
  if (account.secondFactor) return { step: 'second_factor', accountId: account.id };
  // amr "pwd" (RFC 8176): the password was the proof.
  return { step: 'done', login: { accountId: account.id, amr: ['pwd'] } };
}
