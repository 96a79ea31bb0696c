import pino, { type DestinationStream, type Logger } from 'pino';
import { ERROR_KEYS, errorsSerialized, serializeError } from './error-serializer';

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

/**
 * Every logger of the project. Errors are written by `serializeError` (type, message, code, stack,
 * `cause` and `errors`, never a driver's arguments, parameters, bodies or headers) under whichever
 * key they are logged (error-serializer.ts); then the redaction paths above apply.
 */
export function createLogger(
  options: { name: string; level: string },
  destination?: DestinationStream,
): Logger {
  return pino(
    {
      name: options.name,
      level: options.level,
      redact: { paths: REDACT_PATHS, remove: true },
      serializers: Object.fromEntries(ERROR_KEYS.map((key) => [key, serializeError])),
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }), log: errorsSerialized },
    },
    destination,
  );
}
