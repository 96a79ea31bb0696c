import type { PushConfig } from '../../config';
import { docsOperation, openApiOperation, versionOperation } from './operations.meta';
import {
  auditOperation,
  createOperation,
  expireOperation,
  listOperation,
  previewOperation,
  retrieveOperation,
  revealOperation,
} from './operations.pushes';
import { archiveOperation, downloadOperation } from './operations.files';
import { notifyEmailsOperation } from './operations.email';
import { webhookPaths } from './operations.webhooks';
import { requestPaths } from './operations.requests';
import type { OperationContext } from './operations.shared';
import type { OpenApiDocument } from './types';

/*
 * The paths of the document. What an operation promises (security, error codes) follows the
 * instance configuration; operations.meta.ts and operations.pushes.ts build them.
 */

/** The `paths` of the document: every operation, for this instance's configuration. */
export function buildPaths(config: PushConfig): OpenApiDocument['paths'] {
  const f = config.features;
  const ctx: OperationContext = {
    anonymous: f.anonymousAccess,
    pushesEnabled: f.pushesEnabled,
    anonymousCreateRefused: !f.anonymousAccess || (f.filePushes && f.filePushesRequireAuth),
    files: f.filePushes,
  };
  return {
    '/version': { get: versionOperation() },
    '/openapi': { get: openApiOperation() },
    '/docs': { get: docsOperation() },
    '/pushes': { post: createOperation(ctx) },
    '/pushes/active': { get: listOperation(ctx, 'active') },
    '/pushes/expired': { get: listOperation(ctx, 'expired') },
    '/pushes/{url_token}': { get: retrieveOperation(ctx), delete: expireOperation(ctx) },
    '/pushes/{url_token}/reveal': { post: revealOperation(ctx) },
    '/pushes/{url_token}/preview': { get: previewOperation(ctx) },
    '/pushes/{url_token}/audit': { get: auditOperation() },
    ...(config.mail ? { '/pushes/{url_token}/notify_emails': { post: notifyEmailsOperation() } } : {}),
    ...(ctx.files ? { '/files/{file_id}': { get: downloadOperation() } } : {}),
    ...(ctx.files ? { '/files/archive': { get: archiveOperation() } } : {}),
    ...webhookPaths(),
    ...(f.requestsEnabled
      ? requestPaths({ ...ctx, mail: config.mail !== null, codes: config.requestCodes })
      : {}),
  };
}
