import request from 'supertest';
import { createLogger } from '@secret-push/logger';
import { captureLogs } from '@secret-push/testing';
import { type Harness, createdToken, harness } from './support/helpers';

const logs = captureLogs();
let h: Harness;
beforeAll(async () => {
  h = await harness({ logger: createLogger({ name: 'push', level: 'trace' }, logs.stream) });
});
afterAll(() => h.stop());

const PAYLOAD = 'PAGE-PAYLOAD-c0ffee';
const PASSPHRASE = 'PAGE-PASSPHRASE-horse';
const TARGET = 'https://example.test/PAGE-TARGET-secret-path';

it('logs page requests without url_tokens, payloads, passphrases or URL targets', async () => {
  const t = await createdToken(h.push.url, { payload: PAYLOAD, passphrase: PASSPHRASE }, h.token);
  const u = await createdToken(h.push.url, { kind: 'url', payload: TARGET }, h.token);
  const form = (path: string, body: Record<string, string>) =>
    request(h.push.url).post(path).type('form').send(body);
  await request(h.push.url).get(`/p/${t}`).expect(200);
  await request(h.push.url).get(`/p/${t}/r`).expect(200);
  await request(h.push.url).get(`/f/${t}`).expect(301);
  await request(h.push.url).get(`/r/${t}/r`).expect(301);
  await form(`/p/${t}`, { passphrase: `wrong-${PASSPHRASE}` }).expect(401);
  await form(`/p/${t}`, { passphrase: PASSPHRASE }).expect(200);
  await form(`/p/${t}/delete`, {}).expect(200);
  await form(`/p/${u}`, {}).expect(303);
  const text = logs.text();
  expect(text).toContain('/p/…');
  for (const secret of [t, u, PAYLOAD, PASSPHRASE, 'PAGE-TARGET']) expect(text).not.toContain(secret);
});
