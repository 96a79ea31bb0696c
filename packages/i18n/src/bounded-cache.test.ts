import { BoundedCache } from './bounded-cache';

describe('BoundedCache', () => {
  it('keeps the most recently used entries within its entry bound', () => {
    const cache = new BoundedCache<number>({ maxEntries: 3, maxKeyLength: 100, maxTotalKeyLength: 1000 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBe(1); // a is now the most recent: b goes first
    cache.set('d', 4);
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([1, 3, 4]);
  });

  it('keeps the total length of its keys within its bound', () => {
    const cache = new BoundedCache<number>({ maxEntries: 100, maxKeyLength: 10, maxTotalKeyLength: 25 });
    for (let i = 0; i < 50; i++) {
      cache.set(`${i}`.padStart(10, 'x'), i);
      expect(cache.totalKeyLength).toBeLessThanOrEqual(25);
    }
    expect(cache.size).toBe(2);
    expect(cache.get('xxxxxxxx49')).toBe(49);
  });

  it('never stores a key over its length bound, and counts a key set twice once', () => {
    const cache = new BoundedCache<number>({ maxEntries: 10, maxKeyLength: 4, maxTotalKeyLength: 100 });
    cache.set('12345', 1);
    expect(cache.accepts('12345')).toBe(false);
    expect(cache.get('12345')).toBeUndefined();
    cache.set('abcd', 1);
    cache.set('abcd', 2);
    expect([cache.size, cache.totalKeyLength, cache.get('abcd')]).toEqual([1, 4, 2]);
  });
});
