import { filenameOf } from './downloads.ts';
import { isLoopback, maskedPath, parseRetryAfter } from './errors.ts';
import { nextPage } from './pages.ts';
import { renewalMarginMs } from './token-cache.ts';
import { retryDelay } from './transport.ts';

test('nextPage reads the page of rel="next" only', () => {
  const link =
    '<https://push.example.com/api/v2/pushes/active?page=3>; rel="next", <https://push.example.com/api/v2/pushes/active?page=1>; rel="prev"';
  expect(nextPage(link)).toBe(3);
  expect(nextPage('<https://x/api/v2/pushes/active?page=1>; rel="prev"')).toBeUndefined();
  expect(nextPage(null)).toBeUndefined();
  expect(nextPage('garbage')).toBeUndefined();
});

test('filenameOf prefers filename* and unquotes filename', () => {
  expect(filenameOf(`attachment; filename="a \\"b\\".txt"; filename*=UTF-8''%C3%A9t%C3%A9.txt`)).toBe(
    'été.txt',
  );
  expect(filenameOf('attachment; filename="report.pdf"')).toBe('report.pdf');
  expect(filenameOf('attachment; filename=plain.bin')).toBe('plain.bin');
  expect(filenameOf(null)).toBeUndefined();
});

test('parseRetryAfter reads seconds and HTTP dates', () => {
  expect(parseRetryAfter('7')).toBe(7);
  const now = Date.parse('2026-01-01T00:00:00Z');
  expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10);
  expect(parseRetryAfter('soon')).toBeUndefined();
  expect(parseRetryAfter(null)).toBeUndefined();
});

test('a token is renewed 10% of its lifetime before it expires, at most 30 s before', () => {
  expect(renewalMarginMs(3600)).toBe(30_000);
  expect(renewalMarginMs(60)).toBe(6_000);
  expect(renewalMarginMs(6)).toBe(600);
});

test('retry waits: full jitter under the exponential cap; Retry-After as given or not at all', () => {
  for (let attempt = 0; attempt < 8; attempt++) {
    for (let i = 0; i < 50; i++) {
      const d = retryDelay(attempt, undefined, 5_000)!;
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThanOrEqual(Math.min(5_000, 250 * 2 ** attempt));
    }
  }
  expect(retryDelay(0, 2, 5_000)).toBe(2_000);
  expect(retryDelay(0, 6, 5_000)).toBeUndefined();
});

test('maskedPath hides the segment after /pushes/ and /files/ and drops the query', () => {
  const t = 'AbCdEfGhIjKlMnOpQrStUv';
  expect(maskedPath(`https://h/api/v2/pushes/${t}`)).toBe('/api/v2/pushes/…');
  expect(maskedPath(`https://h/api/v2/pushes/${t}/reveal?x=1`)).toBe('/api/v2/pushes/…/reveal');
  expect(maskedPath(`https://h/sub/api/v2/files/f1?push=${t}&sig=s`)).toBe('/sub/api/v2/files/…');
  expect(maskedPath('https://h/api/v2/pushes/active?page=2')).toBe('/api/v2/pushes/active');
  expect(maskedPath('https://h/api/v2/pushes/expired')).toBe('/api/v2/pushes/expired');
  expect(maskedPath('https://h/api/v2/pushes')).toBe('/api/v2/pushes');
  expect(maskedPath(`/api/v2/pushes/${t}?q`)).toBe('/api/v2/pushes/…');
});

test('maskedPath hides a request token and its file ids, and keeps the lists of requests', () => {
  const t = 'AbCdEfGhIjKlMnOpQrStUv';
  expect(maskedPath(`https://h/api/v2/requests/${t}/respond`)).toBe('/api/v2/requests/…/respond');
  expect(maskedPath(`https://h/api/v2/requests/${t}/files/f1`)).toBe('/api/v2/requests/…/files/…');
  for (const list of ['active', 'open', 'answered', 'ready', 'closed']) {
    expect(maskedPath(`https://h/api/v2/requests/${list}?page=2`)).toBe(`/api/v2/requests/${list}`);
  }
  expect(maskedPath('https://h/api/v2/files/closed')).toBe('/api/v2/files/…');
});

test('isLoopback: localhost, 127.0.0.0/8 and ::1 only', () => {
  for (const h of ['localhost', 'LOCALHOST', 'a.localhost', '127.0.0.1', '127.1.2.3', '[::1]']) {
    expect([h, isLoopback(h)]).toEqual([h, true]);
  }
  for (const h of [
    'example.com',
    'localhost.example.com',
    '10.0.0.1',
    '128.0.0.1',
    '[::2]',
    '127.0.0.1.nip.io',
  ]) {
    expect([h, isLoopback(h)]).toEqual([h, false]);
  }
});
