#!/usr/bin/env node
import { runCli } from './run-cli';

runCli(process.argv.slice(2), {
  env: process.env,
  stdin: process.stdin,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err: Error) => {
    process.stderr.write(`error: ${err.message}\n`);
    process.exitCode = 1;
  },
);
