import { finished, pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { ZipFile } from 'yazl';
import { HttpError } from '@secret-push/http-kit';
import type { Logger } from '@secret-push/logger';
import type { FileLink } from '../domain/file-link';
import type { FileService, OpenedDownload } from '../domain/file-service';
import { auditContext } from './audit-context';

/** The path of "Download all": one zip of a push's files, under the view that showed them. */
export const ARCHIVE_PATH = '/files/archive';
/** More entries than a push can have files: refused before anything is counted. */
const MAX_ENTRIES = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The one refusal of a download link: it never says why. */
export const DOWNLOAD_GONE = 'This download link is invalid, used up or expired.';

/** One file of the archive: its id and the query of its own download link. */
interface Entry {
  fileId: string;
  query: Record<string, string>;
}

/**
 * The "Download all" link of a view's download links (domain/file-service.ts `linksForView`): the
 * view's `push`, `view` and `expires` once, then each file as `file=<id>.<sig>` (its own link's
 * signature). Nothing new is signed: the archive is exactly the links it bundles, each verified
 * and counted as if opened alone. Undefined when the links are not of one view.
 */
export function archiveLinkOf(links: readonly FileLink[]): string | undefined {
  const parsed = links.map((l) => URL.parse(l.url));
  const first = parsed[0];
  if (!first || parsed.some((u) => !u)) return undefined;
  const common = ['push', 'view', 'expires'] as const;
  const query = new URLSearchParams();
  for (const k of common) query.set(k, first.searchParams.get(k) ?? '');
  for (const url of parsed as URL[]) {
    const fileId = /\/files\/([^/]+)$/.exec(url.pathname)?.[1];
    const sig = url.searchParams.get('sig');
    if (!fileId || !sig || common.some((k) => url.searchParams.get(k) !== query.get(k))) return undefined;
    query.append('file', `${fileId}.${sig}`);
  }
  return `${first.origin}${first.pathname.replace(/\/files\/[^/]+$/, ARCHIVE_PATH)}?${query.toString()}`;
}

/** The entries of an archive link's query; undefined for a malformed one. */
function entriesOf(query: Request['query']): Entry[] | undefined {
  const { push, view, expires } = query;
  const files: unknown[] = Array.isArray(query.file) ? query.file : [query.file];
  if (typeof push !== 'string' || typeof view !== 'string' || typeof expires !== 'string') return undefined;
  if (files.length === 0 || files.length > MAX_ENTRIES) return undefined;
  const entries: Entry[] = [];
  for (const f of files) {
    if (typeof f !== 'string') return undefined;
    const dot = f.indexOf('.');
    const fileId = f.slice(0, dot);
    if (dot < 0 || !UUID.test(fileId) || entries.some((e) => e.fileId === fileId)) return undefined;
    entries.push({ fileId, query: { push, view, expires, sig: f.slice(dot + 1) } });
  }
  return entries;
}

/** Names inside the zip are unique: a second "a.txt" becomes "a (2).txt". */
function uniqueNames(): (name: string) => string {
  const used = new Set<string>();
  return (name) => {
    let candidate = name;
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
    used.add(candidate.toLowerCase());
    return candidate;
  };
}

/**
 * `GET /api/v2/files/archive?push=…&view=…&expires=…&file=<id>.<sig>…`: every file of the link,
 * one after the other, as one zip streamed to the client. Each file is opened (verified, counted,
 * audited) only when its turn comes, by the same `openDownload` as its own link, so the archive
 * spends one download of each file and the same limits hold; a file whose link is not good now
 * (no downloads left) is left out. Memory stays bounded: each file streams from the object store
 * through decryption and the zip writer to the client, with back-pressure. Before the first byte
 * every refusal is the link's (404) and a store that is down a 503; after it, a failure cuts the
 * download (the zip is then incomplete, which unzip tools report).
 */
export async function sendArchive(
  deps: { files: FileService; logger: Logger },
  req: Request,
  res: Response,
): Promise<void> {
  const entries = entriesOf(req.query);
  if (!entries) throw new HttpError(404, 'not_found', DOWNLOAD_GONE);
  const ctx = auditContext(req);
  let next = 0;
  const openNext = async (): Promise<OpenedDownload | undefined> => {
    while (next < entries.length && !res.destroyed) {
      const entry = entries[next++]!;
      const opened = await deps.files.openDownload(entry.fileId, entry.query, ctx);
      if (opened) return opened;
    }
    return undefined;
  };
  let current = await openNext(); // a store that is down throws here: 503, nothing spent
  if (!current) throw new HttpError(404, 'not_found', DOWNLOAD_GONE);
  res.attachment('files.zip');
  res.set({
    'Content-Type': 'application/zip',
    'Content-Security-Policy': "sandbox; default-src 'none'",
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  });
  const zip = new ZipFile();
  const sent = pipeline(zip.outputStream, res);
  // The client went away, or the zip writer failed: the file being read stops too.
  sent.catch(() => current?.body.destroy());
  zip.once('error', (err: Error) => res.destroy(err));
  const name = uniqueNames();
  try {
    while (current) {
      const body = current.body;
      zip.addReadStream(body, name(current.filename), { size: current.size, mtime: new Date() });
      await finished(body);
      current = await openNext();
    }
    zip.end();
    await sent;
  } catch (err) {
    current?.body.destroy();
    deps.logger.warn({ err: (err as Error).message }, 'archive download interrupted');
    res.destroy();
    await sent.catch(() => undefined);
  }
}
