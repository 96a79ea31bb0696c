import type { Request, Response } from 'express';

/** What the steps of a request put on `res.locals` (declared in src/request-context.ts). */
export type RequestContext = Express.Locals;

/** A step read what an earlier step of its chain should have put on the request, and it was not there. */
export class MissingRequestContext extends Error {
  override readonly name = 'MissingRequestContext';
  constructor(readonly key: keyof RequestContext) {
    super(
      `res.locals.${key} is not set: the step that provides it did not run before the step that ` +
        `needs it (a programming error in the route's chain of steps, not the client's)`,
    );
  }
}

/**
 * What an earlier step of this request provided under `key`. Throws {@link MissingRequestContext}
 * (a 500, logged with that message) when it is not there: a chain whose steps were reordered or
 * left out fails loudly instead of running on with an anonymous caller or an empty body.
 */
export function need<K extends keyof RequestContext>(
  res: Response,
  key: K,
): Exclude<RequestContext[K], undefined> {
  const value = (res.locals as RequestContext)[key];
  if (value === undefined) throw new MissingRequestContext(key);
  return value as Exclude<RequestContext[K], undefined>;
}

/** The response of a request (Express links the two), for code that is handed only the request. */
export function responseOf(req: Request): Response {
  if (!req.res) throw new Error('unreachable: Express links every request to its response');
  return req.res;
}
