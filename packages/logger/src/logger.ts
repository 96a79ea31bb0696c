import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Fields that may carry secrets. pino removes them wherever they appear one or two levels deep;
 * request logs never include headers or query strings in the first place (see http-logger.ts).
 */
export const REDACT_PATHS = [
  'payload',
  'passphrase',
  'note',
  'password',
  'authorization',
  'cookie',
  'token',
  'access_token',
  'client_secret',
  'secret',
  '*.payload',
  '*.passphrase',
  '*.note',
  '*.password',
  '*.authorization',
  '*.cookie',
  '*.token',
  '*.access_token',
  '*.client_secret',
  '*.secret',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["x-passphrase"]',
  '*.headers["x-user-token"]',
];

export function createLogger(
  options: { name: string; level: string },
  destination?: DestinationStream,
): Logger {
  return pino(
    {
      name: options.name,
      level: options.level,
      redact: { paths: REDACT_PATHS, remove: true },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}
