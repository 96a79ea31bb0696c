import { readFileSync } from 'node:fs';
import { mkdir, open, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import {
  type CreatePushInput,
  type OwnedPush,
  type PushSettings,
  type RetrievedPush,
  SecretPushError,
  createClient,
  type SecretPushClient,
} from '@secret-push/client';
import { copyToClipboard } from './clipboard.ts';
import { ConfigError, type SavedConfig, configPath, loadConfig, saveConfig } from './config.ts';
import { BadLinkError, type PushRef, parsePushRef } from './links.ts';
import { auditTable, humanSize, progressBar, pushTable } from './output.ts';

/*
 * The `secret-push` command. `main` takes everything it touches (arguments, environment, stdin,
 * stdout, stderr, fetch) so that tests can run it in-process; bin/main.ts wires it to the process.
 * It never throws: it returns the exit code.
 */

export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  unavailable: 5,
} as const;

export interface Writer {
  write(chunk: string): unknown;
}

export interface Io {
  argv: readonly string[];
  env: Record<string, string | undefined>;
  stdin: AsyncIterable<Uint8Array | string>;
  stdout: Writer;
  stderr: Writer;
  /** Whether stdin is a terminal (then a hint is printed before reading it). */
  stdinIsTTY?: boolean;
  /** Whether stderr is a terminal: progress bars are drawn only then. */
  stderrIsTTY?: boolean;
  fetch?: typeof fetch;
}

class UsageError extends Error {
  override name = 'UsageError';
}
/** No credentials, or credentials refused outside the API (the token endpoint). */
class AuthError extends Error {
  override name = 'AuthError';
}

const VERSION = (() => {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
})();

const USAGE = `Usage: secret-push <command> [options]

Commands:
  push [SECRET|-]        share a secret (read from stdin when SECRET is missing or -); prints the link
    --url | --qr           the secret is a URL / a QR code payload (text by default)
    --file PATH            share a file (repeatable); a SECRET or stdin text is optional then
    --views N              views allowed           --days N     days the link lives
    --duration D           instead of --days: 15m 30m 45m 1h 6h 12h 1d…6d 1w 2w 3w 30d 60d 90d (or 0–17)
    --passphrase-file PATH the recipient must enter the passphrase in this file
    --[no-]retrieval-step  the recipient clicks before the secret shows
    --[no-]deletable-by-viewer
    --copy                 also copy the link to the clipboard (pbcopy, clip, wl-copy, xclip or xsel)
    --name TEXT  --note TEXT   labels only you see (in your lists)
  get LINK|TOKEN         print the secret (uses a view); --out DIR saves the files; --passphrase-file PATH
  preview LINK|TOKEN     print the recipient page's link (uses no view)
  expire LINK|TOKEN      expire the push now
  list active|expired    your pushes (a table; --json gives every page as one array)
  audit LINK|TOKEN       the audit log of one of your pushes
  token                  print an access token (for scripts)
  login                  save the server and your credentials:
    --client-id ID  (secret from stdin or --client-secret-file PATH)  or  --token-file PATH
  version                the versions of this client and of the server

Options of every command:
  --server URL           the push service (env SECRET_PUSH_URL, or the saved config)
  --auth-url URL         the auth service (env SECRET_PUSH_AUTH_URL); its token endpoint is URL/connect/token
  --json                 machine-readable output
  -h, --help

Environment: SECRET_PUSH_CLIENT_ID + SECRET_PUSH_CLIENT_SECRET, or SECRET_PUSH_TOKEN, override
the saved credentials. Config: $XDG_CONFIG_HOME/secret-push/config.json (~/.config/…).
Exit codes: 0 ok, 1 error, 2 usage, 3 authentication, 4 not found or expired, 5 rate limited or unavailable.
`;

const COMMON = {
  server: { type: 'string' },
  'auth-url': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

/** The indexes of `expire_after_duration` (docs/api.md). */
const DURATIONS = [
  '15m',
  '30m',
  '45m',
  '1h',
  '6h',
  '12h',
  '1d',
  '2d',
  '3d',
  '4d',
  '5d',
  '6d',
  '1w',
  '2w',
  '3w',
  '30d',
  '60d',
  '90d',
];

export async function main(io: Io): Promise<number> {
  try {
    return await run(io);
  } catch (err) {
    const { code, message } = describeError(err);
    // One line, never a stack trace.
    const hint = code === EXIT.usage ? ' (see secret-push --help)' : '';
    io.stderr.write(`secret-push: ${message.replace(/\s*\n\s*/g, ' ')}${hint}\n`);
    return code;
  }
}

/** The exit code and the one line to print for an error. */
export function describeError(err: unknown): { code: number; message: string } {
  if (err instanceof UsageError || err instanceof BadLinkError) {
    return { code: EXIT.usage, message: err.message };
  }
  if ((err as { code?: unknown } | null)?.code?.toString().startsWith('ERR_PARSE_ARGS')) {
    return { code: EXIT.usage, message: (err as Error).message };
  }
  if (err instanceof AuthError) return { code: EXIT.auth, message: err.message };
  if (err instanceof ConfigError) return { code: EXIT.error, message: err.message };
  if (err instanceof SecretPushError) {
    let message = err.error || err.message;
    if (err.fields) {
      const details = Object.entries(err.fields).map(([k, v]) => `${k} ${v.join(', ')}`);
      if (details.length > 0) message += ` (${details.join('; ')})`;
    }
    if (err.retryAfter !== undefined) message += ` Try again in ${err.retryAfter} s.`;
    if (err.requestId) message += ` [request id ${err.requestId}]`;
    return { code: exitCodeOf(err), message };
  }
  if (err instanceof TypeError && err.message === 'not a push token') {
    return { code: EXIT.usage, message: 'Not a push link or token' };
  }
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e.code === 'string' && typeof e.path === 'string') {
    return { code: EXIT.error, message: `${e.path}: ${e.code === 'ENOENT' ? 'no such file' : e.message}` };
  }
  return { code: EXIT.error, message: e instanceof Error ? e.message : String(err) };
}

function exitCodeOf(err: SecretPushError): number {
  switch (err.kind) {
    case 'unauthorized':
    case 'forbidden':
    case 'passphrase_required':
      return EXIT.auth;
    case 'not_found':
    case 'expired':
      return EXIT.notFound;
    case 'rate_limited':
    case 'unavailable':
    case 'timeout':
    case 'network':
      return EXIT.unavailable;
    case 'validation':
    case 'other':
      // The token endpoint refuses bad credentials with 400 or 401 (RFC 6749 §5.2).
      return ['invalid_client', 'unauthorized_client', 'invalid_grant'].includes(err.code)
        ? EXIT.auth
        : EXIT.error;
  }
}

function parse<O extends NonNullable<ParseArgsConfig['options']>>(args: readonly string[], options: O) {
  return parseArgs({
    args: [...args],
    options: { ...COMMON, ...options },
    allowPositionals: true,
    allowNegative: true,
    strict: true,
  });
}

async function run(io: Io): Promise<number> {
  const [command, ...rest] = io.argv;
  if (command === undefined) {
    io.stderr.write(USAGE);
    return EXIT.usage;
  }
  if (command === '-h' || command === '--help' || command === 'help') {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  if (command === '--version' || command === '-v') {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  const handler = COMMANDS[command];
  if (!handler) throw new UsageError(`Unknown command: ${command}`);
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  return handler(io, rest);
}

type Command = (io: Io, args: readonly string[]) => Promise<number>;

interface Settings {
  url: string | undefined;
  authUrl: string | undefined;
  credentials: { clientId: string; clientSecret: string } | { token: string } | undefined;
  path: string;
  saved: SavedConfig;
}

/** Flags > environment > the saved config. */
async function settings(
  io: Io,
  values: { server?: string | boolean | undefined; 'auth-url'?: string | boolean | undefined },
): Promise<Settings> {
  const path = configPath(io.env);
  const saved = await loadConfig(path);
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const url = str(values.server) ?? str(io.env.SECRET_PUSH_URL) ?? saved.url;
  const authUrl = str(values['auth-url']) ?? str(io.env.SECRET_PUSH_AUTH_URL) ?? saved.authUrl;
  const envId = str(io.env.SECRET_PUSH_CLIENT_ID);
  const envSecret = str(io.env.SECRET_PUSH_CLIENT_SECRET);
  const envToken = str(io.env.SECRET_PUSH_TOKEN);
  if ((envId === undefined) !== (envSecret === undefined)) {
    throw new UsageError('Set both SECRET_PUSH_CLIENT_ID and SECRET_PUSH_CLIENT_SECRET, or neither');
  }
  let credentials: Settings['credentials'];
  if (envToken) credentials = { token: envToken };
  else if (envId && envSecret) credentials = { clientId: envId, clientSecret: envSecret };
  else if (saved.token) credentials = { token: saved.token };
  else if (saved.clientId && saved.clientSecret) {
    credentials = { clientId: saved.clientId, clientSecret: saved.clientSecret };
  }
  for (const [name, value] of [
    ['server', url],
    ['auth URL', authUrl],
  ] as const) {
    if (value !== undefined && !/^https?:\/\/[^/]/.test(value)) {
      throw new UsageError(`The ${name} must be an http(s) URL: ${value}`);
    }
  }
  return { url, authUrl, credentials, path, saved };
}

const tokenUrl = (authUrl: string) => `${authUrl.replace(/\/+$/, '')}/connect/token`;

/** A client for `baseUrl`, with the configured credentials only when `withAuth`. */
function clientFor(io: Io, s: Settings, baseUrl: string, withAuth = true): SecretPushClient {
  let auth: Parameters<typeof createClient>[0]['auth'];
  const c = withAuth ? s.credentials : undefined;
  if (c && 'token' in c) auth = { token: c.token };
  else if (c) {
    if (!s.authUrl) {
      throw new UsageError(
        'Client credentials need the auth service: pass --auth-url URL, set SECRET_PUSH_AUTH_URL, or run secret-push login',
      );
    }
    auth = { clientId: c.clientId, clientSecret: c.clientSecret, tokenUrl: tokenUrl(s.authUrl) };
  }
  return createClient({
    baseUrl,
    ...(auth ? { auth } : {}),
    ...(io.fetch ? { fetch: io.fetch } : {}),
    userAgent: `secret-push-cli/${VERSION}`,
  });
}

function requireUrl(s: Settings): string {
  if (!s.url) {
    throw new UsageError('No server: pass --server URL, set SECRET_PUSH_URL, or run secret-push login');
  }
  return s.url;
}

/** The client for a push given by link or token: a link's own server, with credentials only on ours. */
function clientForRef(io: Io, s: Settings, ref: PushRef): SecretPushClient {
  if (!ref.baseUrl) return clientFor(io, s, requireUrl(s));
  const ours = s.url !== undefined && sameInstance(ref.baseUrl, s.url);
  return clientFor(io, s, ours ? s.url! : ref.baseUrl, ours);
}

function sameInstance(a: string, b: string): boolean {
  const norm = (u: string) => {
    const url = new URL(u);
    return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/api\/v2$/, '')}`;
  };
  try {
    return norm(a) === norm(b);
  } catch {
    return false;
  }
}

async function readStdin(io: Io, what: string): Promise<string> {
  if (io.stdinIsTTY) io.stderr.write(`Enter ${what}, then Ctrl-D:\n`);
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Removes one trailing line break (what `echo` and editors add). */
const chomp = (s: string) => s.replace(/\r?\n$/, '');

/** A secret read from a file (or stdin for `-`), without its trailing line break. */
async function readSecretFile(io: Io, path: string, what: string): Promise<string> {
  const value = chomp(path === '-' ? await readStdin(io, what) : await readFile(path, 'utf8'));
  if (value === '') {
    throw new UsageError(`The ${what} ${path === '-' ? 'from stdin' : `in ${path}`} is empty`);
  }
  return value;
}

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) {
    throw new UsageError(`--${name} needs a whole number, not ${JSON.stringify(value)}`);
  }
  return Number(value);
}

function duration(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value) && Number(value) < DURATIONS.length) return Number(value);
  const index = DURATIONS.indexOf(value.toLowerCase());
  if (index < 0) throw new UsageError(`--duration must be one of ${DURATIONS.join(' ')} (or 0–17)`);
  return index;
}

function one(positionals: string[], what: string): string {
  if (positionals.length !== 1 || !positionals[0]) throw new UsageError(`Expected ${what}`);
  return positionals[0];
}

const json = (io: Io, value: unknown) => io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

const push: Command = async (io, args) => {
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

  let created: OwnedPush;
  if (files.length > 0) {
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
      created = await client.create(input, {
        onProgress: (n) => bar.update(n),
        timeoutMs: 60 * 60_000, // an upload may be large: an hour, not the default 30 s
      });
    } finally {
      bar.finish();
    }
  } else {
    created = await client.create({
      ...pushSettings,
      kind: values.url ? 'url' : values.qr ? 'qr' : 'text',
      payload: payload!,
    });
  }
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

/** A file name from the server made safe to write in --out: no directories, no dot names. */
function safeName(name: string | undefined, index: number): string {
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

const get: Command = async (io, args) => {
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

  const saved: string[] = [];
  if (values.out !== undefined && got.files.length > 0) {
    await mkdir(values.out, { recursive: true });
    for (const [i, file] of got.files.entries()) {
      const { target, handle } = await createUnique(values.out, safeName(file.filename, i));
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
  }

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

const preview: Command = async (io, args) => {
  const { values, positionals } = parse(args, {});
  const ref = parsePushRef(one(positionals, 'a push link or token'));
  const s = await settings(io, values);
  const result = await clientForRef(io, s, ref).preview(ref.urlToken);
  if (values.json) json(io, result);
  else io.stdout.write(`${result.url}\n`);
  return EXIT.ok;
};

const expire: Command = async (io, args) => {
  const { values, positionals } = parse(args, {});
  const ref = parsePushRef(one(positionals, 'a push link or token'));
  const s = await settings(io, values);
  const result = await clientForRef(io, s, ref).expire(ref.urlToken);
  if (values.json) json(io, result);
  else io.stdout.write(`Expired ${result.html_url}\n`);
  return EXIT.ok;
};

const audit: Command = async (io, args) => {
  const { values, positionals } = parse(args, {});
  const ref = parsePushRef(one(positionals, 'a push link or token'));
  const s = await settings(io, values);
  const entries = [];
  for await (const entry of clientForRef(io, s, ref).auditEntries(ref.urlToken)) entries.push(entry);
  if (values.json) json(io, entries);
  else io.stdout.write(auditTable(entries));
  return EXIT.ok;
};

const list: Command = async (io, args) => {
  const { values, positionals } = parse(args, {});
  const which = one(positionals, '`active` or `expired`');
  if (which !== 'active' && which !== 'expired') {
    throw new UsageError('Expected `list active` or `list expired`');
  }
  const s = await settings(io, values);
  if (!s.credentials) throw new AuthError('Listing pushes needs credentials: run secret-push login');
  const client = clientFor(io, s, requireUrl(s));
  const pushes: OwnedPush[] = [];
  for await (const p of which === 'active' ? client.active() : client.expired()) pushes.push(p);
  if (values.json) json(io, pushes);
  else if (pushes.length === 0) io.stderr.write(`No ${which} pushes.\n`);
  else io.stdout.write(pushTable(pushes));
  return EXIT.ok;
};

const token: Command = async (io, args) => {
  const { values } = parse(args, {});
  const s = await settings(io, values);
  if (!s.credentials) {
    throw new AuthError('No credentials: run secret-push login, or set SECRET_PUSH_CLIENT_ID/SECRET');
  }
  // The token endpoint is on the auth service; the push server's URL is not needed for it.
  const baseUrl = s.url ?? s.authUrl;
  if (!baseUrl) throw new UsageError('No auth service: pass --auth-url URL or set SECRET_PUSH_AUTH_URL');
  const { token: accessToken, expiresAt, scope } = await clientFor(io, s, baseUrl).accessToken();
  if (values.json) {
    json(io, {
      access_token: accessToken,
      token_type: 'Bearer',
      ...(expiresAt && { expires_in: Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000)) }),
      ...(scope !== undefined && { scope }),
    });
  } else io.stdout.write(`${accessToken}\n`);
  return EXIT.ok;
};

const login: Command = async (io, args) => {
  const { values, positionals } = parse(args, {
    'client-id': { type: 'string' },
    'client-secret-file': { type: 'string' },
    'token-file': { type: 'string' },
  });
  if (positionals.length > 0) {
    throw new UsageError('login takes no arguments (secrets come from stdin or files)');
  }
  const s = await settings(io, values);
  const url = requireUrl(s);
  const config: SavedConfig = { url, ...(s.authUrl ? { authUrl: s.authUrl } : {}) };
  let who: string;
  if (values['token-file'] !== undefined) {
    if (values['client-id'] !== undefined) throw new UsageError('Give --client-id or --token-file, not both');
    config.token = await readSecretFile(io, values['token-file'], 'token');
    who = 'a static token';
  } else {
    const clientId = values['client-id'] ?? io.env.SECRET_PUSH_CLIENT_ID;
    if (!clientId) throw new UsageError('login needs --client-id ID (or --token-file PATH)');
    if (!s.authUrl) {
      throw new UsageError('login with client credentials needs --auth-url URL (or SECRET_PUSH_AUTH_URL)');
    }
    const clientSecret =
      values['client-secret-file'] !== undefined
        ? await readSecretFile(io, values['client-secret-file'], 'client secret')
        : io.env.SECRET_PUSH_CLIENT_SECRET && values['client-id'] === undefined
          ? io.env.SECRET_PUSH_CLIENT_SECRET
          : await readSecretFile(io, '-', 'client secret');
    // Checked before anything is saved: bad credentials exit 3 and leave the config as it was.
    await clientFor(io, { ...s, credentials: { clientId, clientSecret } }, url).accessToken({ fresh: true });
    Object.assign(config, { clientId, clientSecret });
    who = `client ${clientId}`;
  }
  await saveConfig(s.path, config);
  if (values.json) json(io, { url, authUrl: config.authUrl ?? null, config: s.path });
  else io.stderr.write(`Logged in to ${url} with ${who}; saved ${s.path}\n`);
  return EXIT.ok;
};

const version: Command = async (io, args) => {
  const { values } = parse(args, {});
  const s = await settings(io, values);
  // The client's version is printed first, so it shows even when the server cannot be reached.
  if (!values.json) io.stdout.write(`secret-push ${VERSION}\n`);
  const server = s.url ? await clientFor(io, s, s.url, false).version() : undefined;
  if (values.json) json(io, { cli: VERSION, ...(server ? { server: { url: s.url, ...server } } : {}) });
  else if (server) {
    io.stdout.write(`server ${server.application_version} (API ${server.api_version}) at ${s.url}\n`);
  }
  return EXIT.ok;
};

const COMMANDS: Record<string, Command> = { push, get, preview, expire, list, audit, token, login, version };
