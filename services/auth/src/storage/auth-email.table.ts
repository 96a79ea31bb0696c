import type { ColumnType, Generated, Selectable } from 'kysely';
import type { MailStatus } from '@secret-push/mail';

type Written<T> = ColumnType<T, never, T>;

/**
 * The auth service's outgoing email (migration 2026_12_01_0001): the mail queue's delivery columns
 * (`@secret-push/mail`, written by its statements) and what a message is composed from.
 */
export interface AuthEmailTable {
  id: string;
  recipient: string;
  status: Generated<MailStatus>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  last_error: Generated<string | null>;
  smtp_response: Generated<string | null>;
  sent_at: Generated<Date | null>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  kind: string;
  account_id: string;
  locale: Generated<string>;
  /** Details that are no secret (how a password was changed). */
  data: ColumnType<Record<string, string>, string | undefined, string>;
  /** The sealed secret of the message (a reset token) and the data key that sealed it. */
  data_key_id: string | null;
  data_sealed: Buffer | null;
}

export type AuthEmailRow = Selectable<AuthEmailTable>;

/** A password reset asked for: the token only as SHA-256; once, until `expires_at`, unless voided. */
export interface PasswordResetTable {
  id: Generated<string>;
  account_id: string;
  token_hash: Buffer;
  created_at: Generated<Date>;
  expires_at: Date;
  used_at: Written<Date | null>;
  voided_at: Written<Date | null>;
}
