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
 * One upload's state: the part buffers (spare, being filled, in flight), the parts sent, and
 * whether the request that makes the object exist has gone out.
 */
class PartUpload {
  private readonly cancel = new AbortController();
  private readonly send = { abortSignal: this.cancel.signal };
  private readonly checksum: { ChecksumAlgorithm?: 'CRC32' };
  private uploadId: string | undefined;
  /**
   * The request that makes the object exist (the single PUT, or CompleteMultipartUpload) has been
   * sent. It is never aborted: a store that has the whole body may still commit the object after
   * the client gave up on the request, and the caller's deletion, coming first, would then leave it
   * behind. `abort()` waits for it instead; the caller deletes what it stored.
   */
  private committing = false;
  private readonly spare: Buffer[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly parts: CompletedPart[] = [];
  /** The part being filled: taken (a spare, else a new buffer) when data arrives for it. */
  private current: Buffer | undefined;
  private filled = 0;
  private partNumber = 0;

  constructor(
    private readonly client: S3Client,
    private readonly options: PartUploadOptions,
  ) {
    this.checksum = options.checksums ? { ChecksumAlgorithm: 'CRC32' as const } : {};
  }

  /** Stops the upload unless its object is being committed. */
  stop(): void {
    if (!this.committing) this.cancel.abort();
  }

  async run(body: Readable): Promise<void> {
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) await this.write(chunk);
      if (this.partNumber === 0) await this.putWhole();
      else await this.complete();
    } catch (err) {
      await this.discard();
      throw err;
    }
  }

  /** Copies `chunk` into the current part at once, sending each part that fills up. */
  private async write(chunk: Buffer): Promise<void> {
    const { partSize } = this.options;
    for (let offset = 0; offset < chunk.length;) {
      this.current ??= this.spare.pop() ?? Buffer.allocUnsafeSlow(partSize);
      const n = chunk.copy(this.current, this.filled, offset);
      this.filled += n;
      offset += n;
      if (this.filled === partSize) await this.sendPart();
    }
  }

  /** Starts the multipart upload on the first part. */
  private async begin(): Promise<string | undefined> {
    const { Bucket, Key, ContentType } = this.options;
    this.uploadId ??= (
      await this.client.send(
        new CreateMultipartUploadCommand({ Bucket, Key, ContentType, ...this.checksum }),
        this.send,
      )
    ).UploadId;
    return this.uploadId;
  }

  /** Sends the current part; waits while `queueSize` parts are in flight. */
  private async sendPart(): Promise<void> {
    const { Bucket, Key, partSize, queueSize } = this.options;
    if (this.partNumber === MAX_PARTS) throw new Error(`more than ${MAX_PARTS} parts of ${partSize} bytes`);
    const UploadId = await this.begin();
    const buffer = this.current!;
    this.current = undefined;
    const PartNumber = ++this.partNumber;
    const Body = buffer.subarray(0, this.filled);
    const sent = this.client
      .send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body, ...this.checksum }), this.send)
      .then((out) => {
        if (!out.ETag) throw new Error(`part ${PartNumber} came back without an ETag`);
        this.parts.push({
          PartNumber,
          ETag: out.ETag,
          ...(out.ChecksumCRC32 && { ChecksumCRC32: out.ChecksumCRC32 }),
        });
        this.spare.push(buffer); // the request is over: the buffer can take another part
      })
      .finally(() => this.inFlight.delete(sent));
    sent.catch(() => {}); // observed below, through race or allSettled
    this.inFlight.add(sent);
    if (this.inFlight.size >= queueSize) await Promise.race(this.inFlight);
    this.filled = 0;
  }

  /** A body that fits in one part: a single PUT. */
  private async putWhole(): Promise<void> {
    const { Bucket, Key, ContentType } = this.options;
    if (this.cancel.signal.aborted) throw new Error('upload aborted');
    this.committing = true;
    await this.client.send(
      new PutObjectCommand({
        Bucket,
        Key,
        ContentType,
        Body: this.current?.subarray(0, this.filled) ?? Buffer.alloc(0),
      }),
    );
  }

  /** The last part, then CompleteMultipartUpload once every part is stored. */
  private async complete(): Promise<void> {
    const { Bucket, Key } = this.options;
    if (this.filled > 0) await this.sendPart();
    await Promise.all(this.inFlight);
    this.parts.sort((a, b) => a.PartNumber! - b.PartNumber!);
    if (this.cancel.signal.aborted) throw new Error('upload aborted');
    this.committing = true;
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket,
        Key,
        UploadId: this.uploadId,
        MultipartUpload: { Parts: this.parts },
      }),
    );
  }

  /** After a failure: stops what is in flight and aborts the multipart upload. */
  private async discard(): Promise<void> {
    this.cancel.abort();
    await Promise.allSettled(this.inFlight);
    // The parts stored so far would otherwise be kept (and billed) by the store.
    if (this.uploadId) {
      const { Bucket, Key } = this.options;
      await this.client
        .send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: this.uploadId }))
        .catch(() => {});
    }
  }
}

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
  const upload = new PartUpload(client, options);
  const done = upload.run(body);
  return {
    done,
    /** Stops the upload; resolves once nothing of it is in flight (see `committing`). */
    async abort() {
      upload.stop();
      await done.catch(() => {});
    },
  };
}
