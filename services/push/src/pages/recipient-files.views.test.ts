import { withTranslator } from '@secret-push/i18n';
import { pushI18n } from '../languages';
import { readableSize } from './recipient-files.views';

const i18n = pushI18n();

describe('readableSize', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [1023, '1023 bytes'],
    [1024, '1 kB'],
    [2150, '2.1 kB'],
    [10 * 1024, '10 kB'],
    [1_500_000, '1.4 MB'],
    [256 * 1024 * 1024, '256 MB'],
    [1024 ** 3, '1 GB'],
    [5 * 1024 ** 5, '5120 TB'],
  ])('%d bytes read as %s', (bytes, text) => {
    expect(readableSize(bytes)).toBe(text);
  });
});

describe('readableSize in the page’s language', () => {
  it.each([
    ['de', 2150, '2,1 kB'],
    ['de', 512, '512 Byte'],
    ['fr', 1_500_000, '1,4 Mo'],
    ['fr', 512, '512 octets'],
    ['pl', 5, '5 bajtów'],
  ])('%s: %d bytes read as %s', (tag, bytes, text) => {
    expect(
      withTranslator(i18n.translator(tag), () => readableSize(bytes)).replace(/[\u00a0\u202f]/g, ' '),
    ).toBe(text);
  });
});
