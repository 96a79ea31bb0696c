import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import type { Logger } from '@secret-push/logger';

/** The CSP of a download: sandboxed (a unique origin, no scripts), nothing loaded. */
export const DOWNLOAD_CSP = "sandbox; default-src 'none'";

/** A stored file opened for download: its name, its size and its decrypted bytes. */
export interface OpenedFile {
  filename: string;
  size: number;
  body: Readable;
}

/**
 * Streams an opened file as a download, the same for every download route (a push's file, a
 * request's attachment from the API or the responder's page). Never the uploader's type: a file
 * typed text/html or text/javascript would otherwise be a page or a script of this origin (its type
 * is in the JSON that lists it); should a browser render it anyway, the sandbox CSP gives it a
 * unique origin with no scripts. A failure after the headers cuts the download (Content-Length
 * tells the client so); `what` names it in the log.
 */
export async function sendDownload(
  res: Response,
  opened: OpenedFile,
  logger: Logger,
  what: string,
): Promise<void> {
  res.attachment(opened.filename);
  res.set({
    'Content-Type': 'application/octet-stream',
    'Content-Length': String(opened.size),
    'Content-Security-Policy': DOWNLOAD_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  });
  try {
    await pipeline(opened.body, res);
  } catch (err) {
    logger.warn({ err: (err as Error).message }, `${what} interrupted`);
    res.destroy();
  }
}
