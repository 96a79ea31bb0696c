import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { ConnectionError, errorFromResponse, parseRetryAfter } from './errors.ts';
import { retryDelay, sleep } from './transport.ts';

/*
 * A download in Node through node:http(s) rather than fetch. Measured through the CLI (a 100 MiB
 * file from a local push service): fetch's response body raised the process's peak RSS by 54–81
 * MiB over a 2 MiB download, node:http by about 31 MiB; neither holds the file (the memory is
 * freed, but the allocator keeps it), and both keep backpressure. Used only when the client was
 * not given a fetch of its own. The rules are the same as for `download`: no token, one repeat
 * policy (only a 503 `dependency_unavailable`, which used nothing), the call's deadline and signal.
 */

export interface NodeDownloadSpec {
  url: string;
  userAgent: string | undefined;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  retries: number;
  maxRetryDelayMs: number;
  onProgress: ((bytesReceived: number) => void) | undefined;
}

/** Error bodies are small JSON documents: read at most this much of one. */
const MAX_ERROR_BODY = 64 * 1024;

async function errorOf(res: IncomingMessage): Promise<Error> {
  let text = '';
  for await (const chunk of res as AsyncIterable<Buffer>) {
    text += chunk.toString('utf8');
    if (text.length > MAX_ERROR_BODY) break;
  }
  res.destroy();
  const headers = new Headers();
  for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
  return errorFromResponse(new Response(text, { status: res.statusCode ?? 500, headers }));
}

export async function nodeDownload(
  spec: NodeDownloadSpec,
): Promise<{ body: Readable; headers: IncomingMessage['headers'] }> {
  const { request } = spec.url.startsWith('https:') ? await import('node:https') : await import('node:http');
  const { Transform } = await import('node:stream');
  const deadline = AbortSignal.timeout(spec.timeoutMs);
  const signal = spec.signal ? AbortSignal.any([spec.signal, deadline]) : deadline;
  for (let attempt = 0; ; attempt++) {
    let res: IncomingMessage;
    try {
      res = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = request(spec.url, {
          signal,
          headers: { accept: '*/*', ...(spec.userAgent ? { 'user-agent': spec.userAgent } : {}) },
        });
        req.on('response', resolve).on('error', reject).end();
      });
    } catch (cause) {
      if (spec.signal?.aborted) throw spec.signal.reason as Error;
      const timedOut = deadline.aborted;
      throw new ConnectionError({
        status: 0,
        code: timedOut ? 'timeout' : 'connection_error',
        message: timedOut
          ? `The download timed out after ${spec.timeoutMs} ms`
          : 'The download failed: no answer from the server',
        cause,
      });
    }
    const status = res.statusCode ?? 500;
    if (status >= 200 && status < 300) {
      let received = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          received += chunk.length;
          spec.onProgress?.(received);
          done(null, chunk);
        },
      });
      res.on('error', (err) => counted.destroy(err));
      return { body: res.pipe(counted), headers: res.headers };
    }
    const err = await errorOf(res);
    const code = (err as { code?: unknown }).code;
    const retryAfter = parseRetryAfter(
      typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null,
    );
    const delay =
      status === 503 && code === 'dependency_unavailable' && attempt < spec.retries
        ? retryDelay(attempt, retryAfter, spec.maxRetryDelayMs)
        : undefined;
    if (delay === undefined) throw err;
    await sleep(delay, signal);
  }
}
