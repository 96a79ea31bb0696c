/*
 * Receiving secret-push webhooks: `verifyWebhook` checks a message as Standard Webhooks defines it
 * (https://www.standardwebhooks.com; interoperable with the `standardwebhooks` library), and
 * `pushReference` computes the `ref` by which messages name a push. Web Crypto only: the same code
 * runs in Node 22+, Deno, workers and browsers.
 */

/** Receivers accept timestamps this close to their clock (the Standard Webhooks default). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** A verified message. */
export interface WebhookMessage<T = unknown> {
  /** `webhook-id`: the same on every attempt of one message; deduplicate on it. */
  id: string;
  /** `webhook-timestamp`, when this attempt was signed. */
  timestamp: Date;
  /** `type` of the body (`push.viewed`, `webhook.test`, …). */
  type: string;
  /** The parsed body: `{ type, timestamp, data }`. */
  body: { type: string; timestamp: string; data: T };
}

/** The message is not authentic, too old or too new, or malformed. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

function base64ToBytes(b64: string): Uint8Array | undefined {
  try {
    const bin = atob(b64);
    return Uint8Array.from(bin, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** Constant time in the length of `expected`: every byte is compared whatever the first difference. */
function sameBytes(a: Uint8Array, expected: Uint8Array): boolean {
  let diff = a.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) diff |= (a[i] ?? 0) ^ expected[i]!;
  return diff === 0;
}

const encoder = new TextEncoder();

async function hmac(secret: string, content: Uint8Array): Promise<Uint8Array> {
  const raw = base64ToBytes(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
  if (!raw || raw.length === 0) throw new WebhookVerificationError('The secret is not a whsec_ secret.');
  const key = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, content));
}

/**
 * Verifies a webhook message and returns it parsed: `webhook-id`, `webhook-timestamp` (within
 * `toleranceSeconds` of now, 5 minutes by default) and at least one `v1,<base64>` of
 * `webhook-signature` matching HMAC-SHA256(`id.timestamp.body`) under one of `secrets` (give both
 * during a rotation, or rely on the sender's two signatures). `body` must be the raw bytes
 * received, before any JSON parsing. Throws {@link WebhookVerificationError} otherwise.
 */
export async function verifyWebhook<T = unknown>(
  headers: HeaderSource,
  body: string | Uint8Array,
  secret: string | readonly string[],
  options: { toleranceSeconds?: number; now?: Date } = {},
): Promise<WebhookMessage<T>> {
  const id = header(headers, 'webhook-id');
  const ts = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !ts || !signatures) throw new WebhookVerificationError('Missing webhook headers.');
  if (!/^\d{1,12}$/.test(ts)) throw new WebhookVerificationError('Invalid webhook-timestamp.');
  const seconds = Number(ts);
  const now = (options.now ?? new Date()).getTime() / 1000;
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  if (Math.abs(now - seconds) > tolerance) {
    throw new WebhookVerificationError('The message timestamp is too old or too new.');
  }
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  const prefix = encoder.encode(`${id}.${ts}.`);
  const content = new Uint8Array(prefix.length + bytes.length);
  content.set(prefix);
  content.set(bytes, prefix.length);
  const given = signatures
    .split(' ')
    .map((s) => s.split(','))
    .filter(([version, sig]) => version === 'v1' && sig)
    .map(([, sig]) => base64ToBytes(sig!))
    .filter((s): s is Uint8Array => s !== undefined);
  let ok = false;
  for (const s of typeof secret === 'string' ? [secret] : secret) {
    const expected = await hmac(s, content);
    for (const g of given) ok = sameBytes(g, expected) || ok; // no early exit
  }
  if (!ok) throw new WebhookVerificationError('No matching signature.');
  let parsed: WebhookMessage<T>['body'];
  try {
    parsed = JSON.parse(
      typeof body === 'string' ? body : new TextDecoder().decode(body),
    ) as WebhookMessage<T>['body'];
  } catch {
    throw new WebhookVerificationError('The body is not JSON.');
  }
  return { id, timestamp: new Date(seconds * 1000), type: parsed.type, body: parsed };
}

/**
 * The reference by which webhook messages name a push: the first 16 hex characters of the
 * SHA-256 of its `url_token`. A push's owner computes it from the token it got at create.
 */
export async function pushReference(urlToken: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(urlToken)));
  return Array.from(digest.subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The reference by which `request.*` webhook messages name a request (`request_ref`): computed as
 * for a push, from the request's `url_token`.
 */
export const requestReference = pushReference;
