import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { encryptStream } from '../security/file-cipher';
import { UploadIntentLost } from './errors';
import { createFilePurger } from './file-purger';
import type { StoredUpload } from './file-service';
import { newPushId } from './push-service';
import {
  DOWNLOADS_PER_VIEW,
  FILE_GRACE_SECONDS,
  type InMemoryDomain,
  createInMemoryDomain,
  testCtx as ctx,
  textPush,
} from '../test/support/in-memory-domain';

// File pushes over in-memory ports (FileStore, ObjectStore): uploads, links bound to a counted view,
// counted downloads, the grace period, purges and the sweep. Over PostgreSQL and s3rver:
// test/files.int.test.ts, domain/file-purger.int.test.ts.

let d: InMemoryDomain;
beforeEach(() => {
  d = createInMemoryDomain();
});

/** Stores a file as a create does: intent first, then the encrypted object. */
async function upload(pushId: string, filename: string, content: string): Promise<StoredUpload> {
  const prepared = await d.files.prepareUpload(pushId);
  const body = Readable.from([Buffer.from(content)]).pipe(encryptStream(prepared.key, prepared.fileId));
  await d.objects.upload(prepared.objectKey, body).done;
  return { ...prepared, filename, contentType: 'text/plain', size: content.length };
}

async function createFilePush(views = 1) {
  const pushId = newPushId();
  const uploads = [await upload(pushId, 'a.txt', 'alpha'), await upload(pushId, 'b.txt', 'beta')];
  const input = textPush({ kind: 'file', payload: null, expireAfterViews: views });
  return d.pushes.create(input, { owner: 'client:a', audit: ctx, files: { pushId, uploads } });
}

const download = async (url: string) => {
  const link = new URL(url);
  const fileId = link.pathname.split('/').at(-1)!;
  const opened = await d.files.openDownload(fileId, Object.fromEntries(link.searchParams), ctx);
  return opened && { ...opened, text: (await buffer(opened.body)).toString('utf8') };
};

it('gives links bound to the view; each file downloads decrypted, a counted number of times', async () => {
  const { urlToken, snapshot } = await createFilePush();
  const viewed = await d.pushes.retrieve(urlToken, undefined, ctx);
  if (viewed.outcome !== 'viewed') throw new Error('not viewed');
  expect(viewed.files.map((f) => [f.filename, f.size])).toEqual([
    ['a.txt', 5],
    ['b.txt', 4],
  ]);
  const url = viewed.files[0]!.url;
  for (let i = 0; i < DOWNLOADS_PER_VIEW; i++) {
    expect(await download(url)).toMatchObject({ filename: 'a.txt', text: 'alpha' });
  }
  expect(await download(url)).toBeUndefined();
  expect(await download(viewed.files[1]!.url)).toMatchObject({ text: 'beta' });
  expect(d.store.auditOf(snapshot.push.id).filter((e) => e.kind === 'file_download')).toHaveLength(3);
});

it('refuses a tampered link, and gives back a download the object store could not serve', async () => {
  const { urlToken } = await createFilePush();
  const viewed = await d.pushes.retrieve(urlToken, undefined, ctx);
  if (viewed.outcome !== 'viewed') throw new Error('not viewed');
  const url = viewed.files[0]!.url;
  expect(await download(url.replace(/sig=[^&]+/, 'sig=AAAA'))).toBeUndefined();
  d.objects.down = true;
  await expect(download(url)).rejects.toThrow('object store down');
  d.objects.down = false;
  for (let i = 0; i < DOWNLOADS_PER_VIEW; i++) expect(await download(url)).toBeDefined();
});

it('keeps the files for the grace period after the last view, then purges them', async () => {
  const { urlToken, snapshot } = await createFilePush();
  const viewed = await d.pushes.retrieve(urlToken, undefined, ctx);
  if (viewed.outcome !== 'viewed') throw new Error('not viewed');
  const purger = createFilePurger({ files: d.fileStore, store: d.objects });
  expect(await purger.purgeDue(10)).toEqual({ purged: 0, objects: 0 });
  d.clock.advance(FILE_GRACE_SECONDS * 1000);
  expect(await download(viewed.files[0]!.url)).toBeUndefined();
  expect(await purger.purgeDue(10)).toEqual({ purged: 1, objects: 2 });
  expect(d.objects.objects.size).toBe(0);
  expect(await d.fileStore.listFiles(snapshot.push.id)).toEqual([]);
});

it('releases the files at once when the owner deletes the push during the grace period', async () => {
  const { urlToken } = await createFilePush();
  await d.pushes.retrieve(urlToken, undefined, ctx);
  await d.pushes.expire(urlToken, { kind: 'token', id: 'client:a', scopes: new Set(['pushes:write']) }, ctx);
  expect(await createFilePurger({ files: d.fileStore, store: d.objects }).purgeDue(10)).toMatchObject({
    purged: 1,
  });
});

it('sweeps the objects of uploads no push was created for; such a create then fails', async () => {
  const pushId = newPushId();
  const left = await upload(pushId, 'left.txt', 'behind');
  d.clock.advance(3600_000);
  const purger = createFilePurger({ files: d.fileStore, store: d.objects });
  expect(await purger.sweepStaleUploads(10, 600)).toBe(1);
  expect(d.objects.objects.has(left.objectKey)).toBe(false);
  const input = textPush({ kind: 'file', payload: null });
  await expect(
    d.pushes.create(input, { owner: null, audit: ctx, files: { pushId, uploads: [left] } }),
  ).rejects.toBeInstanceOf(UploadIntentLost);
});
