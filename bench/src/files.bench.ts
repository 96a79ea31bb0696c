import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { request as httpRequest, get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { runAuthMigrations } from '@secret-push/auth';
import { createClient } from '@secret-push/client';
import { dropDatabase, withDatabase } from '@secret-push/db-kit';
import { runPushMigrations } from '@secret-push/push';
import {
  REDIS_URL,
  S3RVER_CREDENTIALS,
  deleteRedisKeys,
  freePort,
  s3rverClient,
  uniquePrefix,
} from '@secret-push/testing';
import { token } from './auth-client';
import { type Proc, PUSH_FLAGS_NOTE, startProcess } from './processes';
import { startServiceStack } from './stack';
import type { BenchResult, Figure } from './report';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MIB = 1024 * 1024;
const SIZE_MIB = Number(process.env.BENCH_FILE_MIB ?? 1024);
const PART_MIB = Number(process.env.BENCH_S3_PART_MIB ?? 8); // the push service's default PUSH_S3_PART_SIZE_MIB
const QUEUE = Number(process.env.BENCH_S3_QUEUE ?? 2);
const BUCKET = 'bench';

/** `SIZE_MIB` MiB of incompressible bytes (a random MiB repeated), hashed as they are produced. */
function source(hash?: ReturnType<typeof createHash>): Readable {
  const block = randomBytes(MIB);
  let sent = 0;
  return new Readable({
    read() {
      if (sent === SIZE_MIB) return void this.push(null);
      sent++;
      hash?.update(block);
      this.push(block);
    },
  });
}

const mibPerSecond = (ms: number) => Math.round((SIZE_MIB / (ms / 1000)) * 10) / 10;

/** Streams a multipart create (one file part) to the push API; resolves with the response. */
function multipartUpload(
  url: string,
  bearer: string,
  body: Readable,
): Promise<{ status: number; text: string }> {
  const boundary = `bench-${randomBytes(8).toString('hex')}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/api/v2/pushes`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${bearer}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'transfer-encoding': 'chunked',
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="push[files][]"; filename="big.bin"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    );
    body.on('end', () => req.end(`\r\n--${boundary}--\r\n`));
    body.pipe(req, { end: false });
  });
}

/** Downloads `url` to nowhere, returning the SHA-256 of what arrived. */
function downloadHash(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    httpGet(url, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`download answered ${res.statusCode}`));
      const hash = createHash('sha256');
      res.on('data', (c: Buffer) => hash.update(c));
      res.on('end', () => resolve(hash.digest('hex')));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * A 1 GiB file through the push service (multipart upload streamed, encrypted, into S3; download
 * streamed back, decrypted) against a direct SDK transfer of the same size to the same S3 server
 * (an s3rver in its own process, the only S3-compatible server here), with the same part size and
 * parts in flight. Also the push process's RSS growth during the transfers (target: under 64 MiB).
 */
export async function filesBenchmark(root: string): Promise<BenchResult> {
  const scratch = tmpdir();
  const free = statfsSync(scratch);
  const freeMiB = Math.floor((free.bavail * free.bsize) / MIB);
  const needMiB = SIZE_MIB * 3 + 512; // the direct object, the pushed (encrypted) object, headroom
  if (freeMiB < needMiB) {
    console.log(`files: skipped, ${freeMiB} MiB free in ${scratch}, ${needMiB} MiB needed`);
    return {
      benchmark: 'File upload and download',
      description: `Skipped: ${freeMiB} MiB free in ${scratch}, ${needMiB} MiB needed for a ${SIZE_MIB} MiB file.`,
      figures: [],
    };
  }
  const tag = randomBytes(4).toString('hex');
  const authDb = withDatabase(SERVER, `bench_fauth_${tag}`);
  const pushDb = withDatabase(SERVER, `bench_fpush_${tag}`);
  const prefix = uniquePrefix('bench');
  const directory = mkdtempSync(join(scratch, 'bench-s3-'));
  const procs: Proc[] = [];
  const start = async (script: string, env: Record<string, string>, ready: string, args: string[] = []) => {
    const p = await startProcess(join(root, script), env, ready, args);
    procs.push(p);
    return p;
  };
  try {
    await Promise.all([runAuthMigrations(authDb), runPushMigrations(pushDb)]);
    const s3Port = await freePort();
    const endpoint = `http://127.0.0.1:${s3Port}`;
    await start('packages/testing/dist/local-s3.js', {}, endpoint, [
      '--directory',
      directory,
      '--port',
      String(s3Port),
      '--bucket',
      BUCKET,
    ]);
    const s3 = s3rverClient(endpoint);

    console.log(`files: direct SDK transfer of ${SIZE_MIB} MiB`);
    let t = Date.now();
    await new Upload({
      client: s3,
      // Hashed like the pushed file, so both sides pay the same client-side work.
      params: { Bucket: BUCKET, Key: 'direct', Body: source(createHash('sha256')) },
      partSize: PART_MIB * MIB,
      queueSize: QUEUE,
    }).done();
    const directUp = Date.now() - t;
    t = Date.now();
    const got = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'direct' }));
    const directHash = createHash('sha256');
    for await (const chunk of got.Body as Readable) directHash.update(chunk as Buffer);
    const directDown = Date.now() - t;
    s3.destroy();

    const { auth, push, client } = await startServiceStack({
      authDb,
      pushDb,
      redisPrefix: prefix,
      logLevel: 'warn',
      pushEnv: {
        PUSH_S3_ENDPOINT: endpoint,
        PUSH_S3_BUCKET: BUCKET,
        PUSH_S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
        PUSH_S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
        PUSH_S3_FORCE_PATH_STYLE: 'true',
        PUSH_S3_PART_SIZE_MIB: String(PART_MIB),
        PUSH_S3_QUEUE_SIZE: String(QUEUE),
        PUSH_FILES_MAX_FILE_BYTES: String(SIZE_MIB * MIB),
        PUSH_FILES_MAX_TOTAL_BYTES: String(SIZE_MIB * MIB),
      },
      start,
    });
    const bearer = await token(auth.url, client.client_id, client.client_secret);
    // Warm the service up with a small file push, then take the resting RSS.
    const warm = await multipartUpload(push.url, bearer, Readable.from([randomBytes(1000)]));
    if (warm.status !== 201) throw new Error(`warm-up upload answered ${warm.status}: ${warm.text}`);
    const restingRss = push.rssMiB();

    console.log(`files: ${SIZE_MIB} MiB through the push service`);
    const sent = createHash('sha256');
    t = Date.now();
    const created = await multipartUpload(push.url, bearer, source(sent));
    const pushUp = Date.now() - t;
    const uploadGrowth = push.peakRssMiB() - restingRss;
    if (created.status !== 201) throw new Error(`upload answered ${created.status}: ${created.text}`);
    const urlToken = (JSON.parse(created.text) as { url_token: string }).url_token;
    // Set-up (not measured): the download link, from a retrieve through the SDK.
    const retrieved = await createClient({ baseUrl: push.url }).retrieve(urlToken);
    t = Date.now();
    const receivedHash = await downloadHash(retrieved.files[0]!.url);
    const pushDown = Date.now() - t;
    const growth = push.peakRssMiB() - restingRss;
    const intact = receivedHash === sent.digest('hex');

    const ratio = (direct: number, pushed: number) => Math.round((direct / pushed) * 100) / 100;
    const up = ratio(directUp, pushUp);
    const down = ratio(directDown, pushDown);
    const figures: Figure[] = [
      {
        name: `ceiling: direct SDK upload (${PART_MIB} MiB parts × ${QUEUE})`,
        value: mibPerSecond(directUp),
        unit: 'MiB/s',
      },
      { name: 'ceiling: direct SDK download', value: mibPerSecond(directDown), unit: 'MiB/s' },
      {
        name: `upload through the push service: ${mibPerSecond(pushUp)} MiB/s`,
        value: up,
        unit: '× direct upload',
        target: '≥ 0.7×',
        pass: up >= 0.7,
      },
      {
        name: `download through the push service: ${mibPerSecond(pushDown)} MiB/s`,
        value: down,
        unit: '× direct download',
        target: '≥ 0.7×',
        pass: down >= 0.7,
      },
      { name: 'push API RSS growth during the upload', value: uploadGrowth, unit: 'MiB' },
      {
        name: `push API RSS growth, upload and download (resting ${restingRss} MiB)`,
        value: growth,
        unit: 'MiB',
        target: '< 64 MiB',
        pass: growth < 64,
      },
      {
        name: 'downloaded file matches the upload (SHA-256)',
        value: intact ? 1 : 0,
        unit: 'yes',
        pass: intact,
      },
      { name: 'auth peak RSS', value: auth.peakRssMiB(), unit: 'MiB' },
    ];
    return {
      benchmark: 'File upload and download',
      description: `One ${SIZE_MIB} MiB file through the push service (production mode: multipart streamed, encrypted with AES-256-GCM, into S3; downloaded through its link, decrypted) against a direct SDK transfer to the same s3rver process, same part size and parts in flight, all on 127.0.0.1.${PUSH_FLAGS_NOTE}`,
      figures,
    };
  } finally {
    await Promise.allSettled(procs.reverse().map((p) => p.stop()));
    rmSync(directory, { recursive: true, force: true });
    await Promise.allSettled([
      dropDatabase(authDb),
      dropDatabase(pushDb),
      deleteRedisKeys(REDIS_URL, prefix),
    ]);
  }
}
