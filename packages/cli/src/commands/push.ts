import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { CreatePushInput, OwnedPush, PushSettings, SecretPushClient } from '@secret-push/client';
import { duration, integer, parse } from '../args.ts';
import { copyToClipboard } from '../clipboard.ts';
import { EXIT, UsageError } from '../errors.ts';
import { type Command, type Io, chomp, json, readSecretFile, readStdin } from '../io.ts';
import { progressBar } from '../output.ts';
import { emailSettingsOf } from '../notify-options.ts';
import { clientFor, requireUrl, settings } from '../settings.ts';

/** `secret-push push [SECRET|-]`: creates a push (text, URL, QR or files) and prints its link. */
export const push: Command = async (io, args) => {
  const { values, positionals } = parse(args, {
    url: { type: 'boolean' },
    qr: { type: 'boolean' },
    file: { type: 'string', multiple: true },
    views: { type: 'string' },
    days: { type: 'string' },
    duration: { type: 'string' },
    'passphrase-file': { type: 'string' },
    'retrieval-step': { type: 'boolean' },
    'deletable-by-viewer': { type: 'boolean' },
    name: { type: 'string' },
    note: { type: 'string' },
    copy: { type: 'boolean' },
    notify: { type: 'string', multiple: true },
    'notify-locale': { type: 'string' },
  });
  if (positionals.length > 1) {
    throw new UsageError('push takes one secret; quote it, or better, pipe it through stdin');
  }
  if (values.url && values.qr) throw new UsageError('--url and --qr exclude each other');
  const files = values.file ?? [];
  if (files.length > 0 && (values.url || values.qr)) {
    throw new UsageError('--file cannot be used with --url or --qr');
  }
  if (values.days !== undefined && values.duration !== undefined) {
    throw new UsageError('--days and --duration exclude each other');
  }
  const s = await settings(io, values);
  const client = clientFor(io, s, requireUrl(s));

  const arg = positionals[0];
  const fromStdin = arg === '-' || (arg === undefined && files.length === 0);
  if (fromStdin && values['passphrase-file'] === '-') {
    throw new UsageError('The secret and the passphrase cannot both come from stdin');
  }
  let payload = arg !== undefined && arg !== '-' ? arg : undefined;
  if (fromStdin) payload = chomp(await readStdin(io, 'the secret'));
  if (files.length === 0 && !payload) throw new UsageError('The secret is empty');

  const pushSettings = await pushSettingsOf(io, values);
  Object.assign(pushSettings, await emailSettingsOf(io, client, values.notify, values['notify-locale']));
  const created =
    files.length > 0
      ? await createFilePush(io, client, files, pushSettings, payload)
      : await client.create({
          ...pushSettings,
          kind: values.url ? 'url' : values.qr ? 'qr' : 'text',
          payload: payload!,
        });
  if (values.json) json(io, created);
  else io.stdout.write(`${created.html_url}\n`);
  if (values.copy) {
    // The link is printed either way: a missing clipboard is a note, not a failure.
    const tool = await copyToClipboard(created.html_url, io.env);
    io.stderr.write(
      tool
        ? `The link is in the clipboard (${tool}).\n`
        : 'No clipboard here (pbcopy, clip, wl-copy, xclip or xsel): the link is only printed.\n',
    );
  }
  return EXIT.ok;
};

/** The push's settings from the options (the passphrase read from its file). */
async function pushSettingsOf(
  io: Io,
  values: {
    views?: string | undefined;
    days?: string | undefined;
    duration?: string | undefined;
    'retrieval-step'?: boolean | undefined;
    'deletable-by-viewer'?: boolean | undefined;
    name?: string | undefined;
    note?: string | undefined;
    'passphrase-file'?: string | undefined;
  },
): Promise<PushSettings> {
  const pushSettings: PushSettings = {};
  const views = integer('views', values.views);
  const days = integer('days', values.days);
  const dur = duration(values.duration);
  if (views !== undefined) pushSettings.expire_after_views = views;
  if (days !== undefined) pushSettings.expire_after_days = days;
  if (dur !== undefined) pushSettings.expire_after_duration = dur;
  if (values['retrieval-step'] !== undefined) pushSettings.retrieval_step = values['retrieval-step'];
  if (values['deletable-by-viewer'] !== undefined) {
    pushSettings.deletable_by_viewer = values['deletable-by-viewer'];
  }
  if (values.name !== undefined) pushSettings.name = values.name;
  if (values.note !== undefined) pushSettings.note = values.note;
  if (values['passphrase-file'] !== undefined) {
    pushSettings.passphrase = await readSecretFile(io, values['passphrase-file'], 'passphrase');
  }
  return pushSettings;
}

/** Uploads `files` (and the optional text) with a progress bar on a terminal. */
async function createFilePush(
  io: Io,
  client: SecretPushClient,
  files: readonly string[],
  pushSettings: PushSettings,
  payload: string | undefined,
): Promise<OwnedPush> {
  let total = 0;
  for (const path of files) {
    const st = await stat(path);
    if (!st.isFile()) throw new UsageError(`Not a file: ${path}`);
    total += st.size;
  }
  const bar = progressBar(io.stderr, !!io.stderrIsTTY, 'Uploading', total);
  const input: CreatePushInput = {
    ...pushSettings,
    files: files.map((path) => ({ path, filename: basename(path) })),
    ...(payload ? { payload } : {}),
  };
  try {
    return await client.create(input, {
      onProgress: (n) => bar.update(n),
      timeoutMs: 60 * 60_000, // an upload may be large: an hour, not the default 30 s
    });
  } finally {
    bar.finish();
  }
}
