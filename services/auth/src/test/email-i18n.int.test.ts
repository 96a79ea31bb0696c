import { createLogger } from '@secret-push/logger';
import { type CaughtMail, type MailCatcher, captureLogs, startMailCatcher } from '@secret-push/testing';
import { type TestAuth, type TestUser, startAuth } from '../testing';
import { type Page, hiddenInput } from './support/browser';
import { eventually, mailEnv, postForm, queuedEmails, resetLinkIn } from './support/mail';
import { Browser, type RelyingParty, authorize, relyingParty, submit } from './support/relying-party';

// The auth service's emails in the language of the request that caused them, against a real auth
// service, database, Redis and SMTP server (the mail catcher): a password reset asked for in German
// arrives in German (subject, text and HTML parts, the dates), its row's `locale` is `de`; one asked
// for with the pseudo-locale is queued in the default language (en-XA never goes into an email); a
// security notice caused on the German account page is German too.

let auth: TestAuth;
let catcher: MailCatcher;
let party: RelyingParty;
const logs = captureLogs();
let ipCounter = 0;

beforeAll(async () => {
  catcher = await startMailCatcher();
  auth = await startAuth({
    env: { ...mailEnv(catcher), AUTH_TRUSTED_PROXIES: '127.0.0.1' },
    logger: createLogger({ name: 'auth', level: 'debug' }, logs.stream),
  });
  party = await relyingParty(auth);
});
afterAll(async () => {
  await auth.stop();
  await catcher.close();
});

function browser(language: string): Browser {
  ipCounter += 1;
  return new Browser({ 'x-forwarded-for': `192.0.2.${100 + ipCounter}`, 'accept-language': language });
}

/** Asks for a password reset of `email` from the "Forgot password?" page of a new sign-in in `b`. */
async function askReset(b: Browser, email: string): Promise<Page> {
  const started = await authorize(auth, party.rp, b);
  const link = /href="(\/interaction\/[^"]+\/forgot)"/.exec(started.page.body)?.[1];
  expect(link).toBeDefined();
  const forgot = await b.get(new URL(link!, auth.issuer));
  expect(forgot.status).toBe(200);
  return postForm(auth, b, forgot, { email });
}

const mailTo = (email: string): Promise<CaughtMail> => catcher.waitFor((m) => m.to === email);

/** The HTML part's text (tags dropped, entities read), to compare with the text part. */
const htmlText = (mail: CaughtMail) =>
  mail.html
    .replace(/<br \/>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");

/** Both parts say the same, paragraph by paragraph (a link: its address in text, a label in HTML). */
function expectSameParts(mail: CaughtMail): void {
  const html = htmlText(mail);
  for (const p of mail.text.trim().split('\n\n')) {
    for (const line of p.split('\n')) if (!line.includes('/reset/')) expect(html).toContain(line);
  }
}

describe('emails in the language of the request that caused them', () => {
  it('a password reset asked for in German arrives in German; its row says de', async () => {
    const who = await auth.createUser('reset-de@example.org');
    const sent = await askReset(browser('de-DE,de;q=0.9'), who.email);
    expect(sent.status).toBe(200);
    const mail = await mailTo(who.email);
    expect(mail.subject).toBe('Setzen Sie Ihr Passwort für secret-push zurück');
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain(
        `wurde angefordert, das Passwort des secret-push-Kontos ${who.email} zurückzusetzen.`,
      );
      expect(part).toContain('Er funktioniert nur einmal');
      // Dates in German: "1. Dezember 2026 um 10:00 UTC".
      expect(part).toMatch(/Am \d{1,2}\. [A-Za-zä]+ \d{4} um \d{2}:\d{2} UTC wurde angefordert/);
      expect(part).not.toContain('It works once');
    }
    expect(mail.html).toContain('<html lang="de">');
    expect(mail.html).toContain('>Neues Passwort festlegen</a>');
    resetLinkIn(mail, auth.issuer);
    expectSameParts(mail);
    const rows = await queuedEmails(auth.db, who.email);
    expect(rows.map((r) => [r.kind, r.locale])).toEqual([['password_reset', 'de']]);
  });

  it('French and Polish too: each reset in its own language', async () => {
    const fr = await auth.createUser('reset-fr@example.org');
    const pl = await auth.createUser('reset-pl@example.org');
    await askReset(browser('fr-FR'), fr.email);
    await askReset(browser('pl'), pl.email);
    const [frMail, plMail] = await Promise.all([mailTo(fr.email), mailTo(pl.email)]);
    expect(frMail.subject).toBe('Réinitialisez votre mot de passe secret-push');
    expect(frMail.text).toMatch(/le \d{1,2} [a-zéû]+ \d{4} à \d{2}:\d{2} UTC\./);
    expect(frMail.html).toContain('<html lang="fr">');
    expect(plMail.subject).toBe('Zresetuj hasło w usłudze secret-push');
    expect(plMail.html).toContain('<html lang="pl">');
    expectSameParts(frMail);
    expectSameParts(plMail);
    expect((await queuedEmails(auth.db, fr.email))[0]?.locale).toBe('fr');
    expect((await queuedEmails(auth.db, pl.email))[0]?.locale).toBe('pl');
  });

  it('the pseudo-locale never goes into an email: queued in the default language', async () => {
    const who = await auth.createUser('reset-xa@example.org');
    const sent = await askReset(browser('en-XA'), who.email);
    expect(sent.status).toBe(200);
    const mail = await mailTo(who.email);
    expect(mail.subject).toBe('Reset your secret-push password');
    expect(mail.text).toContain('It works once, and a newer request replaces it.');
    expect(mail.text).toMatch(/on \d{1,2} [A-Z][a-z]+ \d{4} at \d{2}:\d{2} UTC\./);
    expect(mail.html).toContain('<html lang="en">');
    expect((await queuedEmails(auth.db, who.email))[0]?.locale).toBe('en');
  });

  it('a security notice caused on the German account page is German', async () => {
    const who: TestUser = await auth.createUser('notice-de@example.org');
    const b = browser('de-DE');
    let page = await b.follow(`${auth.issuer}/account`, new URL(auth.issuer).origin);
    page = await submit(auth, b, page, { email: who.email, password: who.password });
    expect(page.url).toBe(`${auth.issuer}/account`);
    const next = 'ein neues langes Passwort';
    const changed = await b.post(`${auth.issuer}/account/password`, {
      csrf: hiddenInput(page.body, 'csrf')!,
      current_password: who.password,
      new_password: next,
      repeat_password: next,
    });
    expect(changed.status).toBe(303);
    const mail = await mailTo(who.email);
    expect(mail.subject).toBe('Ihr Passwort für secret-push wurde geändert');
    expect(mail.text).toContain(`Das Passwort Ihres secret-push-Kontos ${who.email} wurde am `);
    expect(mail.text).toContain('auf der Kontoseite geändert.');
    expect(mail.text).toContain('Falls Sie das nicht waren');
    expect(mail.text).toContain('„Passwort vergessen?“');
    expect(mail.text).toContain(`${auth.issuer}/account`);
    expectSameParts(mail);
    await eventually(async () => (await queuedEmails(auth.db, who.email))[0]?.status === 'sent');
    expect((await queuedEmails(auth.db, who.email))[0]?.locale).toBe('de');
  });
});
