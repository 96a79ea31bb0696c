import type {
  AuditEntryTable,
  FileDownloadTable,
  IdempotencyKeyTable,
  PushFileTable,
  PushTable,
  UploadIntentTable,
} from './push.table';

export interface PushDatabase {
  push: PushTable;
  audit_entry: AuditEntryTable;
  push_file: PushFileTable;
  upload_intent: UploadIntentTable;
  file_download: FileDownloadTable;
  idempotency_key: IdempotencyKeyTable;
}
