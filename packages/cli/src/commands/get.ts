import type { RetrievedPush } from '@secret-push/client';
import { one, parse } from '../args.ts';
import { EXIT } from '../errors.ts';
import { type Command, json, readSecretFile } from '../io.ts';
import { parsePushRef } from '../links.ts';
import { humanSize } from '../output.ts';
import { saveFiles } from '../save-files.ts';
import { clientForRef, settings } from '../settings.ts';

/** `secret-push get LINK|TOKEN`: prints the secret (uses a view); `--out DIR` saves the files. */
export const get: Command = async (io, args) => {
  const { values, positionals } = parse(args, {
    out: { type: 'string', short: 'o' },
    'passphrase-file': { type: 'string' },
  });
  const ref = parsePushRef(one(positionals, 'a push link or token'));
  const s = await settings(io, values);
  const client = clientForRef(io, s, ref);
  const passphrase =
    values['passphrase-file'] === undefined
      ? undefined
      : await readSecretFile(io, values['passphrase-file'], 'passphrase');
  const got: RetrievedPush = await client.retrieve(
    ref.urlToken,
    passphrase === undefined ? {} : { passphrase },
  );

  const saved =
    values.out !== undefined && got.files.length > 0
      ? await saveFiles(io, client, got.files, values.out)
      : [];

  if (values.json) {
    json(io, values.out !== undefined ? { ...got, saved } : got);
    return EXIT.ok;
  }
  if (got.payload !== null && got.payload !== undefined && (got.payload !== '' || got.files.length === 0)) {
    io.stdout.write(`${got.payload}\n`);
  }
  if (got.files.length > 0) {
    if (values.out !== undefined) {
      for (const path of saved) io.stderr.write(`Saved ${path}\n`);
    } else {
      io.stderr.write(
        `${got.files.length} file(s), not downloaded (use --out DIR): ${got.files
          .map((f) => `${f.filename} (${humanSize(f.size)})`)
          .join(', ')}\n`,
      );
    }
  }
  if (got.views_remaining === 0 || got.expired) io.stderr.write('That was the last view.\n');
  return EXIT.ok;
};
