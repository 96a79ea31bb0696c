import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './errors.ts';

/** The options every command takes. */
const COMMON = {
  server: { type: 'string' },
  'auth-url': { type: 'string' },
  insecure: { type: 'boolean' },
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

/** A command's arguments: its own options and the common ones, strictly (an unknown option is a usage error). */
export function parse<O extends NonNullable<ParseArgsConfig['options']>>(
  args: readonly string[],
  options: O,
) {
  return parseArgs({
    args: [...args],
    options: { ...COMMON, ...options },
    allowPositionals: true,
    allowNegative: true,
    strict: true,
  });
}

export function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) {
    throw new UsageError(`--${name} needs a whole number, not ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/** The index of a `--duration` (`1h`, or the index itself). */
export function duration(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value) && Number(value) < DURATIONS.length) return Number(value);
  const index = DURATIONS.indexOf(value.toLowerCase());
  if (index < 0) throw new UsageError(`--duration must be one of ${DURATIONS.join(' ')} (or 0–17)`);
  return index;
}

/** The one positional argument, described as `what` when it is missing or repeated. */
export function one(positionals: string[], what: string): string {
  if (positionals.length !== 1 || !positionals[0]) throw new UsageError(`Expected ${what}`);
  return positionals[0];
}
