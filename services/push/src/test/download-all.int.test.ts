import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { sql } from 'kysely';
import yauzl from 'yauzl';
import { type TestAuth, startAuth } from '@secret-push/auth/testing';
import { type LocalS3, startS3 } from '@secret-push/testing';
import { type TestPush, startPush } from '../testing';
import { bearer } from './support/helpers';

// "Download all" (issue 29): the recipient's files as one streamed zip, against a real
// S3-compatible server (s3rver), PostgreSQL and Redis. Each file in the archive is one counted
// download under the view, as if its own link had been opened.
jest.setTimeout(60_000);

let auth: TestAuth;
let s3: LocalS3;
let push: TestPush;
let token: string;

beforeAll(async () => {
  auth = await startAuth();
  s3 = await startS3();
  push = await startPush(auth, {
    env: {
      ...s3.env,
      PUSH_FILES_MAX_FILE_BYTES: String(4 * 1024 * 1024),
      PUSH_FILES_DOWNLOADS_PER_VIEW: '2',
    },
  });
  token = await auth.token(await auth.createClient('pushes:read pushes:write'));
});
afterAll(async () => {
  await push.stop();
  await s3.close();
  await auth.stop();
});

interface FileIn {
  name: string;
  data: Buffer;
}

async function filePush(files: FileIn[]): Promise<string> {
  const req = request(push.url).post('/api/v2/pushes').set(bearer(token));
  void req.field('push[expire_after_views]', '3');
  for (const f of files) {
    void req.attach('push[files][]', f.data, { filename: f.name, contentType: 'text/html' });
  }
  const res = await req;
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { url_token: string }).url_token;
}

/** Reveals the push on its page (a counted view), as a browser without JavaScript does. */
async function reveal(urlToken: string): Promise<string> {
  const res = await request(push.url).post(`/p/${urlToken}`).type('form').send({});
  expect(res.status).toBe(200);
  return res.text;
}

const unescape = (s: string) => s.replaceAll('&amp;', '&');
const hrefs = (page: string, pattern: RegExp) =>
  [...page.matchAll(/href="([^"]+)"/g)].map((m) => unescape(m[1]!)).filter((u) => pattern.test(u));
const archiveLinkIn = (page: string) => hrefs(page, /\/api\/v2\/files\/archive\?/)[0];

function get(url: string, accept?: string) {
  const u = new URL(url);
  const req = request(u.origin).get(u.pathname + u.search);
  if (accept) void req.set('Accept', accept);
  return req.buffer(true).parse((res, cb) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => cb(null, Buffer.concat(chunks)));
  });
}

/** The entries of a zip, by name, with yauzl (CRCs checked as it reads). */
function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err) return reject(err);
      const out = new Map<string, Buffer>();
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
          stream.on('error', reject);
        });
      });
      file.on('end', () => resolve(out));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

/** Downloads counted per file name under any view of the push. */
const downloadsOf = async (urlToken: string) =>
  (
    await sql<{ file_id: string; downloads: number }>`
      select d.file_id, d.downloads from file_download d
      join push_file f on f.id = d.file_id
      join push p on p.id = f.push_id
      where p.token_hash = sha256(convert_to(${urlToken}, 'UTF8'))
      order by f.position`.execute(push.db)
  ).rows.map((r) => r.downloads);

const FILES: FileIn[] = [
  { name: 'big.bin', data: randomBytes(1_500_000) },
  { name: 'notes.txt', data: Buffer.from('hello files\n') },
  { name: 'notes.txt', data: Buffer.from('the other notes\n') },
  { name: 'empty.dat', data: Buffer.alloc(0) },
];

describe('the recipient’s files', () => {
  it('lists names and readable sizes, no MIME types, and a "Download all" link', async () => {
    const page = await reveal(await filePush(FILES));
    expect(page).toContain('big.bin');
    expect(page).toContain('1.4 MB');
    expect(page).toContain('12 bytes');
    expect(page).toContain('0 bytes');
    expect(page).not.toContain('text/html');
    expect(page).not.toContain('octet-stream');
    expect(page).toContain('Download all (zip)');
    expect(page).toContain('4 files, 1.4 MB');
  });

  it('offers no "Download all" for a single file', async () => {
    const page = await reveal(await filePush([FILES[1]!]));
    expect(page).toContain('notes.txt');
    expect(archiveLinkIn(page)).toBeUndefined();
  });

  it('streams every file into one zip, byte for byte, spending one download of each', async () => {
    const t = await filePush(FILES);
    const link = archiveLinkIn(await reveal(t))!;
    expect(link).toBeDefined();
    const res = await get(link);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe('attachment; filename=files.zip');
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.headers['cache-control']).toBe('no-store');
    const entries = await unzip(res.body as Buffer);
    expect([...entries.keys()]).toEqual(['big.bin', 'notes.txt', 'notes (2).txt', 'empty.dat']);
    expect(entries.get('big.bin')!.equals(FILES[0]!.data)).toBe(true);
    expect(entries.get('notes.txt')!.toString()).toBe('hello files\n');
    expect(entries.get('notes (2).txt')!.toString()).toBe('the other notes\n');
    expect(entries.get('empty.dat')!.length).toBe(0);
    expect(await downloadsOf(t)).toEqual([1, 1, 1, 1]);

    // Same limits as the single links (2 per view here): one archive more, then it is used up.
    expect((await get(link)).status).toBe(200);
    expect(await downloadsOf(t)).toEqual([2, 2, 2, 2]);
    const used = await get(link, 'text/html,*/*;q=0.8');
    expect(used.status).toBe(404);
    expect(used.headers['content-type']).toMatch(/^text\/html/);
    expect(used.body.toString()).toContain('This download link is invalid, used up or expired');
    expect((await get(link)).body.toString()).toContain('"code":"not_found"');
  });

  it('leaves out a file with no downloads left', async () => {
    const t = await filePush(FILES.slice(0, 3));
    const page = await reveal(t);
    const [big] = hrefs(page, /\/api\/v2\/files\/[0-9a-f-]{36}\?/);
    expect((await get(big!)).status).toBe(200);
    expect((await get(big!)).status).toBe(200);
    const res = await get(archiveLinkIn(page)!);
    expect(res.status).toBe(200);
    expect([...(await unzip(res.body as Buffer)).keys()]).toEqual(['notes.txt', 'notes (2).txt']);
    expect(await downloadsOf(t)).toEqual([2, 1, 1]);
  });

  it('refuses a forged or altered link with the one 404, spending nothing', async () => {
    const t = await filePush(FILES.slice(1, 3));
    const link = new URL(archiveLinkIn(await reveal(t))!);
    const forged = new URL(link);
    forged.searchParams.set('expires', String(Number(link.searchParams.get('expires')) + 60));
    const wrongSig = new URL(link);
    wrongSig.searchParams.delete('file');
    for (const f of link.searchParams.getAll('file')) {
      wrongSig.searchParams.append('file', `${f.slice(0, 37)}AAAA`);
    }
    const twice = new URL(link);
    twice.searchParams.append('file', link.searchParams.getAll('file')[0]!);
    for (const bad of [forged, wrongSig, twice, new URL(`${link.origin}${link.pathname}`)]) {
      const res = await get(bad.toString());
      expect(res.status).toBe(404);
      expect(res.body.toString()).toContain('invalid, used up or expired');
    }
    expect(await downloadsOf(t)).toEqual([]);
  });

  it('answers the 503 page when the object store is down before the first byte, spending nothing', async () => {
    const t = await filePush(FILES.slice(1, 3));
    const link = archiveLinkIn(await reveal(t))!;
    await s3.stop();
    try {
      const res = await get(link, 'text/html,application/xhtml+xml,*/*;q=0.8');
      expect(res.status).toBe(503);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      expect(res.body.toString()).toContain('Temporarily unavailable');
      const api = await get(link);
      expect(api.status).toBe(503);
      expect(api.body.toString()).toContain('dependency_unavailable');
    } finally {
      await s3.start();
    }
    expect((await downloadsOf(t)).every((n) => n === 0)).toBe(true);
    const res = await get(link);
    expect(res.status).toBe(200);
    expect([...(await unzip(res.body as Buffer)).keys()]).toEqual(['notes.txt', 'notes (2).txt']);
  });
});
