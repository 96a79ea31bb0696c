import type { AccountTable } from './account.table';
import type { OidcPayloadTable } from './oidc-payload.table';

export interface AuthDatabase {
  oidc_payload: OidcPayloadTable;
  account: AccountTable;
}
