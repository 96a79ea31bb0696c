import { pipeline } from 'node:stream/promises';
import { type RequestHandler, Router } from 'express';
import { HttpError } from '@secret-push/http-kit';
import type { Logger } from '@secret-push/logger';
import type { FileService } from '../domain/file-service';
import { auditContext } from './audit-context';
import { ARCHIVE_PATH, DOWNLOAD_GONE, sendArchive } from './file-archive';

/** The CSP of a download: sandboxed (a unique origin, no scripts), nothing loaded. */
export const DOWNLOAD_CSP = "sandbox; default-src 'none'";

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
    res.attachment(opened.filename);
    res.set({
      // Never the uploader's type: a file typed text/html or text/javascript would otherwise be a
      // page or a script of this origin. Its type is in the retrieve JSON (`content_type`).
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(opened.size),
      // Should a browser render it anyway: a unique origin, no scripts, nothing loaded.
      'Content-Security-Policy': DOWNLOAD_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    });
    try {
      await pipeline(opened.body, res);
    } catch (err) {
      // Headers are gone: the client sees a cut download (Content-Length tells it so).
      deps.logger.warn({ err: (err as Error).message }, 'file download interrupted');
      res.destroy();
    }
  });
  return router;
}
