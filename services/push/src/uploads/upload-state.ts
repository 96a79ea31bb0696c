import type { Request, Response } from 'express';
import type { PreparedFiles } from '../domain/push-service';
import type { StoredUpload } from '../domain/file-service';
import { need, responseOf } from '../http/context-guard';

/** A multipart create's uploads as the upload step keeps them on `res.locals.uploads`. */
export interface UploadState {
  pushId: string;
  totalBytes: number;
  /** Files in the order their parts arrived (uploads may finish in another order). */
  parts: number;
  stored: (StoredUpload & { part: number })[];
  /** Cancels the uploads in flight (a client that goes away). */
  inFlight: Set<(why: Error) => void>;
  /** Bytes of the non-file fields so far (UTF-8). */
  fieldBytes: number;
  /** The parser was created (it refuses a Content-Type without a boundary before that). */
  parsing: boolean;
  /** Errors the parser or its file streams raised: the form is malformed, not the service. */
  parseErrors: WeakSet<Error>;
  /** One per file handed to the store, resolved once it is stored or cleaned up. */
  settling: Promise<void>[];
  /** Why the form failed, once it has (files still being prepared give up). */
  failed?: Error;
}

export const newUploadState = (pushId: string): UploadState => ({
  pushId,
  totalBytes: 0,
  parts: 0,
  stored: [],
  inFlight: new Set(),
  fieldBytes: 0,
  parsing: false,
  parseErrors: new WeakSet(),
  settling: [],
});

/** The upload state of a request whose parser started (multer hands its engine only the request). */
export const uploadStateOf = (req: Request): UploadState => need(responseOf(req), 'uploads');

/** What the upload step stored, in the order of the form's parts, and under which push id. */
export function uploadsOf(res: Response): PreparedFiles {
  const state = need(res, 'uploads');
  return { pushId: state.pushId, uploads: [...state.stored].sort((a, b) => a.part - b.part) };
}

/** The object keys of what the upload step stored (none when it did not run: nothing was stored). */
export const storedKeys = (res: Response): string[] =>
  res.locals.uploads?.stored.map((u) => u.objectKey) ?? [];
