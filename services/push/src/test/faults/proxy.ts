import { type Server, type Socket, connect, createServer } from 'node:net';

/*
 * A TCP proxy in front of one or more upstreams on 127.0.0.1: each accepted connection goes to the
 * next upstream in turn (round robin) and its bytes are piped both ways unchanged. It never
 * retries: when the upstream refuses or drops the connection, the client's connection is reset,
 * so a failure shows exactly as the client of a dead replica would see it. Which upstream served a
 * connection is remembered by the client's port, so a load generator that opens one connection per
 * request knows where each request went (and can tell the replica it froze from the others).
 */

export interface Route {
  upstream: number;
  /** The upstream refused or dropped the connection (the client was reset). */
  failed?: string;
}

export interface TcpProxy {
  name: string;
  port: number;
  url: string;
  /** Connections per upstream, in order. */
  counts: number[];
  /** Connections the upstream refused or dropped, per upstream. */
  failures: number[];
  /** The route of the connection whose client used local port `clientPort` (forgotten once read). */
  takeRoute(clientPort: number): Route | undefined;
  close(): Promise<void>;
}

export async function startTcpProxy(name: string, port: number, upstreamPorts: number[]): Promise<TcpProxy> {
  const counts = upstreamPorts.map(() => 0);
  const failures = upstreamPorts.map(() => 0);
  const routes = new Map<number, Route & { at: number }>();
  const open = new Set<Socket>();
  let next = 0;

  const forget = () => {
    // Routes nobody asked for (clients other than the load generator): dropped after a minute.
    const old = Date.now() - 60_000;
    for (const [port, r] of routes) if (r.at < old) routes.delete(port);
  };
  const sweeper = setInterval(forget, 10_000);
  sweeper.unref();

  const server: Server = createServer({ noDelay: true }, (client) => {
    const i = next++ % upstreamPorts.length;
    counts[i]!++;
    const route: Route & { at: number } = { upstream: i, at: Date.now() };
    if (client.remotePort !== undefined) routes.set(client.remotePort, route);
    const upstream = connect({ port: upstreamPorts[i]!, host: '127.0.0.1', noDelay: true });
    open.add(client);
    open.add(upstream);
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
    });
    const fail = (why: string) => {
      if (route.failed === undefined) {
        route.failed = why;
        failures[i]!++;
      }
      if (!client.destroyed) client.resetAndDestroy();
    };
    upstream.on('error', (err: NodeJS.ErrnoException) =>
      fail(`${connected ? 'dropped' : 'refused'}: ${err.code ?? err.message}`),
    );
    // The upstream closed without a clean end after we had sent it a request: reset the client too.
    upstream.on('close', (hadError) => {
      open.delete(upstream);
      if (hadError) return;
      if (!client.destroyed && !client.writableEnded) client.end();
    });
    client.on('error', () => upstream.destroy());
    client.on('close', () => {
      open.delete(client);
      upstream.destroy();
    });
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    counts,
    failures,
    takeRoute(clientPort) {
      const r = routes.get(clientPort);
      routes.delete(clientPort);
      return r && { upstream: r.upstream, ...(r.failed !== undefined ? { failed: r.failed } : {}) };
    },
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(sweeper);
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
