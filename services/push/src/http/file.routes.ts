import { type RequestHandler, Router } from 'express';
import { HttpError } from '@secret-push/http-kit';
import type { Logger } from '@secret-push/logger';
import type { FileService } from '../domain/file-service';
import { auditContext } from './audit-context';
import { ARCHIVE_PATH, DOWNLOAD_GONE, sendArchive } from './file-archive';

import { sendDownload } from './send-download';

/**
 * `GET /files/:file_id?push=…&view=…&expires=…&sig=…`: the download links handed out with a
 * counted view (docs/api.md, "Files"). The link is the credential, so no token is needed; its query string is
 * never logged (the HTTP logger drops query strings). Every refusal looks the same. A file is
 * served as a download (`application/octet-stream`, `attachment`, a sandbox CSP), whatever its type.
 */
export function fileRoutes(deps: { files: FileService; rateLimit: RequestHandler; logger: Logger }): Router {
  const router = Router();
  // "Download all" (file-archive.ts): before `/files/:file_id`, which would take it for a file id.
  router.get(ARCHIVE_PATH, deps.rateLimit, (req, res) => sendArchive(deps, req, res));
  router.get('/files/:file_id', deps.rateLimit, async (req, res) => {
    const opened = await deps.files.openDownload(String(req.params.file_id), req.query, auditContext(req));
    if (!opened) throw new HttpError(404, 'not_found', DOWNLOAD_GONE);
    await sendDownload(res, opened, deps.logger, 'file download');
  });
  return router;
}
