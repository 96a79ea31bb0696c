import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:net';

/*
 * Ports for everything the suite listens on, taken below the kernel's ephemeral range: no outgoing
 * connection (the load opens thousands) and no `listen(0)` ever lands on one of them, so a process
 * restarted on its port finds it free. All are held open together while they are chosen, so no two
 * are the same, then released for their owners to bind.
 */

function ephemeralStart(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return 32768;
  }
}

function tryListen(port: number): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

export async function reservePorts(count: number): Promise<number[]> {
  const top = Math.min(ephemeralStart(), 32768) - 1;
  const bottom = 10_000;
  const held: Server[] = [];
  const ports: number[] = [];
  let port = bottom + Math.floor(Math.random() * (top - bottom - 2000));
  for (let tries = 0; ports.length < count && tries < 2000; tries++, port++) {
    if (port > top) port = bottom;
    const server = await tryListen(port);
    if (!server) continue;
    held.push(server);
    ports.push(port);
  }
  await Promise.all(held.map((s) => new Promise((r) => s.close(r))));
  if (ports.length < count) throw new Error(`found only ${ports.length} free ports of ${count}`);
  return ports;
}
