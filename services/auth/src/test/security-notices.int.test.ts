import { sql } from 'kysely';
import type * as oidc from 'openid-client';
import { createLogger } from '@secret-push/logger';
import { type CaughtMail, type MailCatcher, captureLogs, startMailCatcher } from '@secret-push/testing';
import { type TestAuth, type TestUser, startAuth } from '../testing';
import { SECOND_FACTOR_LOCK_AFTER } from '../users/second-factor';
import { totpCodeAt } from '../users/totp';
import { type Page, hiddenInput } from './support/browser';
import { eventually, mailEnv, queuedEmails } from './support/mail';
import { Browser, authorize, recoveryCodesIn, relyingParty, submit, textOf } from './support/relying-party';
import { userWithTotp } from './support/totp-user';

// The security notices, against a real auth service, database, Redis and SMTP server (the mail
// catcher): each change to how an account signs in (password changed, second factor added,
// removed or locked, recovery codes regenerated) queues its notice in the change's transaction,
// and the sender delivers it to the account's own address, with a text part and an HTML part that
// say the same, never a password, secret or code.

let auth: TestAuth;
let catcher: MailCatcher;
let rp: oidc.Configuration;
const logs = captureLogs();
const secrets: string[] = [];
let ipCounter = 0;

beforeAll(async () => {
  catcher = await startMailCatcher();
  auth = await startAuth({
    env: {
      ...mailEnv(catcher),
      AUTH_TRUSTED_PROXIES: '127.0.0.1',
      AUTH_LOGIN_MAX_PER_ACCOUNT_IP: '1000',
      AUTH_LOGIN_MAX_PER_ACCOUNT: '1000',
    },
    logger: createLogger({ name: 'auth', level: 'debug' }, logs.stream),
  });
  rp = (await relyingParty(auth)).rp;
});
afterAll(async () => {
  await auth.stop();
  await catcher.close();
});

const browser = () => new Browser({ 'x-forwarded-for': `198.18.7.${++ipCounter}` });
const accountUrl = () => `${auth.issuer}/account`;

async function user(email: string): Promise<TestUser> {
  const created = await auth.createUser(email);
  secrets.push(created.password);
  return created;
}

/** /account in `b`, signing in through the normal pages first. */
async function openConsole(b: Browser, who: TestUser): Promise<Page> {
  let page = await b.follow(accountUrl(), new URL(auth.issuer).origin);
  if (!page.body.includes('<h1>Your account</h1>')) {
    page = await submit(auth, b, page, { email: who.email, password: who.password });
  }
  expect(page.body).toContain('<h1>Your account</h1>');
  return page;
}

const post = (b: Browser, page: Page, path: string, fields: Record<string, string>) =>
  b.post(`${auth.issuer}${path}`, { csrf: hiddenInput(page.body, 'csrf')!, ...fields });

/** The notice to `email` whose subject matches. */
const notice = (email: string, subject: RegExp): Promise<CaughtMail> =>
  catcher.waitFor((m) => m.to === email && subject.test(m.subject));

/** What every notice has: to the account only, both parts alike, when and what to do, no secret. */
function expectNotice(mail: CaughtMail, email: string, says: string): void {
  expect(mail.envelope.to).toEqual([email]);
  for (const part of [mail.text, mail.html]) {
    expect(part).toContain(says);
    expect(part).toMatch(/\d{1,2} \w+ \d{4} at \d{2}:\d{2} UTC/);
    expect(part).toContain('If this was not you');
    expect(part).toContain(accountUrl());
    expect(part).toContain(email);
  }
  // The HTML part says what the text part says, paragraph by paragraph.
  const paragraphs = mail.text.trim().split('\n\n');
  const htmlText = mail.html
    .replace(/<br \/>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
  for (const p of paragraphs) expect(htmlText).toContain(p);
  for (const secret of secrets) {
    expect(mail.raw).not.toContain(secret);
  }
}

describe('security notices', () => {
  it('password changed on the account page: queued with the change, sent to the account', async () => {
    const who = await user('notice-pw@example.org');
    const b = browser();
    const page = await openConsole(b, who);
    const next = 'another long passphrase 9';
    secrets.push(next);
    // A refused change queues nothing.
    const wrong = await post(b, page, '/account/password', {
      current_password: 'not the password!',
      new_password: next,
      repeat_password: next,
    });
    expect(wrong.status).toBe(422);
    expect(await queuedEmails(auth.db, who.email)).toHaveLength(0);

    const changed = await post(b, page, '/account/password', {
      current_password: who.password,
      new_password: next,
      repeat_password: next,
    });
    expect(changed.status).toBe(303);
    const rows = await queuedEmails(auth.db, who.email);
    expect(rows.map((r) => [r.kind, r.data])).toEqual([['password_changed', { via: 'console' }]]);
    const mail = await notice(who.email, /password was changed/);
    expectNotice(mail, who.email, 'was changed on the account page');
    await eventually(async () => (await queuedEmails(auth.db, who.email))[0]?.status === 'sent');
  });

  it('second factor added, recovery codes regenerated, second factor removed', async () => {
    const who = await user('notice-2fa@example.org');
    const b = browser();
    const page = await openConsole(b, who);
    const start = await post(b, page, '/account/two-factor/start', {});
    const secret = textOf(start.body, 'totp-secret')!;
    const code = totpCodeAt(secret);
    secrets.push(secret, code);
    const shown = await post(b, start, '/account/two-factor/confirm', { code });
    secrets.push(...recoveryCodesIn(shown.body));
    expectNotice(
      await notice(who.email, /turned on/),
      who.email,
      'Two-factor authentication (an authenticator app) was turned on',
    );

    const on = await b.get(accountUrl());
    const regenerated = await post(b, on, '/account/recovery-codes', { credential: who.password });
    expect(regenerated.status).toBe(200);
    secrets.push(...recoveryCodesIn(regenerated.body));
    expectNotice(
      await notice(who.email, /recovery codes/),
      who.email,
      'A new set of recovery codes was made',
    );

    const removed = await post(b, on, '/account/two-factor/remove', { password: who.password });
    expect(removed.status).toBe(303);
    expectNotice(
      await notice(who.email, /turned off/),
      who.email,
      'Two-factor authentication was turned off',
    );
    expect((await queuedEmails(auth.db, who.email)).map((r) => r.kind)).toEqual([
      'second_factor_added',
      'recovery_codes_regenerated',
      'second_factor_removed',
    ]);
  });

  it('second factor locked by the wrong code that locks it: one notice, not one per later failure', async () => {
    const who = await userWithTotp(auth, 'notice-lock@example.org');
    secrets.push(who.password, who.secret, ...who.recoveryCodes);
    await sql`update account set second_factor_failures = ${SECOND_FACTOR_LOCK_AFTER - 2} where id = ${who.id}`.execute(
      auth.db,
    );
    const valid = new Set([-1, 0, 1].map((o) => totpCodeAt(who.secret, Date.now() + o * 30_000)));
    const wrong = ['000000', '111111', '222222', '333333'].find((c) => !valid.has(c))!;
    for (let i = 0; i < 3; i++) {
      const b = browser();
      const started = await authorize(auth, rp, b);
      const second = await submit(auth, b, started.page, { email: who.email, password: who.password });
      expect((await submit(auth, b, second, { code: wrong })).status).toBe(422);
    }
    const mail = await notice(who.email, /locked/);
    expectNotice(mail, who.email, 'codes from your authenticator app are no longer accepted');
    expect(mail.text).toContain('sign in with one of your recovery codes');
    expect((await queuedEmails(auth.db, who.email)).map((r) => r.kind)).toEqual(['second_factor_locked']);
  });

  it('two replicas share the queue: each of 30 queued notices is sent once', async () => {
    const who = await user('notice-many@example.org');
    const replica = await auth.startReplica();
    try {
      const { rows } = await sql<{ id: string }>`
        insert into auth_email (id, recipient, kind, account_id)
        select gen_random_uuid(), email, 'recovery_codes_regenerated', id
        from account, generate_series(1, 30) where id = ${who.id}
        returning id`.execute(auth.db);
      await eventually(
        async () => (await queuedEmails(auth.db, who.email)).every((r) => r.status === 'sent'),
        20_000,
      );
      const ids = new Set(rows.map((r) => `<${r.id}@example.org>`));
      const caught = catcher.messages.filter((m) => m.to === who.email);
      expect(caught).toHaveLength(30);
      expect(new Set(caught.map((m) => m.messageId))).toEqual(ids);
      expect((await queuedEmails(auth.db, who.email)).every((r) => r.attempts === 1)).toBe(true);
    } finally {
      await replica.close();
    }
  });

  it('a graceful stop waits for the round in flight: no message is left leased; the rest go after the restart', async () => {
    const who = await user('notice-stop@example.org');
    await sql`insert into auth_email (id, recipient, kind, account_id)
      select gen_random_uuid(), email, 'second_factor_added', id
      from account, generate_series(1, 60) where id = ${who.id}`.execute(auth.db);
    await catcher.waitFor((m) => m.to === who.email);
    await auth.stopServer();
    const after = await queuedEmails(auth.db, who.email);
    expect(after.filter((r) => r.status === 'sending')).toEqual([]);
    await auth.startServer();
    await eventually(async () => (await queuedEmails(auth.db, who.email)).every((r) => r.status === 'sent'));
    expect(catcher.messages.filter((m) => m.to === who.email)).toHaveLength(60);
  });

  it('logs no secret', () => {
    expect(logs.text()).toContain('email sent');
    for (const secret of secrets) expect(logs.text()).not.toContain(secret);
  });
});
