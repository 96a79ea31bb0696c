import { createLogger } from '@secret-push/logger';
import { captureLogs, freePort } from '@secret-push/testing';
import { type TestAuth, startAuth } from '../testing';
import { type Page, hiddenInput } from './support/browser';
import { MAIL_FROM, eventually, forgotLinkIn, postForm, queuedEmails } from './support/mail';
import { Browser, authorize, relyingParty, submit } from './support/relying-party';
import type * as oidc from 'openid-client';

// Email off (no AUTH_SMTP_URL): no "Forgot password?", the reset routes answer 404, no notice is
// queued. SMTP down (nothing listening at AUTH_SMTP_URL): every request still answers as usual; the
// queued email waits, deferred, for the server to come back.

async function consoleOf(
  auth: TestAuth,
  b: Browser,
  who: { email: string; password: string },
): Promise<Page> {
  const login = await b.follow(`${auth.issuer}/account`, new URL(auth.issuer).origin);
  const page = await submit(auth, b, login, { email: who.email, password: who.password });
  expect(page.body).toContain('<h1>Your account</h1>');
  return page;
}

async function changePassword(auth: TestAuth, b: Browser, page: Page, current: string, next: string) {
  return b.post(`${auth.issuer}/account/password`, {
    csrf: hiddenInput(page.body, 'csrf')!,
    current_password: current,
    new_password: next,
    repeat_password: next,
  });
}

describe('email off', () => {
  let auth: TestAuth;
  let rp: oidc.Configuration;
  const logs = captureLogs();
  beforeAll(async () => {
    auth = await startAuth({ logger: createLogger({ name: 'auth', level: 'info' }, logs.stream) });
    rp = (await relyingParty(auth)).rp;
  });
  afterAll(() => auth.stop());

  it('says so once at start, shows no "Forgot password?", answers 404 on the reset routes, queues no notice', async () => {
    expect(logs.text().match(/email is off/g)).toHaveLength(1);
    const b = new Browser();
    const started = await authorize(auth, rp, b);
    expect(started.page.body).toContain('<h1>Sign in</h1>');
    expect(forgotLinkIn(started.page.body)).toBeUndefined();
    expect(started.page.body).not.toContain('Forgot password?');
    const forgot = await b.get(`${started.page.url}/forgot`);
    expect(forgot.status).toBe(404);
    expect(forgot.body).toContain('has not set up email');
    expect((await b.post(`${started.page.url}/forgot`, { email: 'a@example.org' })).status).toBe(404);
    const reset = await b.get(`${auth.issuer}/reset/${'A'.repeat(43)}`);
    expect(reset.status).toBe(404);

    const who = await auth.createUser('off@example.org');
    const page = await consoleOf(auth, b, who);
    expect((await changePassword(auth, b, page, who.password, 'a long new passphrase')).status).toBe(303);
    expect(await queuedEmails(auth.db)).toHaveLength(0);
  });
});

describe('SMTP down', () => {
  let auth: TestAuth;
  let rp: oidc.Configuration;
  beforeAll(async () => {
    auth = await startAuth({
      env: {
        AUTH_SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
        AUTH_MAIL_FROM: MAIL_FROM,
        AUTH_MAIL_POLL_MS: '100',
        AUTH_SMTP_TIMEOUT_MS: '1000',
      },
    });
    rp = (await relyingParty(auth)).rp;
  });
  afterAll(() => auth.stop());

  it('breaks no request: the reset request and a password change answer as usual; their email is deferred', async () => {
    const who = await auth.createUser('down@example.org');
    const b = new Browser();
    const started = await authorize(auth, rp, b);
    const forgot = await b.get(new URL(forgotLinkIn(started.page.body)!, auth.issuer));
    const t0 = Date.now();
    const sent = await postForm(auth, b, forgot, { email: who.email });
    expect(sent.status).toBe(200);
    expect(sent.body).toContain('<h1>Check your email</h1>');
    expect(Date.now() - t0).toBeLessThan(2000);

    const console = new Browser();
    const page = await consoleOf(auth, console, who);
    expect((await changePassword(auth, console, page, who.password, 'a long new passphrase')).status).toBe(
      303,
    );

    await eventually(async () => {
      const rows = await queuedEmails(auth.db, who.email);
      return rows.length === 2 && rows.every((r) => r.status === 'deferred');
    });
    const rows = await queuedEmails(auth.db, who.email);
    expect(rows.map((r) => r.kind)).toEqual(['password_reset', 'password_changed']);
    for (const row of rows) expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);
  });
});
