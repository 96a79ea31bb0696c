import { USAGE, VERSION } from './about.ts';
import { COMMANDS } from './commands/index.ts';
import { EXIT, UsageError, describeError } from './errors.ts';
import type { Io } from './io.ts';

/*
 * The `secret-push` command. `main` takes everything it touches (arguments, environment, stdin,
 * stdout, stderr, fetch: see `Io`) so that tests can run it in-process; main.ts wires it to the
 * process. It never throws: it returns the exit code.
 *
 * The layout: args.ts parses options, settings.ts resolves the server and credentials (flags >
 * environment > saved config) into a client, commands/ holds one module per command, output.ts
 * draws tables and progress bars, errors.ts maps every error to an exit code and one line.
 */

export { EXIT, describeError } from './errors.ts';
export type { Io, Writer } from './io.ts';

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
  // Own keys only: `toString` or `constructor` is no command.
  const handler = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!handler) throw new UsageError(`Unknown command: ${command}`);
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  return handler(io, rest);
}
