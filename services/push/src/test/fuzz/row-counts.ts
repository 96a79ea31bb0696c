import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { type Kysely, sql } from 'kysely';
import type { LocalS3 } from '@secret-push/testing';

/*
 * What a refused request must leave unchanged, as one snapshot: the row counts of the push
 * database (push, audit_entry, push_file, upload_intent, file_download, push_email,
 * push_email_batch, webhook_endpoint, webhook_delivery; request, request_audit_entry, request_file,
 * request_answer_code, with requests by state, attachment downloads and code attempts), two counters of the
 * push rows (views used, pushes expired: a refusal must not spend a view or expire a push, even
 * without an audit entry), the auth database's token rows (all, and consumed ones), and the
 * bucket's object count. Each part is taken only when asked (one statement per database, about
 * a millisecond each, and the bucket's count). A key missing from either snapshot is not compared.
 */

export interface Snapshot {
  push?: number;
  audit_entry?: number;
  push_file?: number;
  upload_intent?: number;
  file_download?: number;
  push_email?: number;
  push_email_batch?: number;
  views_used?: number;
  pushes_expired?: number;
  webhook_endpoint?: number;
  webhook_delivery?: number;
  /** Requests (issue 28): rows, by state, their audit entries, attachments and downloads, answer codes. */
  request?: number;
  request_open?: number;
  request_answered?: number;
  request_closed?: number;
  request_audit_entry?: number;
  request_file?: number;
  request_file_downloads?: number;
  request_answer_code?: number;
  request_code_attempts?: number;
  oidc_payload?: number;
  oidc_consumed?: number;
  /** Objects in the bucket; undefined when this snapshot did not list it. */
  objects?: number;
}

export type SnapshotKey = keyof Snapshot;

/** What a snapshot covers: the push database, the auth database, the bucket. */
export interface SnapshotScope {
  push: boolean;
  auth: boolean;
  objects: boolean;
}

export interface Snapshotter {
  take(scope: SnapshotScope): Promise<Snapshot>;
  /** The bucket's object count as the S3 API lists it (the reference for `countObjects`). */
  objects(): Promise<number>;
}

// Both databases are queried through the untyped `sql` tag: the counts need no table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyKysely = Kysely<any>;

type PushCounts = Required<
  Pick<
    Snapshot,
    | 'push'
    | 'audit_entry'
    | 'push_file'
    | 'upload_intent'
    | 'file_download'
    | 'push_email'
    | 'push_email_batch'
    | 'views_used'
    | 'pushes_expired'
    | 'webhook_endpoint'
    | 'webhook_delivery'
    | 'request'
    | 'request_open'
    | 'request_answered'
    | 'request_closed'
    | 'request_audit_entry'
    | 'request_file'
    | 'request_file_downloads'
    | 'request_answer_code'
    | 'request_code_attempts'
  >
>;
type AuthCounts = Required<Pick<Snapshot, 'oidc_payload' | 'oidc_consumed'>>;

/**
 * The bucket's object count from the s3rver's folder: one `<key>._S3rver_object` file per object
 * (multipart uploads in progress live elsewhere). About a millisecond, where a ListObjectsV2 call
 * to the s3rver costs 5 to 20; the suite checks that both agree before and after each endpoint.
 */
export function folderObjectCounter(directory: string, bucket: string): () => Promise<number> {
  const root = join(directory, bucket);
  return async () => {
    const entries = await readdir(root, { recursive: true });
    return entries.filter((e) => e.endsWith('._S3rver_object')).length;
  };
}

export function snapshotter(
  pushDb: AnyKysely,
  authDb: AnyKysely,
  s3: LocalS3,
  countObjects: () => Promise<number>,
): Snapshotter {
  const objects = async (): Promise<number> => {
    let count = 0;
    let token: string | undefined;
    do {
      const out = await s3.client.send(
        new ListObjectsV2Command({ Bucket: s3.bucket, ContinuationToken: token, MaxKeys: 1000 }),
      );
      count += out.KeyCount ?? 0;
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
    return count;
  };
  const pushCounts = async (): Promise<PushCounts> =>
    (
      await sql<PushCounts>`
        select (select count(*) from push)::int as push,
               (select count(*) from audit_entry)::int as audit_entry,
               (select count(*) from push_file)::int as push_file,
               (select count(*) from upload_intent)::int as upload_intent,
               (select count(*) from file_download)::int as file_download,
               (select count(*) from push_email)::int as push_email,
               (select count(*) from push_email_batch)::int as push_email_batch,
               (select coalesce(sum(views), 0) from push)::int as views_used,
               (select count(*) from push where expired)::int as pushes_expired,
               (select count(*) from webhook_endpoint)::int as webhook_endpoint,
               (select count(*) from webhook_delivery)::int as webhook_delivery,
               (select count(*) from request)::int as request,
               (select count(*) from request where state = 'open')::int as request_open,
               (select count(*) from request where state = 'answered')::int as request_answered,
               (select count(*) from request where state = 'closed')::int as request_closed,
               (select count(*) from request_audit_entry)::int as request_audit_entry,
               (select count(*) from request_file)::int as request_file,
               (select coalesce(sum(downloads), 0) from request_file)::int as request_file_downloads,
               (select count(*) from request_answer_code)::int as request_answer_code,
               (select coalesce(sum(attempts), 0) from request_answer_code)::int as request_code_attempts`.execute(
        pushDb,
      )
    ).rows[0]!;
  const authCounts = async (): Promise<AuthCounts> =>
    (
      await sql<AuthCounts>`
        select count(*)::int as oidc_payload,
               (count(*) filter (where consumed_at is not null))::int as oidc_consumed
          from oidc_payload`.execute(authDb)
    ).rows[0]!;
  const take = async (scope: SnapshotScope): Promise<Snapshot> => {
    const [p, a, o] = await Promise.all([
      scope.push ? pushCounts() : undefined,
      scope.auth ? authCounts() : undefined,
      scope.objects ? countObjects() : undefined,
    ]);
    return { ...p, ...a, objects: o };
  };
  return { take, objects };
}

/** The keys whose values differ (`objects` only when both snapshots listed the bucket). */
export function changedKeys(before: Snapshot, after: Snapshot): SnapshotKey[] {
  return (Object.keys(before) as SnapshotKey[]).filter(
    (k) => before[k] !== undefined && after[k] !== undefined && before[k] !== after[k],
  );
}

/** `audit_entry +1, push_file -2`: the differences, for reports. */
export function describeChange(before: Snapshot, after: Snapshot): string {
  return changedKeys(before, after)
    .map((k) => {
      const d = after[k]! - before[k]!;
      return `${k} ${d > 0 ? '+' : ''}${d}`;
    })
    .join(', ');
}
