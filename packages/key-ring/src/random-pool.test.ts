import { pooledRandomBytes } from './random-pool';

describe('pooledRandomBytes', () => {
  it('hands out values of the asked size, never the same bytes twice, across pool refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const v = pooledRandomBytes(16); // 32,000 bytes: the 4 KiB pool is refilled several times
      expect(v).toHaveLength(16);
      seen.add(v.toString('hex'));
    }
    expect(seen.size).toBe(2000);
    expect(pooledRandomBytes(12)).toHaveLength(12);
    expect(pooledRandomBytes(100)).toHaveLength(100); // larger: straight from the CSPRNG
  });

  it('gives each caller its own copy: changing one value changes no other', () => {
    const a = pooledRandomBytes(16);
    const b = pooledRandomBytes(16);
    const before = b.toString('hex');
    a.fill(0);
    expect(b.toString('hex')).toBe(before);
  });
});
