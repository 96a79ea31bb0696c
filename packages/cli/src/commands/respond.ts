import { mkdir, open } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { RespondInput, ResponderView, SecretPushClient } from '@secret-push/client';
import { parse } from '../args.ts';
import { EXIT, UsageError } from '../errors.ts';
import { type Command, type Io, chomp, json, readSecretFile, readStdin } from '../io.ts';
import { parseRequestRef } from '../links.ts';
import { progressBar } from '../output.ts';
import { safeName } from '../save-files.ts';
import { clientForRef, settings } from '../settings.ts';
import { totalSize } from './request-create.ts';
import { responderDetails } from './request-output.ts';

/*
 * `secret-push respond LINK [-] [FILE…]`: answers a request (once). The text comes from `--text`,
 * or stdin (when no file is given, or with `-`); files are uploaded with a progress bar. `--show`
 * prints the request instead (it spends nothing); `--save-attachments DIR` also downloads the
 * files the requester attached (each download counts). No credentials are needed where the
 * instance allows anonymous access; a request answerable by signed-in users needs a person's token.
 */

const OPTIONS = {
  text: { type: 'string' },
  url: { type: 'boolean' },
  qr: { type: 'boolean' },
  passphrase: { type: 'string' },
  'passphrase-file': { type: 'string' },
  email: { type: 'string' },
  code: { type: 'string' },
  show: { type: 'boolean' },
  'save-attachments': { type: 'string' },
} as const;

/** One line from stdin (the code mailed to the responder). */
async function readLine(io: Io, what: string): Promise<string> {
  if (io.stdinIsTTY) io.stderr.write(`Enter ${what}:\n`);
  let text = '';
  for await (const chunk of io.stdin) {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0]!.trim();
}

/** Downloads every attached file into `dir`, never overwriting; returns the paths written. */
async function saveAttachments(
  io: Io,
  client: SecretPushClient,
  token: string,
  view: ResponderView,
  dir: string,
) {
  await mkdir(dir, { recursive: true });
  const saved: string[] = [];
  for (const [i, file] of view.files.entries()) {
    const name = safeName(file.filename, i);
    const target = join(dir, name);
    const handle = await open(target, 'wx', 0o600);
    const bar = progressBar(io.stderr, !!io.stderrIsTTY, name, file.size);
    try {
      const download = await client.requests.downloadAttachment(token, file.id, {
        onProgress: (n) => bar.update(n),
        timeoutMs: 60 * 60_000,
      });
      await pipeline(
        Readable.fromWeb(download.body as Parameters<typeof Readable.fromWeb>[0]),
        handle.createWriteStream(),
      );
    } finally {
      bar.finish();
      await handle.close().catch(() => {});
    }
    saved.push(target);
  }
  return saved;
}

export const respond: Command = async (io, args) => {
  const { values, positionals } = parse(args, OPTIONS);
  const [link, ...rest] = positionals;
  if (link === undefined) throw new UsageError('Expected a request link');
  const ref = parseRequestRef(link);
  const client = clientForRef(io, await settings(io, values), ref);

  if (values.show || values['save-attachments'] !== undefined) {
    if (rest.length > 0 || values.text !== undefined) {
      throw new UsageError('--show and --save-attachments only read the request: no answer with them');
    }
    const view = await client.requests.view(ref.urlToken);
    const dir = values['save-attachments'];
    const saved = dir === undefined ? [] : await saveAttachments(io, client, ref.urlToken, view, dir);
    if (values.json) json(io, dir === undefined ? view : { ...view, saved });
    else {
      io.stdout.write(responderDetails(view));
      for (const path of saved) io.stderr.write(`Saved ${path}\n`);
    }
    return EXIT.ok;
  }

  const files = rest.filter((f) => f !== '-');
  if (values.url && values.qr) throw new UsageError('--url and --qr exclude each other');
  if (values.passphrase !== undefined && values['passphrase-file'] !== undefined) {
    throw new UsageError('--passphrase and --passphrase-file exclude each other');
  }
  const textFromStdin = values.text === undefined && (files.length === 0 || rest.includes('-'));
  if (values.text !== undefined && rest.includes('-')) {
    throw new UsageError('--text and - exclude each other');
  }
  const codeFromStdin = values.email !== undefined && values.code === undefined;
  if (values.code !== undefined && values.email === undefined) {
    throw new UsageError('--code goes with --email');
  }
  const stdinUsers = [textFromStdin, codeFromStdin, values['passphrase-file'] === '-'].filter(Boolean);
  if (stdinUsers.length > 1) {
    throw new UsageError(
      'Only one of the text, the code and the passphrase can come from stdin (use --text or --code)',
    );
  }

  const input: RespondInput = { kind: values.url ? 'url' : values.qr ? 'qr' : 'text' };
  if (values.passphrase !== undefined) input.passphrase = values.passphrase;
  if (values['passphrase-file'] !== undefined) {
    input.passphrase = await readSecretFile(io, values['passphrase-file'], 'passphrase');
  }
  const payload = textFromStdin ? chomp(await readStdin(io, 'your answer')) : values.text;
  if (payload !== undefined && payload !== '') input.payload = payload;
  if (input.payload === undefined && files.length === 0) throw new UsageError('The answer is empty');

  if (values.email !== undefined) {
    input.email = values.email;
    if (values.code !== undefined) input.code = values.code;
    else {
      await client.requests.requestCode(ref.urlToken, values.email);
      io.stderr.write(`A code was sent to ${values.email} if it may answer this request.\n`);
      input.code = await readLine(io, 'the code');
      if (!/^\d{6}$/.test(input.code)) throw new UsageError('The code is the 6 digits in the email');
    }
  }

  const bar = progressBar(io.stderr, !!io.stderrIsTTY, 'Uploading', await totalSize(files));
  let done;
  try {
    done = await client.requests.respond(
      ref.urlToken,
      files.length === 0
        ? input
        : { ...input, files: files.map((path) => ({ path, filename: basename(path) })) },
      { onProgress: (n) => bar.update(n), ...(files.length > 0 && { timeoutMs: 60 * 60_000 }) },
    );
  } finally {
    bar.finish();
  }
  if (values.json) json(io, done);
  else io.stdout.write(`Answered; the requester can now retrieve it.\n`);
  return EXIT.ok;
};
