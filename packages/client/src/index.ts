export {
  createClient,
  type ClientOptions,
  type CreateOptions,
  type CreatePushInput,
  type Download,
  type DownloadOptions,
  type FilePushInput,
  type NodeDownload,
  type PageOptions,
  type PushList,
  type RetrieveOptions,
  type SecretPushClient,
  type StaticTokenAuth,
  type TextPushInput,
} from './client.ts';
export {
  ConnectionError,
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
