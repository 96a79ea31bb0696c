import type { OidcPayloadTable } from './oidc-payload.table';

export interface AuthDatabase {
  oidc_payload: OidcPayloadTable;
}
