import { type Server, createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

/*
 * The fault suite's webhook receiver: an HTTP server in the test process, on a port reserved like
 * the others (ports.ts), so that it can be stopped and opened again on the same port. It answers
 * 204 at once and records every message: its `webhook-id`, type, `data.push.ref`, whether the
 * signature verified with the `standardwebhooks` library (checked on arrival: the timestamp is
 * fresh on every attempt), when it arrived and its exact body.
 */

export interface Message {
  id: string;
  type: string;
  /** `data.push.ref`; absent when the body has none (a test message, or a body that is not JSON). */
  ref?: string;
  /** The body's `timestamp`: when the event happened (Unix ms; NaN when missing). */
  eventAt: number;
  receivedAt: number;
  verified: boolean;
  /** Why verification failed. */
  why?: string;
  body: string;
}

export interface WebhookReceiver {
  port: number;
  /** The endpoint's URL. */
  url: string;
  readonly messages: Message[];
  /** The endpoint's secret (`whsec_…`), once the endpoint exists: messages before it fail to verify. */
  secret: string | undefined;
  listening(): boolean;
  /** Closes the listener and every open connection (senders get connection refused). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(', ') : (v ?? ''));

function parse(body: string): { type: string; ref?: string; eventAt: number } {
  try {
    const b = JSON.parse(body) as {
      type?: unknown;
      timestamp?: unknown;
      data?: { push?: { ref?: unknown } };
    };
    const ref = b.data?.push?.ref;
    return {
      type: typeof b.type === 'string' ? b.type : '?',
      ...(typeof ref === 'string' ? { ref } : {}),
      eventAt: typeof b.timestamp === 'string' ? Date.parse(b.timestamp) : NaN,
    };
  } catch {
    return { type: '?', eventAt: NaN };
  }
}

export async function startWebhookReceiver(port: number): Promise<WebhookReceiver> {
  const messages: Message[] = [];
  let server: Server | undefined;
  const receiver: WebhookReceiver = {
    port,
    url: `http://127.0.0.1:${port}/hook`,
    messages,
    secret: undefined,
    listening: () => server?.listening === true,
    async start() {
      const s = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const receivedAt = Date.now();
          res.writeHead(204).end();
          const body = Buffer.concat(chunks).toString('utf8');
          const headers = {
            'webhook-id': header(req.headers['webhook-id']),
            'webhook-timestamp': header(req.headers['webhook-timestamp']),
            'webhook-signature': header(req.headers['webhook-signature']),
          };
          let why: string | undefined;
          try {
            if (!receiver.secret) throw new Error('no endpoint secret yet');
            new Webhook(receiver.secret).verify(body, headers);
          } catch (err) {
            why = (err as Error).message;
          }
          messages.push({
            id: headers['webhook-id'],
            ...parse(body),
            receivedAt,
            verified: why === undefined,
            ...(why !== undefined ? { why } : {}),
            body,
          });
        });
      });
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(port, '127.0.0.1', () => {
          s.off('error', reject);
          resolve();
        });
      });
      server = s;
    },
    async stop() {
      const s = server;
      if (!s) return;
      server = undefined;
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
  await receiver.start();
  return receiver;
}
