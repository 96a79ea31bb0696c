import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { PushFile, SecretPushClient } from '@secret-push/client';
import type { Io } from './io.ts';
import { progressBar } from './output.ts';

/** A file name from the server made safe to write in --out: no directories, no dot names. */
export function safeName(name: string | undefined, index: number): string {
  const last = (name ?? '').split(/[/\\]/).pop() ?? '';
  const base = [...last].filter((ch) => ch >= ' ' && ch !== '\x7f').join(''); // no control characters
  return base === '' || base === '.' || base === '..' ? `file-${index + 1}` : base;
}

/**
 * Creates `dir/name`, or `name-1.ext`, `name-2.ext`, … when it exists: an existing file is never
 * overwritten, and the view already used is not wasted on a name clash.
 */
async function createUnique(dir: string, name: string) {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 0; ; n++) {
    const target = join(dir, n === 0 ? name : `${stem}-${n}${ext}`);
    try {
      return { target, handle: await open(target, 'wx', 0o600) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 1000) throw err;
    }
  }
}

/** Downloads each file of a retrieved push into `dir` (created if missing); returns the paths written. */
export async function saveFiles(
  io: Io,
  client: SecretPushClient,
  files: readonly PushFile[],
  dir: string,
): Promise<string[]> {
  const saved: string[] = [];
  await mkdir(dir, { recursive: true });
  for (const [i, file] of files.entries()) {
    const { target, handle } = await createUnique(dir, safeName(file.filename, i));
    const bar = progressBar(io.stderr, !!io.stderrIsTTY, safeName(file.filename, i), file.size);
    try {
      const download = await client.downloadNode(file, {
        onProgress: (n) => bar.update(n),
        timeoutMs: 60 * 60_000,
      });
      await pipeline(download.body, handle.createWriteStream());
    } finally {
      bar.finish();
      await handle.close().catch(() => {});
    }
    saved.push(target);
  }
  return saved;
}
