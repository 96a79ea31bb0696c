import { readableSize } from './recipient-files.views';

describe('readableSize', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [1023, '1023 bytes'],
    [1024, '1 KB'],
    [2150, '2.1 KB'],
    [10 * 1024, '10 KB'],
    [1_500_000, '1.4 MB'],
    [256 * 1024 * 1024, '256 MB'],
    [1024 ** 3, '1 GB'],
    [5 * 1024 ** 5, '5120 TB'],
  ])('%d bytes read as %s', (bytes, text) => {
    expect(readableSize(bytes)).toBe(text);
  });
});
