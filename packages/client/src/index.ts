export { createClient } from './client.ts';
export type {
  ClientOptions,
  CreateOptions,
  CreatePushInput,
  Download,
  DownloadOptions,
  FilePushInput,
  NodeDownload,
  NotifyEmailsOptions,
  PageOptions,
  PushList,
  RequestAdmin,
  RetrieveOptions,
  SecretPushClient,
  StaticTokenAuth,
  TextPushInput,
  WebhookAdmin,
  WebhookChanges,
  WebhookInput,
} from './client-types.ts';
export {
  ConnectionError,
  InsecureUrlError,
  NotFoundError,
  PushExpiredError,
  RateLimitedError,
  SecretPushError,
  UnauthorizedError,
  UnavailableError,
  type ErrorKind,
} from './errors.ts';
export type { FileInput } from './multipart.ts';
export type { AccessToken, ClientCredentialsAuth } from './token-cache.ts';
export type { CallOptions } from './transport.ts';
export type * from './types.ts';
export type * from './request-types.ts';
export { DELIVERIES_PAGE_SIZE, WEBHOOK_EVENT_TYPES } from './webhook-admin.ts';
export {
  type WebhookMessage,
  WebhookVerificationError,
  pushReference,
  requestReference,
  verifyWebhook,
} from './webhooks.ts';
