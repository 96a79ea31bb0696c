import type { MigrationSet } from '@secret-push/db-kit';
import * as createPush from './2026_11_21_0001_create_push';
import * as files from './2026_11_21_0002_files';
import * as uploadIntentClaims from './2026_11_24_0001_upload_intent_claims';
import * as idempotencyKey from './2026_11_24_0002_idempotency_key';
import * as usersAndTokens from './2026_11_24_0003_users_and_tokens';
import * as pushHotPath from './2026_11_25_0010_push_hot_path';
import * as pushOutbox from './2026_11_26_0003_push_outbox';
import * as pushEmail from './2026_11_26_0004_push_email';
import * as webhooks from './2026_11_26_0010_webhooks';
import * as webhookEmail from './2026_11_27_0001_webhook_email';
import * as requests from './2026_11_27_0002_requests';
import * as requestEvents from './2026_11_27_0003_request_events';
import * as pushReceipt from './2026_11_27_0004_push_receipt';

/** Every migration of the push database, in order. */
export const pushMigrations: MigrationSet = {
  '2026_11_21_0001_create_push': createPush,
  '2026_11_21_0002_files': files,
  '2026_11_24_0001_upload_intent_claims': uploadIntentClaims,
  '2026_11_24_0002_idempotency_key': idempotencyKey,
  '2026_11_24_0003_users_and_tokens': usersAndTokens,
  '2026_11_25_0010_push_hot_path': pushHotPath,
  '2026_11_26_0003_push_outbox': pushOutbox,
  '2026_11_26_0004_push_email': pushEmail,
  '2026_11_26_0010_webhooks': webhooks,
  '2026_11_27_0001_webhook_email': webhookEmail,
  '2026_11_27_0002_requests': requests,
  '2026_11_27_0003_request_events': requestEvents,
  '2026_11_27_0004_push_receipt': pushReceipt,
};
