import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { createUserTokenService } from '../../domain/user-tokens';
import { createUserRepository } from '../../storage/user.repository';
import type { TestPush } from '../../testing';

/** A person with a personal token (both scopes), their address verified unless told otherwise. */
export async function personWithToken(
  push: TestPush,
  options: { email?: string | null; verified?: boolean } = {},
): Promise<{ userId: string; email: string | null; token: string }> {
  const users = createUserTokenService({ store: createUserRepository(push.db) });
  const email =
    options.email === undefined ? `p-${randomBytes(4).toString('hex')}@example.org` : options.email;
  const user = await users.upsertUser({
    issuer: 'https://idp.example',
    subject: `person-${randomBytes(6).toString('hex')}`,
    email,
    emailVerified: options.verified ?? true,
  });
  const { value } = await users.createToken(user.id, {
    name: 'email tests',
    scopes: ['pushes:read', 'pushes:write'],
  });
  return { userId: user.id, email, token: value };
}

/** The queued emails of the push of `urlToken`, oldest first. */
export async function emailRowsOf(push: TestPush, urlToken: string) {
  const { rows } = await sql<{
    id: string;
    recipient: string;
    status: string;
    attempts: number;
    purpose: string;
    locale: string;
    last_error: string | null;
    smtp_response: string | null;
  }>`select e.* from push_email e join push p on p.id = e.push_id
     where p.token_hash = sha256(convert_to(${urlToken}, 'UTF8')) order by e.created_at, e.id`.execute(
    push.db,
  );
  return rows;
}

/** Makes every queued or deferred email due now (instead of waiting out a retry delay or a lease). */
export async function makeEmailsDue(push: TestPush): Promise<void> {
  await sql`update push_email set next_attempt_at = now() - interval '1 second'
            where status in ('queued', 'sending', 'deferred')`.execute(push.db);
}
