import { createHash, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { WebhookVerificationError, pushReference, verifyWebhook } from './webhooks.ts';

// verifyWebhook against messages signed by the `standardwebhooks` library (the reference
// implementation receivers use): what it signs, we accept; what we refuse, so does it.

const secretOf = () => `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({
  type: 'push.viewed',
  timestamp: '2026-11-26T12:00:00.000Z',
  data: { push: { ref: 'x' } },
});

function signed(secret: string, at = new Date(), id = 'msg_0123456789abcdef0123456789abcdef') {
  const signature = new Webhook(secret).sign(id, at, body);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

test('accepts what the standardwebhooks library signs, from a plain object or Headers', async () => {
  const secret = secretOf();
  const headers = signed(secret);
  const message = await verifyWebhook(headers, body, secret);
  expect(message).toMatchObject({ id: headers['webhook-id'], type: 'push.viewed', body: JSON.parse(body) });
  await expect(
    verifyWebhook(new Headers(headers), new TextEncoder().encode(body), secret),
  ).resolves.toMatchObject({
    type: 'push.viewed',
  });
  const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), [v]]));
  await expect(verifyWebhook(upper, body, secret)).resolves.toBeDefined();
});

test('during a rotation: any one of several signatures, under any of the secrets given', async () => {
  const [old, fresh] = [secretOf(), secretOf()];
  const a = signed(old);
  const b = signed(fresh);
  const both = { ...a, 'webhook-signature': `${a['webhook-signature']} ${b['webhook-signature']}` };
  await expect(verifyWebhook(both, body, old)).resolves.toBeDefined();
  await expect(verifyWebhook(both, body, fresh)).resolves.toBeDefined();
  await expect(verifyWebhook(a, body, [fresh, old])).resolves.toBeDefined();
  // and the library accepts the two-signature header as we send it
  expect(() => new Webhook(fresh).verify(body, both)).not.toThrow();
});

test.each<[string, (h: Record<string, string>, s: string) => [Record<string, string>, string, string]]>([
  ['a changed body', (h, s) => [h, body.replace('viewed', 'expired'), s]],
  ['another secret', (h) => [h, body, secretOf()]],
  ['another id', (h, s) => [{ ...h, 'webhook-id': 'msg_other' }, body, s]],
  ['a v1a (ed25519) signature only', (h, s) => [{ ...h, 'webhook-signature': 'v1a,AAAA' }, body, s]],
  ['garbage signatures', (h, s) => [{ ...h, 'webhook-signature': 'v1, v1,%%% nonsense' }, body, s]],
  [
    'no signature header',
    (h, s) => [{ 'webhook-id': h['webhook-id']!, 'webhook-timestamp': h['webhook-timestamp']! }, body, s],
  ],
])('refuses %s', async (_name, change) => {
  const secret = secretOf();
  const [headers, b, s] = change(signed(secret), secret);
  await expect(verifyWebhook(headers, b, s)).rejects.toBeInstanceOf(WebhookVerificationError);
  expect(() => new Webhook(s).verify(b, headers)).toThrow();
});

test('refuses timestamps more than 5 minutes away, as the library does', async () => {
  const secret = secretOf();
  const old = signed(secret, new Date(Date.now() - 301_000));
  const future = signed(secret, new Date(Date.now() + 301_000));
  await expect(verifyWebhook(old, body, secret)).rejects.toThrow('too old or too new');
  await expect(verifyWebhook(future, body, secret)).rejects.toThrow('too old or too new');
  expect(() => new Webhook(secret).verify(body, old)).toThrow();
  const recent = signed(secret, new Date(Date.now() - 290_000));
  await expect(verifyWebhook(recent, body, secret)).resolves.toBeDefined();
  await expect(verifyWebhook(old, body, secret, { toleranceSeconds: 600 })).resolves.toBeDefined();
});

test('pushReference: the first 16 hex characters of SHA-256(url_token)', async () => {
  const token = 'AbC_dEf-1234567890xyzQ';
  expect(await pushReference(token)).toBe(createHash('sha256').update(token).digest('hex').slice(0, 16));
  expect(await pushReference(token)).toMatch(/^[0-9a-f]{16}$/);
});
