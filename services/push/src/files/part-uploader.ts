import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  type CompletedPart,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';

export interface PartUploadOptions {
  Bucket: string;
  Key: string;
  ContentType: string;
  partSize: number;
  /** Parts in flight at once. */
  queueSize: number;
  /** The SDK computes CRC32 checksums (PUSH_S3_CHECKSUMS=when_supported): the parts' go into Complete. */
  checksums: boolean;
}

/** S3 allows at most 10,000 parts per object. */
const MAX_PARTS = 10_000;

/**
 * Streams `body` into one object: a single PUT when it fits in one part, otherwise a multipart
 * upload with at most `queueSize` parts in flight.
 *
 * Why not `@aws-sdk/lib-storage`'s `Upload` (used until the files benchmark measured it): it
 * collects a stream's chunks into a list and joins them into a new buffer per part, so every byte
 * was allocated twice and the chunks, held until their part was full, outlived the young
 * generation and were garbage only a full GC would free. That kept the push process's RSS
 * ~130 MiB above rest during a 1 GiB upload (the benchmark's target is < 64 MiB). Here the part buffers
 * (at most `queueSize` + 1 of `partSize`) are reused; each incoming chunk is copied into the current
 * part at once and dies young. They are allocated on demand: the first when the first byte arrives
 * (an upload that fails or ends before any data costs none), another only when every buffer is in
 * flight and data is waiting.
 */
export function uploadInParts(
  client: S3Client,
  body: Readable,
  options: PartUploadOptions,
): { done: Promise<void>; abort(): Promise<void> } {
  const { Bucket, Key, partSize, queueSize } = options;
  const checksum = options.checksums ? { ChecksumAlgorithm: 'CRC32' as const } : {};
  const cancel = new AbortController();
  const send = { abortSignal: cancel.signal };
  let uploadId: string | undefined;
  /**
   * The request that makes the object exist (the single PUT, or CompleteMultipartUpload) has been
   * sent. It is never aborted: a store that has the whole body may still commit the object after
   * the client gave up on the request, and the caller's deletion, coming first, would then leave it
   * behind. `abort()` waits for it instead; the caller deletes what it stored.
   */
  let committing = false;

  const run = async () => {
    const spare: Buffer[] = [];
    const inFlight = new Set<Promise<void>>();
    const parts: CompletedPart[] = [];
    /** The part being filled: taken (a spare, else a new buffer) when data arrives for it. */
    let current: Buffer | undefined;
    let filled = 0;
    let partNumber = 0;

    const sendPart = async () => {
      if (partNumber === MAX_PARTS) throw new Error(`more than ${MAX_PARTS} parts of ${partSize} bytes`);
      uploadId ??= (
        await client.send(
          new CreateMultipartUploadCommand({
            Bucket,
            Key,
            ContentType: options.ContentType,
            ...checksum,
          }),
          send,
        )
      ).UploadId;
      const buffer = current!;
      current = undefined;
      const PartNumber = ++partNumber;
      const sent = client
        .send(
          new UploadPartCommand({
            Bucket,
            Key,
            UploadId: uploadId,
            PartNumber,
            Body: buffer.subarray(0, filled),
            ...checksum,
          }),
          send,
        )
        .then((out) => {
          if (!out.ETag) throw new Error(`part ${PartNumber} came back without an ETag`);
          parts.push({
            PartNumber,
            ETag: out.ETag,
            ...(out.ChecksumCRC32 && { ChecksumCRC32: out.ChecksumCRC32 }),
          });
          spare.push(buffer); // the request is over: the buffer can take another part
        })
        .finally(() => inFlight.delete(sent));
      sent.catch(() => {}); // observed below, through race or allSettled
      inFlight.add(sent);
      if (inFlight.size >= queueSize) await Promise.race(inFlight);
      filled = 0;
    };

    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        for (let offset = 0; offset < chunk.length;) {
          current ??= spare.pop() ?? Buffer.allocUnsafeSlow(partSize);
          const n = chunk.copy(current, filled, offset);
          filled += n;
          offset += n;
          if (filled === partSize) await sendPart();
        }
      }
      if (partNumber === 0) {
        if (cancel.signal.aborted) throw new Error('upload aborted');
        committing = true;
        await client.send(
          new PutObjectCommand({
            Bucket,
            Key,
            ContentType: options.ContentType,
            Body: current?.subarray(0, filled) ?? Buffer.alloc(0),
          }),
        );
        return;
      }
      if (filled > 0) await sendPart();
      await Promise.all(inFlight);
      parts.sort((a, b) => a.PartNumber! - b.PartNumber!);
      if (cancel.signal.aborted) throw new Error('upload aborted');
      committing = true;
      await client.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (err) {
      cancel.abort();
      await Promise.allSettled(inFlight);
      // The parts stored so far would otherwise be kept (and billed) by the store.
      if (uploadId) {
        await client
          .send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: uploadId }))
          .catch(() => {});
      }
      throw err;
    }
  };

  const done = run();
  return {
    done,
    /** Stops the upload; resolves once nothing of it is in flight (see `committing`). */
    async abort() {
      if (!committing) cancel.abort();
      await done.catch(() => {});
    },
  };
}
