/**
 * A small least-recently-used map from strings (request headers) to values, bounded by its number
 * of entries and by the total length of its keys, so that hostile, ever-different headers cannot
 * grow memory: they only push older entries out. A key longer than `maxKeyLength` is never stored
 * (the caller computes its value each time). Lengths count UTF-16 code units, one byte each for the
 * Latin-1 text of HTTP headers.
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, V>();
  private keyLength = 0;

  constructor(
    readonly limits: {
      readonly maxEntries: number;
      readonly maxKeyLength: number;
      readonly maxTotalKeyLength: number;
    },
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The total length of the stored keys. */
  get totalKeyLength(): number {
    return this.keyLength;
  }

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Most recently used last: the first entry is the one to evict.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    if (key.length > this.limits.maxKeyLength) return;
    if (this.entries.delete(key)) this.keyLength -= key.length;
    while (
      this.entries.size > 0 &&
      (this.entries.size >= this.limits.maxEntries ||
        this.keyLength + key.length > this.limits.maxTotalKeyLength)
    ) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
      this.keyLength -= oldest.length;
    }
    this.entries.set(key, value);
    this.keyLength += key.length;
  }

  /** Is getting `key` going to be remembered? (Keys over `maxKeyLength` never are.) */
  accepts(key: string): boolean {
    return key.length <= this.limits.maxKeyLength;
  }
}
