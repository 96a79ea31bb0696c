import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import proxyAddr from 'proxy-addr';

/** Whether `addr`, `hop` steps away (0: the connection's peer), is a trusted proxy. */
export type TrustProxy = (addr: string, hop: number) => boolean;

const NOBODY: TrustProxy = () => false;

/** The trust test for AUTH_TRUSTED_PROXIES (validated by config.ts); empty trusts nobody. */
export function trustProxies(entries: readonly string[]): TrustProxy {
  return entries.length > 0 ? proxyAddr.compile([...entries]) : NOBODY;
}

/**
 * The client's address, as Express derives it (`proxy-addr`): the connection's peer, unless it is a
 * trusted proxy; then `X-Forwarded-For` is walked from right to left, and the first address that is
 * not a trusted proxy is the client (the leftmost entry when every hop is trusted). Entries left of
 * it were written by the client itself and are never believed.
 */
export function clientAddress(req: IncomingMessage, trust: TrustProxy): string {
  // Nothing (typed string, but undefined) once the socket is gone: '' as koa answers then.
  // Trusting nobody, proxy-addr answers the peer itself: skip parsing X-Forwarded-For for it.
  if (trust === NOBODY) return req.socket.remoteAddress ?? '';
  return proxyAddr(req, trust) || '';
}

/** The forwarding headers koa reads when `proxy` is on. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host'] as const;

/**
 * The request's client address and forwarding headers, decided once, before anything reads them:
 *
 * - `ctx.ip` (the failed-authentication throttle, the refusal log lines, oidc-provider itself) is
 *   `clientAddress()`, never koa's own derivation (which takes the leftmost, client-written entry).
 * - From a peer that is not a trusted proxy the `X-Forwarded-For/Proto/Host` headers are dropped, so
 *   that koa's `proxy` setting (on when any proxy is trusted: the scheme and host of discovery's
 *   endpoint URLs come from the proxy's `X-Forwarded-Proto/Host`) believes them from trusted peers
 *   only.
 */
export function forwardedFromTrustedProxiesOnly(trust: TrustProxy): Middleware {
  return async (ctx, next) => {
    const peer = ctx.req.socket.remoteAddress;
    if (peer === undefined || !trust(peer, 0)) {
      for (const header of FORWARDING_HEADERS) delete ctx.req.headers[header];
    }
    ctx.request.ip = clientAddress(ctx.req, trust);
    await next();
  };
}
