import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  url: string;
  /** How many requests went to each upstream, in order. */
  counts: number[];
  close(): Promise<void>;
}

/**
 * A minimal stand-in for a Kubernetes Service: each request goes to the next upstream in turn,
 * headers and bodies streamed unchanged (Host rewritten to the upstream, as kube-proxy leaves it).
 */
export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  const agent = new http.Agent({ keepAlive: true });
  const counts = upstreams.map(() => 0);
  let next = 0;
  const server = http.createServer((req, res) => {
    const i = next++ % upstreams.length;
    counts[i]!++;
    const target = new URL(req.url ?? '/', upstreams[i]);
    const upstream = http.request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host }, agent },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
