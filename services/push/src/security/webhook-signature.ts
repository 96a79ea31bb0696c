import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + base64 of
 * random bytes, the HMAC-SHA256 key its decoded bytes; the signed content `id.timestamp.body`; the
 * header `v1,<base64>` per secret, space-separated (several during a rotation).
 */

const PREFIX = 'whsec_';

/** A new secret: 32 random bytes. */
export const generateWebhookSecret = (): string => PREFIX + randomBytes(32).toString('base64');

/** The HMAC key of a secret (the part after `whsec_`, base64-decoded). */
export const webhookKey = (secret: string): Buffer =>
  Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');

/** `v1,<base64 HMAC>` of one message under one secret. */
export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', webhookKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three Standard Webhooks headers of one attempt (`timestamp` in Unix seconds). */
export function webhookHeaders(
  id: string,
  timestamp: number,
  body: string,
  secrets: readonly string[],
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signatureOf(s, id, timestamp, body)).join(' '),
  };
}
