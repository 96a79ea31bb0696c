import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { freePort } from './free-port';

export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** An SDK client for an s3rver at `endpoint` (path style; checksums only where required). */
export function s3rverClient(endpoint: string): S3Client {
  return new S3Client({
    endpoint,
    region: 'us-east-1',
    credentials: S3RVER_CREDENTIALS,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** The PUSH_S3_* variables that point a push service at this server. */
  env: Record<string, string>;
  /** Keys of the objects in the bucket (to check that nothing was left behind). */
  listKeys(prefix?: string): Promise<string[]>;
  client: S3Client;
  /** Stops the server; `start()` brings it back on the same port with the same data. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its folder (unless the folder was given). */
  close(): Promise<void>;
}

/**
 * An S3-compatible server (s3rver) on 127.0.0.1 with one bucket, storing into `directory` (a new
 * temporary folder by default). Tests get a private one each, so stopping it affects nobody else;
 * `make up` runs one with a persistent folder.
 */
export async function startS3(
  options: { directory?: string; port?: number; bucket?: string; silent?: boolean } = {},
): Promise<LocalS3> {
  const directory = options.directory ?? mkdtempSync(join(tmpdir(), 'sptest-s3-'));
  const port = options.port ?? (await freePort());
  const bucket = options.bucket ?? 'secret-push';
  let server: S3rver | undefined;
  const start = async () => {
    server = new S3rver({
      address: '127.0.0.1',
      port,
      directory,
      silent: options.silent ?? true,
      configureBuckets: [{ name: bucket, configs: [] }],
    });
    await server.run();
  };
  const stop = async () => {
    await server?.close();
    server = undefined;
  };
  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = s3rverClient(endpoint);
  return {
    endpoint,
    bucket,
    client,
    env: {
      PUSH_S3_ENDPOINT: endpoint,
      PUSH_S3_REGION: 'us-east-1',
      PUSH_S3_BUCKET: bucket,
      PUSH_S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      PUSH_S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      PUSH_S3_FORCE_PATH_STYLE: 'true',
    },
    async listKeys(prefix) {
      const out = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      return (out.Contents ?? []).map((o) => o.Key!);
    },
    start,
    stop,
    async close() {
      await stop();
      client.destroy();
      if (!options.directory) rmSync(directory, { recursive: true, force: true });
    },
  };
}
