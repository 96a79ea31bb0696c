import { createLogger } from '@secret-push/logger';
import { freePort } from '@secret-push/testing';
import { loadPushConfig } from '../config';
import { startPushServer } from '../server';
import { type TestPush, type TestWebStack, startWebStack } from '../testing';
import { Browser } from './support/browser';

/*
 * One session re-check at a time, against the real auth service (its refresh tokens rotate, and a
 * used one presented again revokes the whole grant): parallel requests after the re-check
 * interval, on one replica and on two sharing Redis, keep the person signed in; the session's
 * refresh token moved on once per interval, and the next re-check still succeeds.
 */
let stack: TestWebStack;
let push: TestPush;
let replica: Awaited<ReturnType<typeof startPushServer>>;

beforeAll(async () => {
  stack = await startWebStack({ pushEnv: { PUSH_SESSION_RECHECK_SECONDS: '1' } });
  push = stack.push;
  const port = await freePort();
  replica = await startPushServer(
    loadPushConfig({ ...push.env, PUSH_PORT: String(port) }),
    createLogger({ name: 'push-replica', level: 'silent' }),
  );
}, 60_000);
afterAll(async () => {
  await replica?.close();
  await stack?.stop();
});

const pastInterval = () => new Promise((r) => setTimeout(r, 1100));

async function signedIn(b: Browser): Promise<void> {
  const landed = await b.signIn(push.url, stack.auth.issuer, {
    email: stack.user.email,
    password: stack.user.password,
  });
  expect(landed.body).toContain('Signed in as');
}

/** `n` requests at once to `/users/token`, alternating between `urls`; their statuses and pages. */
async function inParallel(b: Browser, urls: string[], n: number) {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const res = await b.fetch(`${urls[i % urls.length]}/users/token`);
      return { status: res.status, body: await res.text() };
    }),
  );
}

it('parallel requests after the re-check interval keep the session (one replica)', async () => {
  const b = new Browser();
  await signedIn(b);
  for (let round = 0; round < 3; round++) {
    await pastInterval();
    const answers = await inParallel(b, [push.url], 5);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body).toContain('Signed in as');
    }
    expect(b.cookies.has('sp_session')).toBe(true);
  }
  // The grant survived: a later re-check still gets a new refresh token.
  await pastInterval();
  expect((await b.follow(`${push.url}/users/token`)).body).toContain('Signed in as');
}, 60_000);

it('parallel requests after the interval, spread over two replicas sharing Redis, keep the session', async () => {
  const b = new Browser();
  await signedIn(b);
  for (let round = 0; round < 2; round++) {
    await pastInterval();
    const answers = await inParallel(b, [push.url, replica.url], 6);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const a of answers) expect(a.body).toContain('Signed in as');
  }
  await pastInterval();
  expect((await b.follow(`${replica.url}/users/token`)).body).toContain('Signed in as');
}, 60_000);

it('a refresh refused by the provider still ends the session for every waiting request', async () => {
  const b = new Browser();
  await signedIn(b);
  // Disabled at the provider: the next refresh is refused.
  expect((await stack.auth.cli('users', 'disable', stack.user.email)).code).toBe(0);
  try {
    await pastInterval();
    const answers = await inParallel(b, [push.url, replica.url], 4);
    for (const a of answers) expect(a.status).toBe(303); // to /sign-in: nobody signed in
    expect(b.cookies.has('sp_session')).toBe(false);
  } finally {
    expect((await stack.auth.cli('users', 'enable', stack.user.email)).code).toBe(0);
  }
}, 60_000);
