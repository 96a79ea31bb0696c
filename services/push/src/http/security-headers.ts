import type { Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';

/**
 * helmet()'s default headers do not depend on the request: they are collected once by running it
 * against a recording response, then set on every response without its chain of twelve middleware.
 */
export function securityHeaders(): RequestHandler {
  const set: [string, string | number | readonly string[]][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => void set.push([name, value]),
    removeHeader: (name: string) => void removed.push(name),
  };
  let called = false;
  helmet()({} as Request, recorder as unknown as Response, () => {
    called = true;
  });
  if (!called) throw new Error('helmet did not complete synchronously');
  return (_req, res, next) => {
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}
