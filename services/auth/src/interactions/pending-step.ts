import type { Provider } from 'oidc-provider';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/**
 * What a sign-in between two steps remembers: which account passed the password, and what it must
 * do next. Kept in oidc-provider's interaction (stored server-side, found through the browser's
 * interaction cookie), under a key of ours in its `result`, so it is bound to that one interaction
 * and expires with it (INTERACTION_TTL_SECONDS); the browser never holds it, so it cannot change it.
 * A result without `login` signs nobody in: oidc-provider only reads `result.login`, which is
 * set when the last step passed (and then replaces this).
 *
 * - `second_factor`: the account has TOTP; a code (or recovery code) is asked for.
 * - `enrol`: AUTH_REQUIRE_TOTP and no TOTP yet; `sealedSecret` is the one shown, waiting for a
 *   code, sealed by the data key ring (users/totp-secrets.ts: the interaction is stored in the
 *   database, and holds no secret in clear); `email` labels it in the authenticator app.
 * - `enrolled`: enrolled, recovery codes shown once; the person continues to the application.
 *
 * `throttleKey` is the login throttle's name of the account (accountKey of the email as typed), so
 * that wrong codes count on the same counters as wrong passwords. `codesKey` (random, new for each
 * password that passed) names this pending sign-in's own counter of codes: at most
 * SECOND_FACTOR_CODES_PER_SIGN_IN, then the password must be typed again (absent in a sign-in
 * paused by an older version: the interaction's uid names it then).
 */
export type PendingStep =
  | { step: 'second_factor'; accountId: string; throttleKey: string; codesKey?: string }
  | { step: 'enrol'; accountId: string; throttleKey: string; email: string; sealedSecret: string }
  | { step: 'enrolled'; accountId: string; throttleKey: string };

const KEY = 'urn:secret-push:pending_step';
const STEPS = new Set(['second_factor', 'enrol', 'enrolled']);

/** The step the interaction waits for, or undefined (the password has not passed yet). */
export function pendingStep(interaction: Interaction): PendingStep | undefined {
  const value = interaction.result?.[KEY];
  if (typeof value !== 'object' || value === null) return undefined;
  const step = value as Partial<PendingStep>;
  if (!STEPS.has(step.step ?? '') || typeof step.accountId !== 'string') return undefined;
  // An enrolment step from before its secret was sealed holds none: the sign-in starts again.
  if (step.step === 'enrol' && typeof step.sealedSecret !== 'string') return undefined;
  return step as PendingStep;
}

/** Remembers `step` in the interaction (undefined forgets it), keeping the interaction's expiry. */
export async function savePendingStep(
  interaction: Interaction,
  step: PendingStep | undefined,
): Promise<void> {
  interaction.result = step ? { [KEY]: step } : undefined;
  const left = (interaction.exp ?? 0) - Math.floor(Date.now() / 1000);
  await interaction.save(Math.max(1, left));
}
