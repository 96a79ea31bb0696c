#!/usr/bin/env node
import { main } from './cli.ts';

// The `secret-push` binary: the command wired to this process.

// `secret-push list active | head -1`: a reader that goes away ends the command quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

process.exitCode = await main({
  argv: process.argv.slice(2),
  env: process.env,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  stdinIsTTY: process.stdin.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
});
