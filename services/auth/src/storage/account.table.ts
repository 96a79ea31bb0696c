import type { ColumnType, Generated, Selectable } from 'kysely';

type Written<T> = ColumnType<T, never, T>;

/**
 * A person who signs in: the email stored normalised (trimmed, lower-cased; unique), the password
 * as an scrypt hash (`scrypt$N$r$p$salt$hash`), never in clear. `password_changed_at` is when the
 * password was last set, by creation or reset. `totp_secret` and `recovery_code_hashes` are the
 * second factor, null until enrolled; `disabled_at` non-null means the account may not sign in.
 * `email_verified` is false for an account a person made themselves (self sign-up): nobody vouched
 * for the address; the operator's accounts are verified.
 */
export interface AccountTable {
  id: Generated<string>;
  email: string;
  password_hash: string;
  password_changed_at: Written<Date>;
  totp_secret: Written<string | null>;
  recovery_code_hashes: Written<string[] | null>;
  disabled_at: Written<Date | null>;
  email_verified: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, never, never>;
  updated_at: Written<Date>;
}

export type AccountRow = Selectable<AccountTable>;
