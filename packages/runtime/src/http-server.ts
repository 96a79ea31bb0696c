import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Waits until `server` listens; returns its base URL (with the real port when 0 was asked). */
export async function listening(server: Server, host: string): Promise<string> {
  if (!server.listening) await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return `http://${host}:${port}`;
}

/** Stops accepting, lets in-flight requests finish, and drops idle keep-alive connections. */
export function closeHttpServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  return closed;
}
