import { createServer } from 'node:http';
import { request } from 'node:http';
import { closeHttpServer, listening } from './http-server';

describe('listening and closeHttpServer', () => {
  it('gives the real port, and lets a request in flight finish before closing', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const server = createServer((_req, res) => void held.then(() => res.end('done')));
    server.listen(0, '127.0.0.1');
    const url = await listening(server, '127.0.0.1');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    expect(await listening(server, '127.0.0.1')).toBe(url); // already listening: answers at once

    const inFlight = new Promise<string>((resolve, reject) => {
      request(url, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve(body));
      })
        .on('error', reject)
        .end();
    });
    await new Promise((r) => server.once('request', r));
    let closed = false;
    const closing = closeHttpServer(server).then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(closed).toBe(false);
    expect(server.listening).toBe(false); // no new connections meanwhile
    release();
    expect(await inFlight).toBe('done');
    await closing;
    expect(closed).toBe(true);
  });
});
