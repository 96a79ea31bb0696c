import type { Middleware } from 'koa';

/*
 * What one request carries from one middleware to the next (Koa's `ctx.state`), declared once for
 * every middleware of the provider's app. The sign-in pages and the account console add what their
 * own steps hand on, each in the state type of its router (interactions/pending-login.ts,
 * interactions/account/signed-in.ts).
 */

/** A client authentication the provider refused (`invalid_client`) on this request. */
export interface FailedClientAuth {
  /** Set only when the client exists: unknown ids are counted per IP only. */
  clientId: string | undefined;
}

declare module 'koa' {
  interface DefaultState {
    /** The request metrics' `route` label, set by the middleware that answers (else the provider's route). */
    route?: string;
    /** Set by provider/client-throttle.ts when the provider refused a client authentication. */
    failedClientAuth?: FailedClientAuth;
  }
}

/**
 * `state[key]`, which an earlier step of the chain provides; throws when it is missing, which means
 * that step did not run before this one (a chain put together in the wrong order, which the types
 * cannot see).
 */
export function provided<S extends object, K extends keyof S & string>(state: S, key: K): NonNullable<S[K]> {
  const value = state[key];
  if (value === undefined || value === null) {
    throw new Error(`request state "${key}" missing: the step that provides it did not run before this one`);
  }
  return value;
}

/** Labels the request metrics of the requests this chain answers (`route`). */
export function labelRoute(route: string): Middleware {
  return (ctx, next) => {
    ctx.state.route = route;
    return next();
  };
}
