import type { AuditEntryTable, PushTable } from './push.table';

export interface PushDatabase {
  push: PushTable;
  audit_entry: AuditEntryTable;
}
