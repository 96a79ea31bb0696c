import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

/** Express and Koa both call it: `(req, res, next)` as middleware, `(req, res)` from a Koa middleware. */
export type HttpLogger = (req: IncomingMessage, res: ServerResponse, next?: () => void) => void;

/** `/a/b?x=1` → `/a/b`: query strings may carry passphrases, tokens or signed links. */
export function pathWithoutQuery(url: string | undefined): string {
  if (!url) return '';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export interface HttpLoggerOptions {
  /** Paths never logged (probes, metrics scrapes). */
  ignorePaths?: string[];
  /** Hides path segments that are secrets themselves (a push's url_token). */
  maskPath?: (path: string) => string;
  /** Requests taking at least this long are logged at `info`. @defaultValue 1000 */
  slowMs?: number;
}

/**
 * A request id for every request (taken from a well-formed `X-Request-Id`, otherwise generated),
 * set as `req.id` for the error handler and echoed in the response; and one log line per request
 * at a level chosen by its outcome: `error` for 5xx answers and aborted requests, `info` for slow
 * ones (`slowMs`), `debug` for the rest, so production (`LOG_LEVEL=info`) pays for a log line only
 * when there is something to look at. Headers, bodies and query strings are never logged.
 */
export function createHttpLogger(logger: Logger, options: HttpLoggerOptions = {}): HttpLogger {
  const ignore = new Set(options.ignorePaths ?? []);
  const mask = options.maskPath ?? ((path: string) => path);
  const slowMs = options.slowMs ?? 1000;
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    (req as { id?: string }).id = id;
    res.setHeader('X-Request-Id', id);
    if (!ignore.has(pathWithoutQuery(req.url))) {
      const start = performance.now();
      res.once('close', () => {
        const responseTime = Math.round(performance.now() - start);
        const aborted = !res.writableFinished;
        const level = aborted || res.statusCode >= 500 ? 'error' : responseTime >= slowMs ? 'info' : 'debug';
        if (!logger.isLevelEnabled(level)) return;
        // Express rewrites req.url inside routers; originalUrl is what the client asked for.
        const url = (req as { originalUrl?: string }).originalUrl ?? req.url;
        logger[level](
          {
            req: { id, method: req.method, path: mask(pathWithoutQuery(url)), ip: req.socket.remoteAddress },
            res: { statusCode: res.statusCode },
            responseTime,
          },
          aborted ? 'request aborted' : responseTime >= slowMs ? 'slow request' : 'request completed',
        );
      });
    }
    next?.();
  };
}
