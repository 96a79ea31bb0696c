import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pinoHttp, { type HttpLogger } from 'pino-http';
import type { Logger } from 'pino';

export type { HttpLogger };

/** `/a/b?x=1` → `/a/b`: query strings may carry passphrases, tokens or signed links. */
export function pathWithoutQuery(url: string | undefined): string {
  if (!url) return '';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * One log line per request, with a request id (taken from a well-formed `X-Request-Id`, otherwise
 * generated) echoed in the response. Headers, bodies and query strings are never logged;
 * `maskPath` hides path segments that are secrets themselves (a push's url_token).
 */
export function createHttpLogger(
  logger: Logger,
  options: { ignorePaths?: string[]; maskPath?: (path: string) => string } = {},
): HttpLogger {
  const ignore = new Set(options.ignorePaths ?? []);
  const mask = options.maskPath ?? ((path: string) => path);
  return pinoHttp({
    logger,
    genReqId(req: IncomingMessage, res: ServerResponse) {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    autoLogging: { ignore: (req) => ignore.has(pathWithoutQuery(req.url)) },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    serializers: {
      req: (req: { id: unknown; method: string; url: string; remoteAddress?: string }) => ({
        id: req.id,
        method: req.method,
        path: mask(pathWithoutQuery(req.url)),
        ip: req.remoteAddress,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
