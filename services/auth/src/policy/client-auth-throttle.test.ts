import { basicClientId } from './client-auth-throttle';

const basic = (raw: string) => `Basic ${Buffer.from(raw).toString('base64')}`;

describe('basicClientId', () => {
  it('decodes the client id as RFC 6749 §2.3.1 encodes it', () => {
    expect(basicClientId(basic('my%20client:secret'))).toBe('my client');
    expect(basicClientId(basic('a+b:s'))).toBe('a b');
    expect(basicClientId(`bAsIc ${Buffer.from('id:s').toString('base64')}`)).toBe('id');
  });

  it('is undefined without a usable Basic header', () => {
    expect(basicClientId(undefined)).toBeUndefined();
    expect(basicClientId('Bearer abc')).toBeUndefined();
    expect(basicClientId(basic('no-colon'))).toBeUndefined();
    expect(basicClientId(basic(':secret'))).toBeUndefined();
    expect(basicClientId(basic('%E0%A4%A:s'))).toBeUndefined();
  });
});
