import type {
  AuditEntryTable,
  PushEventTable,
  FileDownloadTable,
  IdempotencyKeyTable,
  PushFileTable,
  PushTable,
  UploadIntentTable,
} from './push.table';
import type { AppUserTable, PersonalTokenTable } from './user.table';
import type { PushEmailBatchTable, PushEmailTable } from './email.table';
import type { WebhookDeliveryTable, WebhookEndpointTable } from './webhook.table';
import type {
  RequestAnswerCodeTable,
  RequestAuditEntryTable,
  RequestFileTable,
  RequestTable,
} from './request.table';

export interface PushDatabase {
  push: PushTable;
  audit_entry: AuditEntryTable;
  push_event: PushEventTable;
  push_file: PushFileTable;
  upload_intent: UploadIntentTable;
  file_download: FileDownloadTable;
  idempotency_key: IdempotencyKeyTable;
  app_user: AppUserTable;
  personal_token: PersonalTokenTable;
  push_email_batch: PushEmailBatchTable;
  push_email: PushEmailTable;
  webhook_endpoint: WebhookEndpointTable;
  webhook_delivery: WebhookDeliveryTable;
  request: RequestTable;
  request_audit_entry: RequestAuditEntryTable;
  request_file: RequestFileTable;
  request_answer_code: RequestAnswerCodeTable;
}
