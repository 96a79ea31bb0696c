import { sql } from 'kysely';
import type { TestAuth, TestUser } from '../../testing';
import { generateRecoveryCodes, hashRecoveryCodes } from '../../users/recovery-codes';
import { generateTotpSecret } from '../../users/totp';

export interface TotpUser extends TestUser {
  /** The TOTP secret in clear (base32), as the person's authenticator app holds it. */
  secret: string;
  recoveryCodes: string[];
}

/**
 * A new user with a second factor already enrolled: the secret stored sealed with the auth
 * service's data key (the account table refuses a clear one) and a fresh set of recovery codes.
 */
export async function userWithTotp(auth: TestAuth, email: string): Promise<TotpUser> {
  const user = await auth.createUser(email);
  const secret = generateTotpSecret();
  const recoveryCodes = generateRecoveryCodes();
  await sql`update account set totp_secret = ${auth.totpSecrets.seal(user.id, secret)},
              recovery_code_hashes = ${hashRecoveryCodes(recoveryCodes)}
            where id = ${user.id}`.execute(auth.db);
  return { ...user, secret, recoveryCodes };
}
