import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { type LocalS3, startS3 } from '@secret-push/testing';
import { uploadInParts } from './part-uploader';

const MIB = 1024 * 1024;
const PART = 5 * MIB; // S3's smallest part size
let s3: LocalS3;

beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3.close();
});

/** `data` in pieces of `piece` bytes, as a socket would deliver it; fails after `failAfter` bytes if given. */
function source(data: Buffer, piece = 100_003, failAfter?: number): Readable {
  let offset = 0;
  return new Readable({
    read() {
      if (failAfter !== undefined && offset >= failAfter) {
        return void this.destroy(new Error('client went away'));
      }
      if (offset >= data.length) return void this.push(null);
      this.push(data.subarray(offset, offset + piece));
      offset += piece;
    },
  });
}

const options = (Key: string) => ({
  Bucket: s3.bucket,
  Key,
  ContentType: 'application/octet-stream',
  partSize: PART,
  queueSize: 2,
  checksums: false,
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function stored(key: string): Promise<Buffer> {
  const out = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
  return Buffer.from(await out.Body!.transformToByteArray());
}

describe('part uploader (multipart into S3 with reused part buffers)', () => {
  it.each([0, 1, PART - 1, PART, PART + 1, 3 * PART + 7])('stores %i bytes byte for byte', async (n) => {
    const data = randomBytes(n);
    const key = `sizes/${n}`;
    await uploadInParts(s3.client, source(data), options(key)).done;
    expect(sha(await stored(key))).toBe(sha(data));
  });

  it('allocates at most queueSize + 1 part buffers, however many parts', async () => {
    const alloc = jest.spyOn(Buffer, 'allocUnsafeSlow');
    try {
      const data = randomBytes(7 * PART + 3);
      await uploadInParts(s3.client, source(data), options('reuse')).done;
      const partBuffers = alloc.mock.calls.filter(([size]) => size === PART).length;
      expect(partBuffers).toBeGreaterThan(0);
      expect(partBuffers).toBeLessThanOrEqual(3);
      expect(sha(await stored('reuse'))).toBe(sha(data));
    } finally {
      alloc.mockRestore();
    }
  });

  it('allocates part buffers on demand: none before the first byte, one for a body within a part', async () => {
    const alloc = jest.spyOn(Buffer, 'allocUnsafeSlow');
    const partBuffers = () => alloc.mock.calls.filter(([size]) => size === PART).length;
    try {
      await uploadInParts(s3.client, source(Buffer.alloc(0)), options('lazy/empty')).done;
      expect(partBuffers()).toBe(0);
      expect((await stored('lazy/empty')).length).toBe(0);

      const failing = uploadInParts(s3.client, source(randomBytes(PART), 100_003, 0), options('lazy/failed'));
      await expect(failing.done).rejects.toThrow('client went away');
      expect(partBuffers()).toBe(0);
      expect(await s3.listKeys('lazy/failed')).toEqual([]);

      const small = randomBytes(PART - 1);
      await uploadInParts(s3.client, source(small), options('lazy/small')).done;
      expect(partBuffers()).toBe(1);
      expect(sha(await stored('lazy/small'))).toBe(sha(small));
    } finally {
      alloc.mockRestore();
    }
  });

  it('leaves no object when the body fails after some parts were sent', async () => {
    const upload = uploadInParts(
      s3.client,
      source(randomBytes(4 * PART), 100_003, 2 * PART + 10),
      options('cut'),
    );
    await expect(upload.done).rejects.toThrow('client went away');
    expect(await s3.listKeys('cut')).toEqual([]);
  });

  it('stops on abort() and leaves no object', async () => {
    const body = source(randomBytes(6 * PART), 64 * 1024);
    const upload = uploadInParts(s3.client, body, options('aborted'));
    await new Promise((r) => setTimeout(r, 20));
    body.destroy();
    await upload.abort();
    await expect(upload.done).rejects.toThrow();
    expect(await s3.listKeys('aborted')).toEqual([]);
  });

  it('rejects, leaving no object, when the store is down', async () => {
    const down = await startS3();
    await down.stop();
    const upload = uploadInParts(down.client, source(randomBytes(2 * PART)), {
      ...options('down'),
      Bucket: down.bucket,
    });
    await expect(upload.done).rejects.toThrow();
    await down.start();
    expect(await down.listKeys()).toEqual([]);
    await down.close();
  });
});
