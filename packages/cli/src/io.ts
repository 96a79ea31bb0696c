import { readFile } from 'node:fs/promises';
import { UsageError } from './errors.ts';

/** Where the command writes: stdout or stderr. */
export interface Writer {
  write(chunk: string): unknown;
}

/**
 * Everything the command touches (arguments, environment, stdin, stdout, stderr, fetch), so that
 * tests can run it in-process; main.ts wires it to the process.
 */
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

/** One command: its arguments after the command's name in, the exit code out. */
export type Command = (io: Io, args: readonly string[]) => Promise<number>;

/** Prints `value` as indented JSON on stdout. */
export const json = (io: Io, value: unknown) => io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

export async function readStdin(io: Io, what: string): Promise<string> {
  if (io.stdinIsTTY) io.stderr.write(`Enter ${what}, then Ctrl-D:\n`);
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Removes one trailing line break (what `echo` and editors add). */
export const chomp = (s: string) => s.replace(/\r?\n$/, '');

/** A secret read from a file (or stdin for `-`), without its trailing line break. */
export async function readSecretFile(io: Io, path: string, what: string): Promise<string> {
  const value = chomp(path === '-' ? await readStdin(io, what) : await readFile(path, 'utf8'));
  if (value === '') {
    throw new UsageError(`The ${what} ${path === '-' ? 'from stdin' : `in ${path}`} is empty`);
  }
  return value;
}
