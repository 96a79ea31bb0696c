import type { Request, Response } from 'express';
import { MAX_BODY_BYTES, MAX_TEXT_PAYLOAD } from '../http/push.schemas';

/** An instance's bounds on a create's files (PUSH_FILES_*). */
export interface UploadLimits {
  maxCount: number;
  maxFileBytes: number;
  maxTotalBytes: number;
}

/**
 * The shape of a multipart create, for the one pipeline that reads both the API's form
 * (`push[payload]`, files in `push[files][]`) and the web app's (`payload`, files in `files`).
 */
export interface UploadForm {
  /** The names file parts may have; the first is the one messages give. */
  fileFields: readonly string[];
  /** The text payload's field, held to the payload's bound (every other field: 64 KiB). */
  payloadField: string;
  /**
   * Whether this request may store files, asked when each file part begins, before any of its
   * bytes are read or stored: an error refuses the whole form, and nothing of it is kept. It sees
   * the fields that came before the file part in `req.body` (a form's CSRF token, sent first), and
   * what the earlier steps put on `res.locals` (the caller).
   */
  admitFiles(req: Request, res: Response): Error | undefined;
  /** What the files are attached to, as the count limit's message words it (default `push`). */
  filesPer?: string;
  /** Non-file fields this form may have (default FORM_LIMITS.fields). */
  maxFields?: number;
}

const KIB = 1024;
const MIB = 1024 * KIB;
const GIB = 1024 * MIB;

/** A size as the limits are worded: `1 GiB`, `5 MiB`, `64 KiB`, `100 bytes`. */
export const fmtBytes = (n: number) =>
  n % GIB === 0
    ? `${n / GIB} GiB`
    : n % MIB === 0
      ? `${n / MIB} MiB`
      : n % KIB === 0
        ? `${n / KIB} KiB`
        : `${n} bytes`;

/**
 * Bounds of a multipart create's non-file fields, so that what a form can make the service hold
 * is about what a JSON body can (MAX_BODY_BYTES), whoever sends it (anonymous callers included).
 */
export const FORM_LIMITS = {
  /** `push[payload]`: the text payload's limit (code points), each at most 4 bytes of UTF-8. */
  payloadBytes: 4 * MAX_TEXT_PAYLOAD,
  /** Any other field: name, note and passphrase are at most 1024 characters, the rest are words. */
  fieldBytes: 64 * KIB,
  /** All fields together: what a JSON or urlencoded create body may carry. */
  totalFieldBytes: MAX_BODY_BYTES,
  /** Non-file fields (a create has 11). */
  fields: 20,
  /** Field names (`push[expire_after_duration]` is the longest), their nesting and array indexes. */
  nameLength: 100,
  nestingDepth: 4,
  arrayIndex: 20,
};

/** Part headers, boundaries and parts the parser skips: room on top of the files and fields. */
export const FORM_OVERHEAD_BYTES = MIB;

/** The whole body of a form within these limits: files, fields and the form's own bytes. */
export const maxFormBytes = (limits: UploadLimits): number =>
  limits.maxTotalBytes + FORM_LIMITS.totalFieldBytes + FORM_OVERHEAD_BYTES;
