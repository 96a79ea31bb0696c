import { sql } from 'kysely';
import type { Visit } from '../../domain/ports/push-store';
import { type RowWithNow, snapshot } from './rows';

/** What a claim returns beside the row: the secrets as they were before a last view wiped them, and the files. */
export interface ClaimColumns {
  old_payload: Buffer | null;
  old_note: Buffer | null;
  old_passphrase_hash: string | null;
  files: FileJson[] | null;
}

/** A push_file row as json_agg renders it (bytea as `\\x…` hex text). */
interface FileJson {
  id: string;
  object_key: string;
  filename_sealed: string;
  content_type: string;
  size: string | number;
  key_sealed: string;
}

const bytea = (hex: string) => Buffer.from(hex.slice(2), 'hex');

/** A file push's files, in order, as one JSON value of the claiming statement (no second query). */
export const FILES_OF = (alias: string) => sql`(
  select coalesce(json_agg(json_build_object('id', f.id, 'object_key', f.object_key,
                                             'filename_sealed', f.filename_sealed, 'content_type', f.content_type,
                                             'size', f.size, 'key_sealed', f.key_sealed) order by f.position), '[]')
  from push_file f where f.push_id = ${sql.ref(`${alias}.id`)} and ${sql.ref(`${alias}.kind`)} = 'file')`;

export function viewed(
  row: RowWithNow & ClaimColumns,
  viewId: string,
): Extract<Visit, { outcome: 'viewed' }> {
  return {
    outcome: 'viewed',
    snapshot: snapshot(row),
    payloadSealed: row.old_payload,
    keyId: row.key_id,
    viewId,
    files: (row.files ?? []).map((f) => ({
      id: f.id,
      objectKey: f.object_key,
      filenameSealed: bytea(f.filename_sealed),
      contentType: f.content_type,
      size: Number(f.size),
      keySealed: bytea(f.key_sealed),
    })),
    before: {
      payloadSealed: row.old_payload,
      noteSealed: row.old_note,
      passphraseHash: row.old_passphrase_hash,
    },
  };
}
