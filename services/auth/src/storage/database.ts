import type { AccountTable } from './account.table';
import type { AuthEmailTable, PasswordResetTable } from './auth-email.table';
import type { OidcPayloadTable } from './oidc-payload.table';

export interface AuthDatabase {
  oidc_payload: OidcPayloadTable;
  account: AccountTable;
  auth_email: AuthEmailTable;
  password_reset: PasswordResetTable;
}
