import type { ColumnType, Generated, Selectable } from 'kysely';

/** A person, identified by (issuer, subject): the OpenID issuer and its `sub`. */
export interface AppUserTable {
  id: Generated<string>;
  issuer: string;
  subject: string;
  email: string | null;
  email_verified: Generated<boolean>;
  disabled_at: Date | null;
  created_at: ColumnType<Date, never, never>;
  last_seen_at: Generated<Date>;
  /** Owner notices applied to this person's creates that do not say (`notify_owner_on`). */
  notify_owner_on: Generated<string[]>;
}

/** A personal API token: its SHA-256 only, never the value (see its migration). */
export interface PersonalTokenTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  token_hash: Buffer;
  scopes: string[];
  expires_at: Date | null;
  last_used_at: Date | null;
  created_at: ColumnType<Date, never, never>;
  regenerated_at: Date | null;
}

export type AppUserRow = Selectable<AppUserTable>;
export type PersonalTokenRow = Selectable<PersonalTokenTable>;
