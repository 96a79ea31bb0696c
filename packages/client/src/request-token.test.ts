import { requestToken } from './requests.ts';
import { createApi } from './request.ts';

test('requestToken: a bare token, or a link on the client origin; anything else a TypeError', () => {
  const api = createApi({ baseUrl: 'https://push.example.com/sub' });
  const t = 'AbCdEfGhIjKlMnOpQrStUv';
  expect(requestToken(api, t)).toBe(t);
  expect(requestToken(api, `https://push.example.com/sub/respond/${t}`)).toBe(t);
  expect(requestToken(api, `https://push.example.com/sub/requests/${t}`)).toBe(t);
  expect(requestToken(api, `https://push.example.com/sub/api/v2/requests/${t}.json`)).toBe(t);
  for (const bad of [
    '../pushes/active',
    'a b',
    `https://elsewhere.example/respond/${t}`,
    `https://push.example.com/p/${t}`,
    'https://push.example.com/api/v2/requests/active',
  ]) {
    expect(() => requestToken(api, bad)).toThrow(TypeError);
  }
});
