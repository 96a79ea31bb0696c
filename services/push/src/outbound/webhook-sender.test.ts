import { type Receiver, scriptedResolver, startReceiver } from '../test/support/webhook-receiver';
import { REFUSED_RANGES, parseAllowList, refusedAddress } from './safe-destination';
import { createWebhookSender, retryAfterSeconds } from './webhook-sender';

// The sender against a real local HTTP receiver, its DNS scripted: every refused range is refused
// when sending, whatever name leads there; the checked address is the one connected to.

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.received.length = 0;
  receiver.answer(() => ({ status: 204 }));
});

const message = (url: string) => ({ url, headers: { 'webhook-id': 'msg_1' }, body: '{}' });

/** One address of each refused range, and the notations that hide some of them. */
const REFUSED_ADDRESSES = [
  '127.0.0.1',
  '127.255.0.9',
  '10.1.2.3',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '169.254.169.254', // cloud metadata (AWS, GCP, Azure)
  '100.64.0.1', // CGNAT
  '100.100.100.200', // Alibaba's metadata, in CGNAT
  '168.63.129.16', // Azure's wire server
  '0.0.0.0',
  '0.1.2.3',
  '224.0.0.1',
  '239.255.255.250',
  '255.255.255.255',
  '240.0.0.1',
  '192.0.0.170',
  '198.18.0.1',
  '::1',
  '::',
  '::ffff:127.0.0.1', // IPv4-mapped
  '::ffff:8.8.8.8', // IPv4-mapped, even of a public address
  '::ffff:0:7f00:1', // IPv4-translated (rfc6145)
  '64:ff9b::7f00:1', // NAT64
  '64:ff9b::808:808',
  '2002:7f00:1::1', // 6to4
  '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
  'fc00::1',
  'fd00:ec2::254', // AWS's IPv6 metadata
  'fe80::1',
  'fe80::1%eth0',
  'ff02::1',
];

describe('the address rule', () => {
  test.each(REFUSED_ADDRESSES)('%s is refused', (address) => {
    expect(refusedAddress(address)).toBeDefined();
  });

  test.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])(
    '%s is allowed',
    (address) => {
      expect(refusedAddress(address)).toBeUndefined();
    },
  );

  test('every listed range is refused at its first address', () => {
    for (const range of REFUSED_RANGES) expect(refusedAddress(range.split('/')[0]!)).toBeDefined();
  });

  test("the operator's allow-list lets its CIDRs through, and only those", () => {
    const allow = parseAllowList(['10.20.0.0/16', '127.0.0.1', 'hooks.internal']);
    expect(refusedAddress('10.20.3.4', allow)).toBeUndefined();
    expect(refusedAddress('127.0.0.1', allow)).toBeUndefined();
    expect(refusedAddress('127.0.0.2', allow)).toBeDefined();
    expect(refusedAddress('10.21.0.1', allow)).toBeDefined();
    // an IPv4 allowance does not open its IPv4-mapped IPv6 form
    expect(refusedAddress('::ffff:127.0.0.1', allow)).toBeDefined();
  });
});

describe('checked when sending', () => {
  test.each(REFUSED_ADDRESSES.filter((a) => !a.includes('%')))(
    'a name resolving to %s is refused; nothing is sent',
    async (address) => {
      const resolver = scriptedResolver({ 'hook.invalid': [[address]] });
      const sender = createWebhookSender({ resolver, allowHttp: true });
      const result = await sender.post(message(`http://hook.invalid:${receiver.port}/hook`));
      expect(result).toMatchObject({ kind: 'refused' });
      expect(receiver.received).toHaveLength(0);
    },
  );

  test('one refused address among several answers refuses the name', async () => {
    const resolver = scriptedResolver({ 'mixed.invalid': [['8.8.8.8', '127.0.0.1']] });
    const sender = createWebhookSender({ resolver, allowHttp: true });
    expect(await sender.post(message('http://mixed.invalid/hook'))).toMatchObject({ kind: 'refused' });
  });

  test.each([
    'http://127.0.0.1:1/hook',
    'http://0x7f.1:1/hook',
    'http://2130706433:1/hook',
    'http://[::ffff:127.0.0.1]:1/hook',
    'http://[::1]:1/hook',
    'http://0/hook',
  ])('an address written in the URL (%s) is checked too', async (url) => {
    const resolver = scriptedResolver();
    const sender = createWebhookSender({ resolver, allowHttp: true });
    expect(await sender.post(message(url))).toMatchObject({ kind: 'refused' });
    expect(resolver.lookups).toHaveLength(0);
  });

  test('https only unless the operator allows http; no credentials', async () => {
    const resolver = scriptedResolver({ 'hook.invalid': [['8.8.8.8']] });
    const strict = createWebhookSender({ resolver, allowHttp: false });
    expect(await strict.post(message('http://hook.invalid/hook'))).toEqual({
      kind: 'refused',
      reason: 'http: destinations are not allowed',
    });
    expect(await strict.post(message('https://u:p@hook.invalid/hook'))).toMatchObject({ kind: 'refused' });
    expect(await strict.post(message('ftp://hook.invalid/x'))).toMatchObject({ kind: 'refused' });
  });

  test('an allowed host name is sent to whatever it resolves to, at the checked address', async () => {
    const resolver = scriptedResolver({ 'receiver.internal': [['127.0.0.1'], ['192.0.2.1']] });
    const sender = createWebhookSender({
      resolver,
      allowHttp: true,
      allowList: parseAllowList(['receiver.internal']),
    });
    const result = await sender.post(message(`http://receiver.internal:${receiver.port}/hook`));
    expect(result).toMatchObject({ kind: 'answered', status: 204 });
    expect(receiver.received[0]!.localAddress).toBe('127.0.0.1');
    expect(resolver.lookups).toEqual(['receiver.internal']);
  });

  test('a receiver that never answers fails at the deadline', async () => {
    receiver.answer(() => ({ status: 200, hang: true }));
    const resolver = scriptedResolver();
    const sender = createWebhookSender({
      resolver,
      allowHttp: true,
      allowList: parseAllowList(['127.0.0.1']),
      deadlineMs: 300,
    });
    const started = Date.now();
    const result = await sender.post(message(receiver.url()));
    expect(result).toMatchObject({ kind: 'failed', reason: 'no answer within the deadline' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test('a DNS failure is a failure (retried), not a refusal', async () => {
    const sender = createWebhookSender({ resolver: scriptedResolver(), allowHttp: true });
    expect(await sender.post(message('http://nowhere.invalid/hook'))).toMatchObject({
      kind: 'failed',
      reason: 'could not resolve nowhere.invalid: ENOTFOUND',
    });
  });
});

test('Retry-After: seconds or an HTTP date', () => {
  expect(retryAfterSeconds('120')).toBe(120);
  expect(retryAfterSeconds(new Date(Date.now() + 60_000).toUTCString())).toBeGreaterThanOrEqual(59);
  expect(retryAfterSeconds('soon')).toBeNull();
  expect(retryAfterSeconds(undefined)).toBeNull();
});
