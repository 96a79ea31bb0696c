import { sql } from 'kysely';
import * as oidc from 'openid-client';
import { createLogger } from '@secret-push/logger';
import { type MailCatcher, captureLogs, startMailCatcher } from '@secret-push/testing';
import { type TestAuth, type TestUser, startAuth } from '../testing';
import { totpCodeAt } from '../users/totp';
import type { Page } from './support/browser';
import {
  eventually,
  forgotLinkIn,
  mailEnv,
  postForm,
  queuedEmails,
  resetLinkIn,
  retryNow,
} from './support/mail';
import { Browser, type RelyingParty, authorize, relyingParty, signIn } from './support/relying-party';
import { userWithTotp } from './support/totp-user';

// "Forgot password?" end to end over HTTP against a real auth service, database, Redis and an
// SMTP server in this process (the mail catcher): request → email caught → link → new password →
// sign in with it. 127.0.0.1 is the trusted proxy, so each browser stands for the address it
// sends in X-Forwarded-For. Every secret is remembered; the last test checks none was logged.

let auth: TestAuth;
let catcher: MailCatcher;
let party: RelyingParty;
const logs = captureLogs();
const secrets: string[] = [];
let ipCounter = 0;
const NEW_PASSWORD = 'a brand new passphrase 7';

beforeAll(async () => {
  catcher = await startMailCatcher();
  auth = await startAuth({
    env: {
      ...mailEnv(catcher),
      AUTH_TRUSTED_PROXIES: '127.0.0.1',
      AUTH_PASSWORD_RESET_MAX_PER_EMAIL: '3',
      AUTH_PASSWORD_RESET_MAX_PER_IP: '5',
      AUTH_LOGIN_MAX_PER_ACCOUNT_IP: '50',
    },
    logger: createLogger({ name: 'auth', level: 'debug' }, logs.stream),
  });
  party = await relyingParty(auth);
  secrets.push(NEW_PASSWORD);
});
afterAll(async () => {
  await auth.stop();
  await catcher.close();
});

function browser(): Browser {
  ipCounter += 1;
  return new Browser({ 'x-forwarded-for': `192.0.2.${ipCounter}` });
}

async function user(email: string): Promise<TestUser> {
  const created = await auth.createUser(email);
  secrets.push(created.password);
  return created;
}

/** The "Forgot password?" page reached from the login page of a new sign-in in `b`. */
async function forgotPage(b: Browser): Promise<Page> {
  const started = await authorize(auth, party.rp, b);
  const link = forgotLinkIn(started.page.body);
  expect(link).toBeDefined();
  const page = await b.get(new URL(link!, auth.issuer));
  expect(page.status).toBe(200);
  expect(page.body).toContain('<h1>Reset your password</h1>');
  return page;
}

/** Asks for a reset of `email` from `b`: the answer page. */
async function askReset(b: Browser, email: string): Promise<Page> {
  return postForm(auth, b, await forgotPage(b), { email });
}

/** The reset email of `email` (the `nth` one caught for it, 1 first): its link. */
async function resetLink(email: string, nth = 1): Promise<string> {
  const caught = () => catcher.messages.filter((m) => m.to === email && /^Reset/.test(m.subject));
  await eventually(() => Promise.resolve(caught().length >= nth));
  const mail = caught()[nth - 1]!;
  const link = resetLinkIn(mail, auth.issuer);
  secrets.push(link.slice(link.lastIndexOf('/') + 1));
  return link;
}

async function resetCount(accountId: string): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`select count(*)::int as n from password_reset where account_id = ${accountId}`.execute(auth.db);
  return rows[0]!.n;
}

describe('forgot password', () => {
  it('end to end: the link by email, a new password, sign-in with it; the old one and the old sessions end', async () => {
    const who = await user('reset-ada@example.org');
    const before = await signIn(auth, party, browser(), who);

    const b = browser();
    const sent = await askReset(b, who.email);
    expect(sent.status).toBe(200);
    expect(sent.body).toContain('<h1>Check your email</h1>');
    expect(sent.body).toContain('Back to sign in');

    const link = await resetLink(who.email);
    const mail = catcher.messages.find((m) => m.to === who.email && /^Reset/.test(m.subject))!;
    expect(mail.envelope.to).toEqual([who.email]);
    expect(mail.from).toMatch(/^"?secret-push"? <no-reply@example\.org>$/);
    expect(mail.messageId).toMatch(/^<[0-9a-f-]{36}@example\.org>$/);
    expect(mail.text).toContain('It works once');
    expect(mail.html).toContain('It works once');
    expect(mail.text).not.toContain(who.password);
    // Only the token's hash is stored; the queue row holds it sealed.
    const token = link.slice(link.lastIndexOf('/') + 1);
    const stored = await sql`select * from password_reset`.execute(auth.db);
    // The catcher has the message; the sender marks its row sent just after the SMTP answer.
    let queued = await queuedEmails(auth.db, who.email);
    for (let i = 0; i < 50 && queued[0]?.status !== 'sent'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      queued = await queuedEmails(auth.db, who.email);
    }
    expect(JSON.stringify(stored.rows)).not.toContain(token);
    expect(JSON.stringify(queued)).not.toContain(token);
    expect(queued[0]).toMatchObject({ kind: 'password_reset', status: 'sent', attempts: 1 });

    // Opening the link (as a mail scanner would) changes nothing; the form is there.
    const other = browser();
    const form = await other.get(link);
    expect((await other.get(link)).status).toBe(200);
    expect(form.status).toBe(200);
    expect(form.body).toContain('<h1>Choose a new password</h1>');
    expect(form.body).not.toContain('Authentication code');
    expect(form.headers.get('referrer-policy')).toBe('no-referrer');
    expect(form.headers.get('cache-control')).toBe('no-store');

    const done = await postForm(auth, other, form, {
      new_password: NEW_PASSWORD,
      repeat_password: NEW_PASSWORD,
    });
    expect(done.status).toBe(200);
    expect(done.body).toContain('<h1>Your password has been changed</h1>');
    expect(done.body).toContain('href="/account"');

    // Signed in with the new password; the old one is refused; the earlier sign-in is over.
    await expect(signIn(auth, party, browser(), { ...who, password: NEW_PASSWORD })).resolves.toBeDefined();
    await expect(signIn(auth, party, browser(), who)).rejects.toThrow(/sign-in failed: 422/);
    await expect(oidc.refreshTokenGrant(party.rp, before.refresh_token!)).rejects.toThrow();

    // The "password changed" notice follows.
    const notice = await catcher.waitFor((m) => m.to === who.email && /password was changed/.test(m.subject));
    expect(notice.text).toContain('with a password reset link');
  });

  it('answers an unknown or disabled address with the same page, and queues nothing', async () => {
    const known = await user('reset-known@example.org');
    const disabled = await user('reset-off@example.org');
    expect((await auth.cli('users', 'disable', disabled.email)).code).toBe(0);
    const queuedBefore = (await queuedEmails(auth.db)).length;

    const timed = async (email: string) => {
      const t0 = Date.now();
      const page = await askReset(browser(), email);
      return { page, ms: Date.now() - t0 };
    };
    const forKnown = await timed(known.email);
    const forUnknown = await timed('nobody-here@example.org');
    const forDisabled = await timed(disabled.email);
    for (const [answer, email] of [
      [forUnknown, 'nobody-here@example.org'],
      [forDisabled, disabled.email],
    ] as const) {
      expect(answer.page.status).toBe(forKnown.page.status);
      expect(answer.page.body.replace(email, 'X').replace(/\/interaction\/[^"/]+/g, '')).toBe(
        forKnown.page.body.replace(known.email, 'X').replace(/\/interaction\/[^"/]+/g, ''),
      );
      // Every answer takes at least the floor (the work for a known address hides inside it).
      expect(answer.ms).toBeGreaterThanOrEqual(240);
    }
    expect(forKnown.ms).toBeGreaterThanOrEqual(240);
    await resetLink(known.email);
    // Only the known address got a row.
    expect((await queuedEmails(auth.db)).length).toBe(queuedBefore + 1);
    expect(await resetCount(disabled.id)).toBe(0);
  });

  it('refuses an address that cannot be one (422) and a form without its token or from another site (403)', async () => {
    const b = browser();
    const page = await forgotPage(b);
    const bad = await postForm(auth, b, page, { email: 'not an address' });
    expect(bad.status).toBe(422);
    expect(bad.body).toContain('Enter the email address of your account.');
    const noToken = await b.post(new URL(`${page.url}`), { email: 'x@example.org' });
    expect(noToken.status).toBe(403);
    const crossSite = await postForm(
      auth,
      b,
      page,
      { email: 'x@example.org' },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(crossSite.status).toBe(403);
  });
});

describe('the throttles', () => {
  it('per address: the 4th request for one address within the window is refused (429), from any IP', async () => {
    const who = await user('reset-flood@example.org');
    for (let i = 0; i < 3; i++) expect((await askReset(browser(), who.email)).status).toBe(200);
    const refused = await askReset(browser(), who.email);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.body).toContain('Too many password reset requests');
    // Unknown addresses are counted alike.
    for (let i = 0; i < 3; i++) expect((await askReset(browser(), 'ghost@example.org')).status).toBe(200);
    expect((await askReset(browser(), 'ghost@example.org')).status).toBe(429);
  });

  it('per IP: the 6th request from one address within the window is refused (429), whatever the addresses', async () => {
    const b = browser();
    for (let i = 0; i < 5; i++) expect((await askReset(b, `spray-${i}@example.org`)).status).toBe(200);
    expect((await askReset(b, 'spray-5@example.org')).status).toBe(429);
    expect((await askReset(browser(), 'spray-5@example.org')).status).toBe(200);
  });
});

describe('the link', () => {
  it('works once: a second use gets the "no longer works" page, and changes nothing', async () => {
    const who = await user('reset-once@example.org');
    await askReset(browser(), who.email);
    const link = await resetLink(who.email);
    const b = browser();
    const form = await b.get(link);
    expect(
      (await postForm(auth, b, form, { new_password: NEW_PASSWORD, repeat_password: NEW_PASSWORD })).status,
    ).toBe(200);
    const again = await postForm(auth, b, form, {
      new_password: 'yet another passphrase',
      repeat_password: 'yet another passphrase',
    });
    expect(again.status).toBe(410);
    expect(again.body).toContain('<h1>This link no longer works</h1>');
    expect((await b.get(link)).status).toBe(410);
    await expect(signIn(auth, party, browser(), { ...who, password: NEW_PASSWORD })).resolves.toBeDefined();
  });

  it('expires; a newer reset voids the older link; an unknown token gets the same page', async () => {
    const who = await user('reset-void@example.org');
    await askReset(browser(), who.email);
    const first = await resetLink(who.email, 1);
    await askReset(browser(), who.email);
    const second = await resetLink(who.email, 2);
    expect(second).not.toBe(first);
    expect((await browser().get(first)).status).toBe(410);
    expect((await browser().get(second)).status).toBe(200);

    await sql`update password_reset set expires_at = now() - interval '1 second' where account_id = ${who.id}`.execute(
      auth.db,
    );
    const expired = await browser().get(second);
    expect(expired.status).toBe(410);
    const unknown = await browser().get(`${auth.issuer}/reset/${'A'.repeat(43)}`);
    expect(unknown.status).toBe(410);
    // The language selector returns to the path asked for: the only part that may differ.
    const same = (body: string) => body.replace(/name="back" value="[^"]*"/g, '');
    expect(same(unknown.body)).toBe(same(expired.body));
    expect(same((await browser().get(`${auth.issuer}/reset/short`)).body)).toBe(same(expired.body));
  });

  it('keeps the link when the new password is refused (rules, mismatch), and refuses a form without its token', async () => {
    const who = await user('reset-rules@example.org');
    await askReset(browser(), who.email);
    const link = await resetLink(who.email);
    const b = browser();
    const form = await b.get(link);
    const short = await postForm(auth, b, form, { new_password: 'short', repeat_password: 'short' });
    expect(short.status).toBe(422);
    expect(short.body).toContain('at least 12 characters');
    const mismatch = await postForm(auth, b, form, {
      new_password: NEW_PASSWORD,
      repeat_password: `${NEW_PASSWORD}!`,
    });
    expect(mismatch.body).toContain('The new passwords do not match.');
    expect((await b.post(link, { new_password: NEW_PASSWORD, repeat_password: NEW_PASSWORD })).status).toBe(
      403,
    );
    const crossSite = await postForm(
      auth,
      b,
      form,
      { new_password: NEW_PASSWORD, repeat_password: NEW_PASSWORD },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(crossSite.status).toBe(403);
    expect(
      (await postForm(auth, b, form, { new_password: NEW_PASSWORD, repeat_password: NEW_PASSWORD })).status,
    ).toBe(200);
  });
});

describe('with a second factor', () => {
  it('asks for a code: none or a wrong one is refused and counted; a right one (or a recovery code) sets the password', async () => {
    const who = await userWithTotp(auth, 'reset-totp@example.org');
    secrets.push(who.password, who.secret, ...who.recoveryCodes);
    await askReset(browser(), who.email);
    const link = await resetLink(who.email);
    const b = browser();
    const form = await b.get(link);
    expect(form.body).toContain('<label for="code">Authentication code</label>');
    const fields = { new_password: NEW_PASSWORD, repeat_password: NEW_PASSWORD };

    const none = await postForm(auth, b, form, fields);
    expect(none.status).toBe(422);
    expect(none.body).toContain('Incorrect code.');
    const wrong = await postForm(auth, b, form, {
      ...fields,
      code: '000000' === totpCodeAt(who.secret) ? '111111' : '000000',
    });
    expect(wrong.status).toBe(422);
    const { rows } = await sql<{
      f: number;
    }>`select second_factor_failures as f from account where id = ${who.id}`.execute(auth.db);
    expect(rows[0]!.f).toBe(2);
    // Nothing changed yet: the old password still signs in (to the second step).
    const code = totpCodeAt(who.secret);
    secrets.push(code);
    const done = await postForm(auth, b, form, { ...fields, code });
    expect(done.status).toBe(200);
    expect(done.body).toContain('Your password has been changed');

    // A second account resets with a recovery code.
    const other = await userWithTotp(auth, 'reset-recovery@example.org');
    secrets.push(other.password, other.secret, ...other.recoveryCodes);
    await askReset(browser(), other.email);
    const otherForm = await b.get(await resetLink(other.email));
    expect((await postForm(auth, b, otherForm, { ...fields, code: other.recoveryCodes[0]! })).status).toBe(
      200,
    );
  });

  it('voids the link after 5 wrong codes (429), as a sign-in ends after 5', async () => {
    const who = await userWithTotp(auth, 'reset-guess@example.org');
    secrets.push(who.password, who.secret, ...who.recoveryCodes);
    await askReset(browser(), who.email);
    const link = await resetLink(who.email);
    const b = browser();
    const form = await b.get(link);
    const fields = { new_password: NEW_PASSWORD, repeat_password: NEW_PASSWORD, code: 'aaaaa-bbbbb' };
    for (let i = 0; i < 4; i++) expect((await postForm(auth, b, form, fields)).status).toBe(422);
    const fifth = await postForm(auth, b, form, fields);
    expect(fifth.status).toBe(429);
    expect(fifth.body).toContain('no longer works after too many wrong codes');
    expect((await b.get(link)).status).toBe(410);
  });
});

describe('delivery', () => {
  it('retries a temporary SMTP failure (451) and sends it', async () => {
    const who = await user('reset-451@example.org');
    catcher.fail({ code: 451, to: who.email }, 1);
    await askReset(browser(), who.email);
    await eventually(async () => (await queuedEmails(auth.db, who.email))[0]?.status === 'deferred');
    const [deferred] = await queuedEmails(auth.db, who.email);
    expect(deferred!.last_error).toMatch(/451/);
    await retryNow(auth.db);
    const link = await resetLink(who.email);
    expect(link).toMatch(/\/reset\//);
    // The catcher has the message; the sender marks its row sent just after the SMTP answer.
    await eventually(async () => (await queuedEmails(auth.db, who.email))[0]?.status === 'sent');
    const [sent] = await queuedEmails(auth.db, who.email);
    expect(sent).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('never logs a password, a reset token or a code', () => {
    const text = logs.text();
    expect(text).toContain('password reset requested');
    expect(text).toContain('"/reset/:token"');
    for (const secret of secrets) expect(text).not.toContain(secret);
  });
});
