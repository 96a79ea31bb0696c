/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against Kysely<any> */
import { type Kysely, sql } from 'kysely';

/**
 * People and their personal API tokens (how API clients use them: docs/api.md, Authentication).
 *
 * `app_user` (`user` is a reserved word): a person is identified by the OpenID issuer and its
 * `sub` (unique together), never by email: two issuers may vouch for the same address, and those
 * are two users. The email is kept for display and for the legacy `X-User-Email` check, which
 * also needs `email_verified`. A disabled user keeps the row (its pushes stay its own) but loses
 * every token.
 *
 * `personal_token`: only the SHA-256 of the token string is stored (`token_hash`, unique: the
 * lookup key); the value is shown once. Names are 1 to 100 characters, unique per user; scopes a
 * non-empty subset of `pushes:read`, `pushes:write`; an expiry, when set, lies after the creation
 * (by the database's clock). Regenerating a token replaces its hash in the same row.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table app_user (
      id uuid primary key default gen_random_uuid(),
      issuer text not null,
      subject text not null,
      email text,
      email_verified boolean not null default false,
      disabled_at timestamptz,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      constraint app_user_identity_key unique (issuer, subject)
    )`.execute(db);
  // The operator CLI finds users by email, whatever its case.
  await sql`create index app_user_email_idx on app_user (lower(email))`.execute(db);

  await sql`
    create table personal_token (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references app_user (id) on delete cascade,
      name text not null constraint personal_token_name_length check (char_length(name) between 1 and 100),
      token_hash bytea not null constraint personal_token_hash_length check (octet_length(token_hash) = 32),
      scopes text[] not null constraint personal_token_scopes check (
        cardinality(scopes) > 0 and scopes <@ array['pushes:read', 'pushes:write']::text[]
      ),
      expires_at timestamptz,
      last_used_at timestamptz,
      created_at timestamptz not null default now(),
      regenerated_at timestamptz,
      constraint personal_token_hash_key unique (token_hash),
      constraint personal_token_name_key unique (user_id, name),
      constraint personal_token_expiry check (expires_at is null or expires_at > created_at)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table personal_token`.execute(db);
  await sql`drop table app_user`.execute(db);
}
