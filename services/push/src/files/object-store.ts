import type { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  NoSuchKey,
  S3Client,
} from '@aws-sdk/client-s3';
import { StandardRetryStrategy } from '@smithy/core/retry';
import type { S3Config } from '../config';
import { DependencyDown } from '../domain/errors';
import type { ObjectStore } from '../domain/ports/object-store';
import { uploadInParts } from './part-uploader';

/**
 * Whether a request failed on a deadline (connection, request or idle timeout). The SDK's HTTP
 * handler also names a connection reset or broken pipe `TimeoutError` (to make them retryable):
 * those are not deadlines, and are retried.
 */
function isOurDeadline(err: unknown): boolean {
  const e = err as { name?: string; code?: string } | undefined;
  return e?.name === 'TimeoutError' && e.code !== 'ECONNRESET' && e.code !== 'EPIPE';
}

/**
 * The SDK's standard retries (one retry here), except after a timeout: a store that did not answer
 * within our deadline is not asked again inside the same request, which would double the deadline
 * (a frozen store answered a download after twice the request timeout). A connection that a store
 * closed under a reused keep-alive socket, or a 5xx, is still retried once at once.
 */
class NoRetryAfterTimeout extends StandardRetryStrategy {
  override refreshRetryTokenForRetry(
    ...[token, info]: Parameters<StandardRetryStrategy['refreshRetryTokenForRetry']>
  ): ReturnType<StandardRetryStrategy['refreshRetryTokenForRetry']> {
    // The retry middleware then fails the request with the error it has (the timeout).
    if (isOurDeadline(info.error)) return Promise.reject(new Error('no retry after a deadline'));
    return super.refreshRetryTokenForRetry(token, info);
  }
}

/** A store error that is ours to report as 503: the store is down, unreachable or failing. */
function unavailable(err: unknown): DependencyDown {
  return new DependencyDown('object store', { cause: err });
}

export function createS3ObjectStore(config: S3Config): ObjectStore {
  const client = new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    // A copy: the SDK annotates the credentials object, and config objects are frozen.
    credentials: config.credentials && { ...config.credentials },
    forcePathStyle: config.forcePathStyle,
    // WHEN_SUPPORTED makes the SDK frame streamed bodies as aws-chunked, which third-party stores
    // may store verbatim (silent corruption); WHEN_REQUIRED is right for them and for AWS.
    requestChecksumCalculation: config.checksums === 'when_supported' ? 'WHEN_SUPPORTED' : 'WHEN_REQUIRED',
    responseChecksumValidation: config.checksums === 'when_supported' ? 'WHEN_SUPPORTED' : 'WHEN_REQUIRED',
    retryStrategy: new NoRetryAfterTimeout(2),
    // The options of the SDK's NodeHttpHandler (given as options: @smithy/node-http-handler is
    // not a dependency of ours). Deadlines enforced on our side, for a store that is down, frozen
    // or partitioned:
    // - connectionTimeout: the TCP (and TLS) connection;
    // - requestTimeout (+ throwOnRequestTimeout, else it only logs): from sending the request to
    //   the response's headers, the request body included (one multipart part, not a whole file);
    // - socketTimeout: no byte in either direction for that long, also while a response body
    //   streams. A download's body (GetObject) is read at the recipient's pace, for as long as it
    //   takes: only an idle socket ends it, never its total duration.
    requestHandler: {
      connectionTimeout: config.connectTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      throwOnRequestTimeout: true,
      socketTimeout: config.requestTimeoutMs,
    },
  });
  const Bucket = config.bucket;

  return {
    upload(key, body) {
      const upload = uploadInParts(client, body, {
        Bucket,
        Key: key,
        ContentType: 'application/octet-stream',
        partSize: config.partSize,
        queueSize: config.queueSize,
        checksums: config.checksums === 'when_supported',
      });
      return {
        done: upload.done.catch((err: unknown) => {
          throw unavailable(err);
        }),
        abort: () => upload.abort(),
      };
    },

    async download(key) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return out.Body as Readable;
      } catch (err) {
        if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return undefined;
        throw unavailable(err);
      }
    },

    async delete(keys) {
      for (let i = 0; i < keys.length; i += 1000) {
        const batch = keys.slice(i, i + 1000);
        try {
          const out = await client.send(
            new DeleteObjectsCommand({
              Bucket,
              Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
            }),
          );
          const failed = (out.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
          if (failed.length > 0) {
            throw new Error(`could not delete ${failed.length} objects: ${failed[0]?.Code}`);
          }
        } catch (err) {
          throw unavailable(err);
        }
      }
    },

    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (err) {
        throw unavailable(err);
      }
    },

    close: () => client.destroy(),
  };
}
