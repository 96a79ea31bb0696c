import type { VerifiedAccount } from '../users/sign-in';
import type { SecondFactorMethod } from '../users/second-factor';

/**
 * A sign-in as a small state machine: each step that passes says which comes next.
 *
 *   password ──(no second factor, none required)──────────────────────────────▶ done  amr [pwd]
 *      │
 *      ├──(second factor enrolled)──▶ second_factor ──(TOTP code)───────────────▶ done  amr [pwd, otp]
 *      │                                     └──────(recovery code)─────────────▶ done  amr [pwd, otp]
 *      │
 *      └──(none, AUTH_REQUIRE_TOTP)──▶ enrol ──(code of the new secret)──▶ recovery codes shown
 *                                                                               └──▶ done  amr [pwd, otp]
 *
 * A password alone never signs in an account that has a second factor, and with AUTH_REQUIRE_TOTP
 * never one that has none. amr values are RFC 8176's: "pwd" a password, "otp" a one-time password.
 * A recovery code is a one-time password too (NIST SP 800-63B calls it a look-up secret; RFC 8176
 * has no value of its own for it), so it also gives ["pwd", "otp"]; the log line `signed in` says
 * which (`second_factor`).
 *
 * Between the steps the interaction (oidc-provider's, stored server-side and bound to the browser
 * by its cookie) remembers which account passed the password: interactions/pending-step.ts.
 */
export type SignInStep =
  | { step: 'done'; login: { accountId: string; amr: string[] } }
  | { step: 'second_factor'; accountId: string }
  | { step: 'enrol'; accountId: string };

/** The last step passed: who signed in, and how. */
export type SignedIn = Extract<SignInStep, { step: 'done' }>;

/** Where a sign-in goes once the password of `account` was verified. */
export function afterPassword(account: VerifiedAccount, policy: { requireTotp: boolean }): SignInStep {
  if (account.secondFactor) return { step: 'second_factor', accountId: account.id };
  if (policy.requireTotp) return { step: 'enrol', accountId: account.id };
  return { step: 'done', login: { accountId: account.id, amr: ['pwd'] } };
}

/** Where a sign-in goes once the second factor passed (`method` says which kind). */
export function afterSecondFactor(accountId: string, _method: SecondFactorMethod): SignedIn {
  return { step: 'done', login: { accountId, amr: ['pwd', 'otp'] } };
}

/** Where a sign-in goes once a second factor was enrolled (a code of it typed) and its codes shown. */
export function afterEnrolment(accountId: string): SignedIn {
  return { step: 'done', login: { accountId, amr: ['pwd', 'otp'] } };
}
