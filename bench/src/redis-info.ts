import { connect } from 'node:net';

/**
 * Redis's `INFO` as `field → value`, over a plain socket (one inline command, one bulk reply): the
 * bench reads `used_memory` and `used_cpu_*` of a redis-server of its own without a client library.
 */
export function redisInfo(url: string, timeoutMs = 5000): Promise<Record<string, string>> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(u.port || 6379), u.hostname);
    let reply = Buffer.alloc(0);
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`INFO from ${url} timed out`)));
    socket.once('error', reject);
    socket.on('data', (chunk: Buffer) => {
      reply = Buffer.concat([reply, chunk]);
      const head = /^\$(\d+)\r\n/.exec(reply.subarray(0, 32).toString('latin1'));
      if (!head) {
        if (reply.length > 0 && reply[0] !== 0x24) socket.destroy(new Error(`INFO: ${reply.toString()}`));
        return;
      }
      const start = head[0].length;
      const length = Number(head[1]);
      if (reply.length < start + length) return;
      socket.end();
      const fields: Record<string, string> = {};
      for (const line of reply
        .subarray(start, start + length)
        .toString('utf8')
        .split('\r\n')) {
        const i = line.indexOf(':');
        if (i > 0 && !line.startsWith('#')) fields[line.slice(0, i)] = line.slice(i + 1);
      }
      resolve(fields);
    });
    socket.write('INFO\r\n');
  });
}
