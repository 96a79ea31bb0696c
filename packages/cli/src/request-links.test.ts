import { BadLinkError, parseRequestRef } from './links.ts';

test('request links: the responder page, the owner page, the JSON URL, a bare token', () => {
  const t = 'AbCdEfGhIjKlMnOpQrStUv';
  expect(parseRequestRef(t)).toEqual({ urlToken: t });
  expect(parseRequestRef(` https://push.example.com/respond/${t} `)).toEqual({
    urlToken: t,
    baseUrl: 'https://push.example.com',
  });
  expect(parseRequestRef(`https://push.example.com/sub/requests/${t}/`)).toEqual({
    urlToken: t,
    baseUrl: 'https://push.example.com/sub',
  });
  expect(parseRequestRef(`http://h:3000/api/v2/requests/${t}.json`)).toEqual({
    urlToken: t,
    baseUrl: 'http://h:3000',
  });
  expect(parseRequestRef(`http://h/api/v2/requests/${t}`).urlToken).toBe(t);
  for (const bad of [`https://h/p/${t}`, `ftp://h/respond/${t}`, 'a b', `https://h/respond/${t}/extra`]) {
    expect(() => parseRequestRef(bad)).toThrow(BadLinkError);
  }
});
