import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ResolvedAddress, Resolver } from '../../domain/ports/resolver';

/** One request the receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The local address the connection arrived at. */
  localAddress: string;
}

/** What the receiver answers (by default 204). */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answers (the sender's deadline). */
  hang?: boolean;
}

/**
 * A real HTTP receiver of webhooks on 127.0.0.1: records every request (headers, raw body) and
 * answers what `answer` says; `down()` closes it (connections refused), `up()` opens it again on
 * the same port.
 */
export async function startReceiver(host = '127.0.0.1') {
  const received: Received[] = [];
  let answer: (r: Received) => Answer = () => ({ status: 204 });
  let server: Server;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve) => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const r: Received = {
            path: req.url ?? '',
            headers: req.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            localAddress: req.socket.localAddress ?? '',
          };
          received.push(r);
          const a = answer(r);
          if (a.hang) return;
          res.writeHead(a.status, a.headers);
          res.end(a.body ?? '');
        });
      });
      server.listen(port, host, () => {
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  await open();
  return {
    received,
    get port() {
      return port;
    },
    url: (path = '/hook', name = host) => `http://${name}:${port}${path}`,
    answer(fn: (r: Received) => Answer) {
      answer = fn;
    },
    down: close,
    up: open,
    close,
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * A resolver whose answers the test scripts: `answers[host]` is the list of answers, one per
 * lookup in turn (the last repeats); every lookup is counted.
 */
export function scriptedResolver(answers: Record<string, string[][]> = {}) {
  const lookups: string[] = [];
  const resolver: Resolver & { lookups: string[]; set(host: string, ...answers: string[][]): void } = {
    lookups,
    set(host, ...list) {
      answers[host] = list;
    },
    lookup(host) {
      lookups.push(host);
      const list = answers[host];
      if (!list) {
        return Promise.reject(Object.assign(new Error(`no such host ${host}`), { code: 'ENOTFOUND' }));
      }
      const n = lookups.filter((h) => h === host).length;
      const addresses = list[Math.min(n, list.length) - 1]!;
      return Promise.resolve(
        addresses.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
    },
  };
  return resolver;
}
