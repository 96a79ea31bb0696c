export { createLogger, REDACT_PATHS, type Logger } from './logger';
export { createHttpLogger, pathWithoutQuery, type HttpLogger } from './http-logger';
export { serializeError, type LoggedError } from './error-serializer';
