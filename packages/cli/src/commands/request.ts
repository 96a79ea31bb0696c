import type { RequestListState, RequestView } from '@secret-push/client';
import { one, parse } from '../args.ts';
import { AuthError, EXIT, UsageError } from '../errors.ts';
import { type Command, type Io, json } from '../io.ts';
import { parseRequestRef } from '../links.ts';
import { humanSize } from '../output.ts';
import { saveFiles } from '../save-files.ts';
import { clientFor, clientForRef, requireUrl, settings } from '../settings.ts';
import { requestCreate } from './request-create.ts';
import { requestAuditTable, requestDetails, requestTable } from './request-output.ts';

/*
 * `secret-push request create|list|show|preview|audit|close|answer`: the caller's requests
 * (`client.requests` of the SDK). Reading needs `pushes:read`, creating and closing
 * `pushes:write`; another owner's request is refused (exit 3), a missing one is not found (exit 4).
 */

const STATES: readonly RequestListState[] = ['active', 'open', 'answered', 'ready', 'closed'];

/** The client for the one request named in `positionals`, with the caller's credentials. */
async function clientOf(io: Io, values: Parameters<typeof settings>[1], positionals: string[]) {
  const ref = parseRequestRef(one(positionals, 'a request link or token'));
  const s = await settings(io, values);
  if (!s.credentials) throw new AuthError('Requests need credentials: run secret-push login');
  return { client: clientForRef(io, s, ref), token: ref.urlToken };
}

/** `list [--state active|open|answered|ready|closed]`: active (open and answered) by default. */
const list: Command = async (io, args) => {
  const { values, positionals } = parse(args, { state: { type: 'string' } });
  if (positionals.length > 0) throw new UsageError('`request list` takes no arguments (--state S)');
  const state = (values.state ?? 'active') as RequestListState;
  if (!STATES.includes(state)) throw new UsageError(`--state takes ${STATES.join(', ')}`);
  const s = await settings(io, values);
  if (!s.credentials) throw new AuthError('Listing requests needs credentials: run secret-push login');
  const requests: RequestView[] = [];
  for await (const r of clientFor(io, s, requireUrl(s)).requests.list(state)) requests.push(r);
  if (values.json) json(io, requests);
  else if (requests.length === 0) io.stderr.write(`No ${state} requests.\n`);
  else io.stdout.write(requestTable(requests));
  return EXIT.ok;
};

const show: Command = async (io, args) => {
  const { values, positionals } = parse(args, {});
  const { client, token } = await clientOf(io, values, positionals);
  const r = await client.requests.get(token);
  if (values.json) json(io, r);
  else io.stdout.write(requestDetails(r));
  return EXIT.ok;
};

const preview: Command = async (io, args) => {
  const { values, positionals } = parse(args, {});
  const { client, token } = await clientOf(io, values, positionals);
  const result = await client.requests.preview(token);
  if (values.json) json(io, result);
  else io.stdout.write(`${result.url}\n`);
  return EXIT.ok;
};

const audit: Command = async (io, args) => {
  const { values, positionals } = parse(args, {});
  const { client, token } = await clientOf(io, values, positionals);
  const entries = [];
  for await (const entry of client.requests.auditEntries(token)) entries.push(entry);
  if (values.json) json(io, entries);
  else io.stdout.write(requestAuditTable(entries));
  return EXIT.ok;
};

const close: Command = async (io, args) => {
  const { values, positionals } = parse(args, {});
  const { client, token } = await clientOf(io, values, positionals);
  const r = await client.requests.close(token);
  if (values.json) json(io, r);
  else io.stdout.write(`Closed ${r.html_url}\n`);
  return EXIT.ok;
};

/** `answer TOKEN [--out DIR]`: retrieves the answer push (uses one of its views). */
const answer: Command = async (io, args) => {
  const { values, positionals } = parse(args, { out: { type: 'string', short: 'o' } });
  const { client, token } = await clientOf(io, values, positionals);
  const got = await client.requests.answer(token);
  if (got === null) {
    io.stderr.write('Not answered yet.\n');
    return EXIT.notFound;
  }
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
  reportFiles(io, got.files, values.out, saved);
  if (got.views_remaining === 0 || got.expired) io.stderr.write('That was the last view.\n');
  return EXIT.ok;
};

/** Where the answer's files went, or (without --out) what they are. */
function reportFiles(
  io: Io,
  files: readonly { filename: string; size: number }[],
  out: string | undefined,
  saved: readonly string[],
) {
  if (files.length === 0) return;
  if (out !== undefined) for (const path of saved) io.stderr.write(`Saved ${path}\n`);
  else {
    io.stderr.write(
      `${files.length} file(s), not downloaded (use --out DIR): ${files
        .map((f) => `${f.filename} (${humanSize(f.size)})`)
        .join(', ')}\n`,
    );
  }
}

const SUBCOMMANDS = new Map<string, Command>([
  ['create', requestCreate],
  ['list', list],
  ['show', show],
  ['preview', preview],
  ['audit', audit],
  ['close', close],
  ['answer', answer],
]);

/** `secret-push request SUBCOMMAND …`. */
export const request: Command = async (io, args) => {
  const [name, ...rest] = args;
  const run = name === undefined ? undefined : SUBCOMMANDS.get(name);
  if (!run) {
    const known = [...SUBCOMMANDS.keys()].join(', ');
    throw new UsageError(
      name === undefined ? `Expected request ${known}` : `Unknown request command: ${name} (${known})`,
    );
  }
  return run(io, rest);
};
