import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import { CHUNK_BYTES, FileIntegrityError, decryptStream, encryptStream, encryptedSize } from './file-cipher';

const key = randomBytes(32);

/** Feeds `data` in pieces of `piece` bytes, as a socket would. */
const source = (data: Buffer, piece = 7919) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += piece) yield data.subarray(i, i + piece);
    })(),
  );

async function roundTrip(data: Buffer, fileId = 'f1') {
  const sealed = await buffer(source(data).pipe(encryptStream(key, fileId)));
  return { sealed, opened: await buffer(source(sealed, 5003).pipe(decryptStream(key, fileId))) };
}

const decrypt = (sealed: Buffer, fileId = 'f1') =>
  pipeline(source(sealed), decryptStream(key, fileId), async function* (s) {
    for await (const _ of s) yield _;
  });

describe('file cipher', () => {
  it.each([0, 1, CHUNK_BYTES - 1, CHUNK_BYTES, CHUNK_BYTES + 1, 3 * CHUNK_BYTES, 1_000_003])(
    'round-trips %i bytes, with the announced stored size',
    async (n) => {
      const data = randomBytes(n);
      const { sealed, opened } = await roundTrip(data);
      expect(sealed.length).toBe(encryptedSize(n));
      expect(opened.equals(data)).toBe(true);
      // No 32-byte run of the plaintext survives (shorter runs could occur in random bytes by chance).
      if (n >= 32) expect(sealed.includes(data.subarray(0, 32))).toBe(false);
    },
  );

  it('gives the same bytes however the input is split (chunks and tags spanning many reads)', async () => {
    const data = randomBytes(2 * CHUNK_BYTES + 20);
    const sealed = await buffer(source(data, 7).pipe(encryptStream(key, 'f1')));
    expect(sealed.equals(await buffer(source(data, 3 * CHUNK_BYTES).pipe(encryptStream(key, 'f1'))))).toBe(
      true,
    );
    const opened = await buffer(source(sealed, 7).pipe(decryptStream(key, 'f1')));
    expect(opened.equals(data)).toBe(true);
  });

  it('refuses a file cut at a chunk boundary, a flipped bit, swapped chunks, and another file id', async () => {
    const data = randomBytes(3 * CHUNK_BYTES + 10);
    const { sealed } = await roundTrip(data);
    const record = CHUNK_BYTES + 16;
    const truncated = sealed.subarray(0, 2 * record);
    await expect(decrypt(truncated)).rejects.toBeInstanceOf(FileIntegrityError);
    const flipped = Buffer.from(sealed);
    flipped[100]! ^= 1;
    await expect(decrypt(flipped)).rejects.toBeInstanceOf(FileIntegrityError);
    const swapped = Buffer.concat([
      sealed.subarray(record, 2 * record),
      sealed.subarray(0, record),
      sealed.subarray(2 * record),
    ]);
    await expect(decrypt(swapped)).rejects.toBeInstanceOf(FileIntegrityError);
    await expect(decrypt(sealed, 'f2')).rejects.toBeInstanceOf(FileIntegrityError);
    await expect(decrypt(Buffer.alloc(0))).rejects.toBeInstanceOf(FileIntegrityError);
  });

  it('encrypts the same content differently under two file keys', async () => {
    const data = Buffer.from('same content');
    const a = await buffer(source(data).pipe(encryptStream(randomBytes(32), 'f')));
    const b = await buffer(source(data).pipe(encryptStream(randomBytes(32), 'f')));
    expect(createHash('sha256').update(a).digest('hex')).not.toBe(
      createHash('sha256').update(b).digest('hex'),
    );
  });
});
