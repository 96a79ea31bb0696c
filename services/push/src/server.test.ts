import { maskUrlToken } from './server';

describe('maskUrlToken (url_tokens never reach the logs)', () => {
  it.each([
    ['/api/v2/pushes/SECRETtoken', '/api/v2/pushes/…'],
    ['/API/V2/PUSHES/SECRETtoken/audit', '/API/V2/PUSHES/…/audit'],
    ['/Api/v2/Pushes/SECRETtoken.json', '/Api/v2/Pushes/…'],
    ['/p/SECRETtoken/r', '/p/…/r'],
    ['/pushes/SECRETtoken/audit', '/pushes/…/audit'], // the web app's pages
    ['/pushes/SECRETtoken/expire', '/pushes/…/expire'],
    ['/P/SECRETtoken', '/P/…'],
    ['/api/v2/pushes/active', '/api/v2/pushes/active'],
    ['/api/v2/pushes/EXPIRED.json', '/api/v2/pushes/EXPIRED.json'],
    ['/api/v2/pushes/activeSECRET', '/api/v2/pushes/…'],
  ])('%s → %s', (path, masked) => {
    expect(maskUrlToken(path)).toBe(masked);
  });
});
