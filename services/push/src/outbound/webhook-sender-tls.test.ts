import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { join } from 'node:path';
import { scriptedResolver } from '../test/support/webhook-receiver';
import { parseAllowList } from './safe-destination';
import { createWebhookSender } from './webhook-sender';

// HTTPS with a pinned address: the connection goes to the checked address, while SNI and the
// certificate check use the URL's host name (a test certificate for hooks.invalid only).

const dir = join(__dirname, '..', 'test', 'support', 'tls');
const cert = readFileSync(join(dir, 'hooks-invalid.cert.pem'));
const key = readFileSync(join(dir, 'hooks-invalid.key.pem'));
let server: Server;
let port: number;
const seen: { servername: string | false | null; path: string }[] = [];

beforeAll(async () => {
  server = createServer({ cert, key }, (req, res) => {
    seen.push({ servername: (req.socket as TLSSocket).servername, path: req.url ?? '' });
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const sender = () =>
  createWebhookSender({
    resolver: scriptedResolver({ 'hooks.invalid': [['127.0.0.1']], 'other.invalid': [['127.0.0.1']] }),
    allowHttp: false,
    allowList: parseAllowList(['127.0.0.1']),
    ca: cert,
  });
const post = (url: string) => sender().post({ url, headers: {}, body: '{}' });

test('sends SNI for the host name and accepts its certificate, at the checked address', async () => {
  const result = await post(`https://hooks.invalid:${port}/tls`);
  expect(result).toMatchObject({ kind: 'answered', status: 204 });
  expect(seen.at(-1)).toEqual({ servername: 'hooks.invalid', path: '/tls' });
});

test('a certificate for another name is refused, although the address is the same', async () => {
  const result = await post(`https://other.invalid:${port}/tls`);
  expect(result).toMatchObject({ kind: 'failed' });
  expect((result as { reason: string }).reason).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID/);
});

test('an untrusted certificate is refused', async () => {
  const untrusting = createWebhookSender({
    resolver: scriptedResolver({ 'hooks.invalid': [['127.0.0.1']] }),
    allowHttp: false,
    allowList: parseAllowList(['127.0.0.1']),
  });
  const result = await untrusting.post({ url: `https://hooks.invalid:${port}/tls`, headers: {}, body: '{}' });
  expect(result).toMatchObject({ kind: 'failed' });
});
