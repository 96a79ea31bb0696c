import type { ColumnType, Generated, Selectable } from 'kysely';

type Written<T> = ColumnType<T, never, T>;

/**
 * A person who signs in: the email stored normalised (trimmed, lower-cased; unique), the password
 * as an scrypt hash (`scrypt$N$r$p$salt$hash`), never in clear. `password_changed_at` is when the
 * password was last set, by creation or reset. `totp_secret` and `recovery_code_hashes` are the
 * second factor, null until enrolled (the secret base32, the recovery codes as SHA-256 hex, each
 * removed once used); `totp_last_step` is the time step of the last TOTP code accepted (a code is
 * accepted only for a later one: no replay). `disabled_at` non-null means the account may not sign in.
 * `email_verified` is false for an account a person made themselves (self sign-up): nobody vouched
 * for the address; the operator's accounts are verified. `second_factor_failures` counts wrong
 * second-factor codes in a row (a right one resets it); at the lock threshold TOTP is refused.
 */
export interface AccountTable {
  id: Generated<string>;
  email: string;
  password_hash: string;
  password_changed_at: Written<Date>;
  totp_secret: Written<string | null>;
  recovery_code_hashes: Written<string[] | null>;
  /** bigint: read as a string (node-postgres), written as a number. */
  totp_last_step: ColumnType<string | null, never, number | null>;
  disabled_at: Written<Date | null>;
  second_factor_failures: ColumnType<number, never, number>;
  email_verified: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, never, never>;
  updated_at: Written<Date>;
}

export type AccountRow = Selectable<AccountTable>;
