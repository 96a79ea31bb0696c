import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { AuditContext } from '../domain/push';
import type { DownloadLinkSigner } from '../security/download-link';
import { decryptStream } from '../security/file-cipher';
import type { KeyRing } from '../security/key-ring';
import type { PushDatabase } from '../storage/database';
import * as fileRepo from '../storage/file.repository';
import { recordCappedAudit } from '../storage/push.repository';
import type { ObjectStore } from './object-store';

export interface FileServiceDeps {
  db: Kysely<PushDatabase>;
  keyRing: KeyRing;
  store: ObjectStore;
  signer: DownloadLinkSigner;
  publicUrl: string;
  graceSeconds: number;
  downloadsPerView: number;
  maxAuditEntries: number;
}

/** An upload about to be streamed: where it goes and the key that encrypts it. */
export interface PreparedUpload {
  fileId: string;
  objectKey: string;
  key: Buffer;
}

/** A file stored in the object store, not yet committed with its push. */
export interface StoredUpload {
  fileId: string;
  objectKey: string;
  filename: string;
  contentType: string;
  size: number;
  key: Buffer;
}

export interface FileLink {
  filename: string;
  content_type: string;
  size: number;
  url: string;
}

export interface OpenedDownload {
  filename: string;
  contentType: string;
  size: number;
  body: Readable;
}

const fileKeyAad = (fileId: string) => `${fileId}|file_key`;
const filenameAad = (fileId: string) => `${fileId}|filename`;

/** A file name as stored and served: no directories, no control characters, at most 255 characters. */
export function safeFilename(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const clean = base.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim();
  const name = clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
  return [...name].slice(0, 255).join('');
}

/** A declared content type kept only if it is a plain `type/subtype`; otherwise octet-stream. */
export function safeContentType(raw: string | undefined): string {
  const t = (raw ?? '').toLowerCase().split(';')[0]!.trim();
  return /^[a-z0-9][\w.+-]*\/[a-z0-9][\w.+-]*$/.test(t) && t.length <= 127 ? t : 'application/octet-stream';
}

/**
 * Files of file pushes (DESIGN §6): uploads streamed encrypted into the object store with an
 * intent recorded first, signed download links bound to a counted view, counted downloads, and
 * purges. Objects are named by random ids only; names and keys are sealed in the database.
 */
export function createFileService(deps: FileServiceDeps) {
  const { db, keyRing, store } = deps;

  return {
    /** Records the upload intent, then hands out where and how to store the file. */
    async prepareUpload(pushId: string): Promise<PreparedUpload> {
      const fileId = randomUUID();
      const objectKey = `files/${pushId}/${fileId}`;
      await fileRepo.insertUploadIntent(db, objectKey, pushId);
      return { fileId, objectKey, key: randomBytes(32) };
    },

    /** The rows of the push's files, sealed under the push's key id. */
    fileRows(uploads: StoredUpload[], keyId: string): fileRepo.NewFileRow[] {
      return uploads.map((u, position) => ({
        id: u.fileId,
        position,
        object_key: u.objectKey,
        filename_sealed: keyRing.seal(u.filename, filenameAad(u.fileId), keyId),
        content_type: u.contentType,
        size: u.size,
        key_sealed: keyRing.seal(u.key.toString('base64'), fileKeyAad(u.fileId), keyId),
      }));
    },

    /**
     * Removes what a failed create stored. Best effort: if the store is down now, the intents stay
     * and the sweep deletes the objects later.
     */
    async discard(objectKeys: string[]): Promise<void> {
      if (objectKeys.length === 0) return;
      try {
        await store.delete(objectKeys);
        await fileRepo.deleteUploadIntents(db, objectKeys);
      } catch {
        // left to the sweep (the intents remain)
      }
    },

    /** Download links for the files of a push, bound to the view that was just counted. */
    async linksForView(pushId: string, viewId: string, keyId: string, now: Date): Promise<FileLink[]> {
      const rows = await fileRepo.listFiles(db, pushId);
      const expires = Math.floor(now.getTime() / 1000) + deps.graceSeconds;
      return rows.map((r) => ({
        filename: keyRing.open({ keyId, data: r.filename_sealed }, filenameAad(r.id)),
        content_type: r.content_type,
        size: Number(r.size),
        url: `${deps.publicUrl}/api/v2/files/${r.id}?${deps.signer.sign({ pushId, fileId: r.id, viewId, expires })}`,
      }));
    },

    /**
     * One download through a link: verified, counted (at most `downloadsPerView` per view and
     * file), audited `file_download`, then streamed and decrypted from the store. Undefined for
     * any link that is not good now; the caller does not learn why.
     */
    async openDownload(
      fileId: string,
      query: Record<string, unknown>,
      ctx: AuditContext,
    ): Promise<OpenedDownload | undefined> {
      const claim = deps.signer.verify(fileId, query);
      if (!claim) return undefined;
      const grant = await fileRepo.claimDownload(db, claim, deps.downloadsPerView);
      if (!grant) return undefined;
      const body = await store.download(grant.file.object_key);
      if (!body) return undefined;
      await recordCappedAudit(db, claim.pushId, 'file_download', ctx, deps.maxAuditEntries);
      const key = Buffer.from(
        keyRing.open({ keyId: grant.keyId, data: grant.file.key_sealed }, fileKeyAad(fileId)),
        'base64',
      );
      return {
        filename: keyRing.open({ keyId: grant.keyId, data: grant.file.filename_sealed }, filenameAad(fileId)),
        contentType: grant.file.content_type,
        size: Number(grant.file.size),
        body: body.pipe(decryptStream(key, fileId)).once('error', () => body.destroy()),
      };
    },

    /** DELETE during the grace period: the files become due now; true if a purge should run. */
    releaseNow: (pushId: string) => fileRepo.purgeFilesNow(db, pushId),
  };
}

export type FileService = ReturnType<typeof createFileService>;
