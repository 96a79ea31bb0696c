import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { ResolvedAddress, Resolver } from '../domain/ports/resolver';
import type { AttemptResult, WebhookRequest, WebhookSender } from '../domain/ports/webhook-sender';
import { type AllowList, EMPTY_ALLOW_LIST, hostAllowed, refusedAddress } from './safe-destination';

export interface WebhookSenderOptions {
  resolver: Resolver;
  /** `http://` destinations too (PUSH_WEBHOOK_ALLOW_HTTP): development and internal receivers. */
  allowHttp: boolean;
  /** The operator's allow-list (PUSH_WEBHOOK_ALLOWED_DESTINATIONS). */
  allowList?: AllowList;
  /** The whole attempt, resolution, connection, request and answer included (10 s). */
  deadlineMs?: number;
  /** The answer is read up to this many bytes (4 KiB), then the connection is dropped. */
  maxAnswerBytes?: number;
  /** Extra certificate authorities (tests). */
  ca?: string | Buffer;
}

export const USER_AGENT = 'secret-push-webhooks/1';

/** `Retry-After` as seconds (a number of seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * A `lookup` that answers the address already checked, whatever it is asked (one address, or all
 * of them as `net`'s happy-eyeballs asks): the connection goes where the check said, with no
 * second resolution a rebinding name could answer differently.
 */
export function pinnedLookup(checked: ResolvedAddress): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: checked.address, family: checked.family }]);
    else callback(null, checked.address, checked.family);
  }) as LookupFunction;
}

/** Where a URL may be sent: the checked address, or why not. */
async function checkDestination(
  url: URL,
  options: WebhookSenderOptions,
): Promise<{ address: ResolvedAddress } | { refused: string } | { failed: string }> {
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && options.allowHttp)) {
    return { refused: `${url.protocol} destinations are not allowed` };
  }
  if (url.username || url.password) return { refused: 'credentials in the URL are not allowed' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const allow = options.allowList ?? EMPTY_ALLOW_LIST;
  let addresses: ResolvedAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await options.resolver.lookup(host);
    } catch (err) {
      return {
        failed: `could not resolve ${host}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      };
    }
  }
  if (addresses.length === 0) return { failed: `${host} has no address` };
  if (!hostAllowed(host, allow)) {
    for (const a of addresses) {
      const why = refusedAddress(a.address, allow);
      if (why) return { refused: `destination refused: ${why}` };
    }
  }
  return { address: addresses[0]! };
}

/** POSTs to the checked address; resolves with the answer (read to `maxBytes`) or the failure. */
function postPinned(
  url: URL,
  address: ResolvedAddress,
  request: WebhookRequest,
  options: WebhookSenderOptions & { signal: AbortSignal; started: number },
): Promise<AttemptResult> {
  const maxBytes = options.maxAnswerBytes ?? 4096;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const elapsed = () => Math.round(performance.now() - options.started);
    const fail = (reason: string) => resolve({ kind: 'failed', reason, latencyMs: elapsed() });
    const req = transport.request(
      {
        protocol: url.protocol,
        host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: {
          ...request.headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(request.body),
          'user-agent': USER_AGENT,
        },
        lookup: pinnedLookup(address),
        agent: false,
        signal: options.signal,
        ...(url.protocol === 'https:' && { servername: isIP(host) ? undefined : host, ca: options.ca }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          const answer = Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8').replace(/\0/g, '');
          resolve({
            kind: 'answered',
            status: res.statusCode ?? 0,
            latencyMs: elapsed(),
            answer,
            retryAfterSeconds: retryAfterSeconds(res.headers['retry-after']),
          });
          res.destroy();
        };
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= maxBytes) finish();
        });
        res.on('end', finish);
        // Cut short: by the deadline (a failure: the body counts), or by the receiver (what was read is the answer).
        const cut = () => {
          if (done) return;
          if (!options.signal.aborted) return finish();
          done = true;
          fail('the answer did not arrive within the deadline');
        };
        res.on('error', cut);
        res.on('close', cut);
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      fail(
        options.signal.aborted
          ? `no answer within the deadline`
          : `could not deliver: ${err.code ?? err.message}`,
      ),
    );
    req.end(request.body);
  });
}

/**
 * The webhook sender: checks the destination when sending (the check at create time counts for
 * nothing: a name can be re-pointed since), refusing every address safe-destination.ts refuses
 * unless the operator allowed it; connects only to the checked address (pinned lookup), SNI and
 * certificate checks on the host name; no redirects (Node's client follows none: a 3xx is an
 * answer, and a failure); one deadline for the whole attempt; the answer read to 4 KiB.
 */
export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const deadlineMs = options.deadlineMs ?? 10_000;
  return {
    async post(request) {
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        return { kind: 'refused', reason: 'not a URL' };
      }
      const started = performance.now();
      const signal = AbortSignal.timeout(deadlineMs);
      const checked = await Promise.race([
        checkDestination(url, options),
        new Promise<{ failed: string }>((resolve) =>
          signal.addEventListener('abort', () => resolve({ failed: 'no DNS answer within the deadline' })),
        ),
      ]);
      if ('refused' in checked) return { kind: 'refused', reason: checked.refused };
      if ('failed' in checked) {
        return { kind: 'failed', reason: checked.failed, latencyMs: Math.round(performance.now() - started) };
      }
      return postPinned(url, checked.address, request, { ...options, signal, started });
    },
  };
}
