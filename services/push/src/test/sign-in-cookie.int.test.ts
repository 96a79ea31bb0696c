import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Redis } from 'ioredis';
import { createLogger } from '@secret-push/logger';
import { freePort } from '@secret-push/testing';
import { createUserTokenService } from '../domain/user-tokens';
import { createRelyingParty } from '../session/relying-party';
import { SessionStore } from '../session/session-store';
import { createWebSessions } from '../session/web-session';
import { createUserRepository } from '../storage/user.repository';
import { type TestPush, startPush } from '../testing';
import { type Harness, harness } from './support/helpers';

/*
 * The session cookie in production (a secure origin): `__Host-sp_session`, Secure, path `/`, no
 * domain, and a browser-session cookie (no Max-Age or Expires). A push service in production
 * whose issuer is never asked (a session fresh from sign-in is not re-checked): a session made
 * in its Redis is read from the `__Host-` cookie only, so the rename signs everyone out once.
 */
let h: Harness;
let push: TestPush;
let redis: Redis;
let store: SessionStore;
let userId: string;

beforeAll(async () => {
  h = await harness();
  const port = await freePort();
  push = await startPush(h.auth, {
    env: {
      NODE_ENV: 'production',
      PUSH_PORT: String(port),
      PUSH_PUBLIC_URL: `http://127.0.0.1:${port}`,
      PUSH_OIDC_ISSUER: 'https://issuer.invalid',
      PUSH_OIDC_CLIENT_ID: 'push-web',
      PUSH_OIDC_CLIENT_SECRET: 'push-web-secret',
    },
  });
  redis = new Redis(push.env.PUSH_REDIS_URL!);
  store = new SessionStore(redis, push.env.PUSH_REDIS_PREFIX!, { idleSeconds: 600, absoluteSeconds: 3600 });
  const users = createUserTokenService({ store: createUserRepository(push.db) });
  const user = await users.upsertUser({
    issuer: 'https://issuer.invalid',
    subject: 'hana',
    email: 'hana@example.org',
    emailVerified: true,
  });
  userId = user.id;
}, 60_000);
afterAll(async () => {
  redis?.disconnect();
  await push?.stop();
  await h?.stop();
});

const newSession = () =>
  store.create({
    userId,
    issuer: 'https://issuer.invalid',
    subject: 'hana',
    email: 'hana@example.org',
    emailVerified: true,
    createdAt: Date.now(),
    checkedAt: Date.now(),
    csrf: randomBytes(32).toString('base64url'),
  });

it('production reads the session from __Host-sp_session only, and clears it Secure at sign-out', async () => {
  const id = await newSession();
  const page = (cookie: string) => fetch(`${push.url}/`, { headers: { cookie } }).then((r) => r.text());
  expect(await page(`__Host-sp_session=${id}`)).toContain('Signed in as <strong>hana@example.org</strong>');
  // The old name is not read: everyone signed in before the rename signs in again, once.
  expect(await page(`sp_session=${id}`)).toContain('<a href="/sign-in">Sign in</a>');

  const csrf = /name="csrf" value="([^"]+)"/.exec(await page(`__Host-sp_session=${id}`))![1]!;
  const out = await fetch(`${push.url}/sign-out`, {
    method: 'POST',
    headers: {
      cookie: `__Host-sp_session=${id}`,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: `csrf=${csrf}`,
    redirect: 'manual',
  });
  const cleared = out.headers.getSetCookie().find((c) => c.startsWith('__Host-sp_session='))!;
  expect(cleared).toMatch(/; Path=\/(;|$)/);
  expect(cleared).toMatch(/; Secure/);
  expect(cleared).not.toMatch(/Domain=/i);
  expect(await store.get(id)).toBeUndefined();
});

it('a session cookie set with secure cookies is __Host-, Secure, HttpOnly, SameSite=Lax, path /, without Max-Age or Expires', async () => {
  const sessions = createWebSessions({
    store,
    relyingParty: createRelyingParty({
      issuer: 'https://issuer.invalid',
      clientId: 'push-web',
      clientSecret: 'push-web-secret',
      redirectUri: `${push.url}/sign-in/callback`,
      postLogoutRedirectUri: `${push.url}/signed-out`,
      allowInsecureRequests: false,
      timeoutSeconds: 1,
    }),
    users: createUserTokenService({ store: createUserRepository(push.db) }),
    settings: { cookieName: 'sp_session', secureCookies: true, recheckSeconds: 60 },
    logger: createLogger({ name: 'test', level: 'silent' }),
  });
  expect(sessions.pendingCookieName).toBe('__Secure-sp_session_sign_in');
  const app = express();
  app.get('/', (_req, res) => {
    sessions.setCookie(res, 'the-session-id');
    res.end();
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const [cookie] = res.headers.getSetCookie();
    expect(cookie).toBe('__Host-sp_session=the-session-id; Path=/; HttpOnly; Secure; SameSite=Lax');
  } finally {
    await new Promise((r) => server.close(r));
  }
});
