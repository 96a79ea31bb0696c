import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { AnswerableBy, CreateRequestInput, SecretPushClient } from '@secret-push/client';
import { duration, integer, parse } from '../args.ts';
import { copyToClipboard } from '../clipboard.ts';
import { AuthError, EXIT, UsageError } from '../errors.ts';
import { type Command, type Io, chomp, json, readSecretFile, readStdin } from '../io.ts';
import { addressesOf } from '../notify-options.ts';
import { progressBar } from '../output.ts';
import { clientFor, requireUrl, settings } from '../settings.ts';

/*
 * `secret-push request create [TEXT|-]`: asks someone for a secret. TEXT is the message the
 * responder reads (stdin when missing or -); prints the responder's link, to send them.
 */

const OPTIONS = {
  name: { type: 'string' },
  note: { type: 'string' },
  days: { type: 'string' },
  duration: { type: 'string' },
  views: { type: 'string' },
  'answer-days': { type: 'string' },
  passphrase: { type: 'string' },
  'passphrase-file': { type: 'string' },
  'allow-files': { type: 'boolean' },
  'include-requestor': { type: 'boolean' },
  'answerable-by': { type: 'string' },
  email: { type: 'string', multiple: true },
  notify: { type: 'string', multiple: true },
  'notify-locale': { type: 'string' },
  'notify-owner': { type: 'boolean' },
  'retrieval-step': { type: 'boolean' },
  'deletable-by-viewer': { type: 'boolean' },
  downloads: { type: 'string' },
  attach: { type: 'string', multiple: true },
  copy: { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parse<typeof OPTIONS>>['values'];

const ANSWERABLE_BY: readonly AnswerableBy[] = ['anyone', 'users', 'emails'];

/** Who may answer, from `--answerable-by` and `--email` (addresses imply `emails`). */
function answerableOf(values: Values): Pick<CreateRequestInput, 'answerable_by' | 'answerable_emails'> {
  const by = values['answerable-by'];
  if (by !== undefined && !ANSWERABLE_BY.includes(by as AnswerableBy)) {
    throw new UsageError('--answerable-by takes anyone, users or emails');
  }
  if (values.email === undefined) {
    if (by === 'emails') throw new UsageError('--answerable-by emails needs --email ADDRESS (up to 5)');
    return by === undefined ? {} : { answerable_by: by as AnswerableBy };
  }
  if (by !== undefined && by !== 'emails') throw new UsageError(`--email goes with --answerable-by emails`);
  const emails = addressesOf(values.email);
  return { answerable_by: 'emails', answerable_emails: emails };
}

/** The request's settings from the options (the passphrase read from its file). */
async function inputOf(io: Io, client: SecretPushClient, values: Values, message: string) {
  if (values.days !== undefined && values.duration !== undefined) {
    throw new UsageError('--days and --duration exclude each other');
  }
  if (values.passphrase !== undefined && values['passphrase-file'] !== undefined) {
    throw new UsageError('--passphrase and --passphrase-file exclude each other');
  }
  const input: CreateRequestInput = { request: message, ...answerableOf(values) };
  const set = <K extends keyof CreateRequestInput>(key: K, value: CreateRequestInput[K] | undefined) => {
    if (value !== undefined) input[key] = value;
  };
  set('name', values.name);
  set('note', values.note);
  set('expire_after_days', integer('days', values.days));
  set('close_after_duration', duration(values.duration));
  set('expire_after_views', integer('views', values.views));
  set('answer_expire_after_days', integer('answer-days', values['answer-days']));
  set('attachment_downloads', integer('downloads', values.downloads));
  set('response_file_attachments', values['allow-files']);
  set('include_requestor', values['include-requestor']);
  set('notify_owner_on_answer', values['notify-owner']);
  set('retrieval_step', values['retrieval-step']);
  set('deletable_by_viewer', values['deletable-by-viewer']);
  set('passphrase', values.passphrase);
  if (values['passphrase-file'] !== undefined) {
    input.passphrase = await readSecretFile(io, values['passphrase-file'], 'passphrase');
  }
  if (values.notify !== undefined) {
    const to = addressesOf(values.notify);
    const version = await client.version();
    const requests = version.features.requests as { email_auto_dispatch?: boolean };
    if (requests.email_auto_dispatch) {
      input.notify_emails_to = to;
      set('notify_emails_to_locale', values['notify-locale']);
    } else {
      io.stderr.write(
        'Warning: this server does not send email (email_auto_dispatch is off): --notify is ignored, ' +
          'nobody is emailed; pass the link on yourself.\n',
      );
    }
  } else if (values['notify-locale'] !== undefined) {
    throw new UsageError('--notify-locale goes with --notify');
  }
  return input;
}

/** The total size of the files to attach (each must be a file). */
export async function totalSize(paths: readonly string[]): Promise<number> {
  let total = 0;
  for (const path of paths) {
    const st = await stat(path);
    if (!st.isFile()) throw new UsageError(`Not a file: ${path}`);
    total += st.size;
  }
  return total;
}

export const requestCreate: Command = async (io, args) => {
  const { values, positionals } = parse(args, OPTIONS);
  if (positionals.length > 1) throw new UsageError('request create takes one message; quote it');
  const s = await settings(io, values);
  if (!s.credentials) throw new AuthError('Creating a request needs credentials: run secret-push login');
  const client = clientFor(io, s, requireUrl(s));
  const arg = positionals[0];
  if ((arg === undefined || arg === '-') && values['passphrase-file'] === '-') {
    throw new UsageError('The message and the passphrase cannot both come from stdin');
  }
  const message = arg !== undefined && arg !== '-' ? arg : chomp(await readStdin(io, 'the message'));
  if (message.trim() === '') throw new UsageError('The message is empty');
  const input = await inputOf(io, client, values, message);

  const attach = values.attach ?? [];
  const bar = progressBar(io.stderr, !!io.stderrIsTTY, 'Uploading', await totalSize(attach));
  let made;
  try {
    made = await client.requests.create(
      attach.length === 0
        ? input
        : { ...input, files: attach.map((path) => ({ path, filename: basename(path) })) },
      { onProgress: (n) => bar.update(n), ...(attach.length > 0 && { timeoutMs: 60 * 60_000 }) },
    );
  } finally {
    bar.finish();
  }
  if (values.json) json(io, made);
  else io.stdout.write(`${made.html_url}\n`);
  if (values.copy) {
    const tool = await copyToClipboard(made.html_url, io.env);
    io.stderr.write(
      tool
        ? `The link is in the clipboard (${tool}).\n`
        : 'No clipboard here (pbcopy, clip, wl-copy, xclip or xsel): the link is only printed.\n',
    );
  }
  return EXIT.ok;
};
