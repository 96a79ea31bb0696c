import type { Kysely } from 'kysely';
import { isConnectionError } from '@secret-push/db-kit';
import { DependencyUnavailable } from '../errors';
import type { AuthDatabase } from '../storage/database';
import { emailProblem, normaliseEmail } from './email';
import { passwordRuleViolation } from './password';
import type { VerifiedAccount } from './sign-in';
import { EmailTaken, createUser } from './user-admin';

/*
 * Self sign-up (AUTH_SELF_SIGNUP): a person creates their own account on the sign-up page, with
 * the same rules as the operator's `users create` (users/user-admin.ts): the email normalised
 * (trimmed, NFC, lower case) and free, the password of at least 12 characters and not the email.
 * The password is typed twice. The account's email is not verified (nobody checked the address is
 * theirs), and the id token says so (`email_verified: false`).
 */

export interface SignUpForm {
  email: string;
  password: string;
  passwordAgain: string;
}

/** What is wrong with a sign-up form, in words for the page, and the field it is about. */
export interface SignUpProblem {
  field: 'email' | 'password';
  message: string;
}

const sentence = (rule: string): string => `${rule.charAt(0).toUpperCase()}${rule.slice(1)}.`;

/** Why the form cannot make an account (before any lookup), or undefined when it can. */
export function signUpProblem(form: SignUpForm): SignUpProblem | undefined {
  const email = normaliseEmail(form.email);
  if (emailProblem(email)) {
    return { field: 'email', message: 'Enter a valid email address, such as name@example.org.' };
  }
  const violation = passwordRuleViolation(form.password, email);
  if (violation) return { field: 'password', message: sentence(violation) };
  if (form.password.normalize('NFC') !== form.passwordAgain.normalize('NFC')) {
    return { field: 'password', message: 'The two passwords do not match.' };
  }
  return undefined;
}

export type SignUpResult =
  { created: true; account: VerifiedAccount } | { created: false; problem: SignUpProblem };

/**
 * Creates the account of a form `signUpProblem` accepted. An email that already has an account
 * changes nothing and is refused in so many words (the throttle limits how often anyone may ask).
 * A database outage throws `DependencyUnavailable`.
 */
export async function signUp(db: Kysely<AuthDatabase>, form: SignUpForm): Promise<SignUpResult> {
  try {
    const user = await createUser(db, { email: form.email, password: form.password, selfSignUp: true });
    return { created: true, account: { id: user.id, email: user.email, secondFactor: false } };
  } catch (err) {
    if (err instanceof EmailTaken) {
      return {
        created: false,
        problem: {
          field: 'email',
          message: 'An account with this email already exists. Sign in instead, or use another email.',
        },
      };
    }
    if (isConnectionError(err)) throw new DependencyUnavailable('database', { cause: err });
    throw err;
  }
}
