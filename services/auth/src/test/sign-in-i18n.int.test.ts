import { type MailCatcher, startMailCatcher, untranslatedText } from '@secret-push/testing';
import { type TestAuth, startAuth } from '../testing';
import { totpCodeAt } from '../users/totp';
import { type Page, formAction } from './support/browser';
import { eventually, mailEnv, resetLinkIn } from './support/mail';
import {
  Browser,
  type RelyingParty,
  authorize,
  relyingParty,
  submitForm,
  textOf,
} from './support/relying-party';
import { userWithTotp } from './support/totp-user';

// The sign-in service's pages in the person's language (issue 30): German for `Accept-Language:
// de-DE`, and nothing left untranslated under the pseudo-locale en-XA (every catalogue letter
// accented: what stays plain ASCII bypassed the catalogue). Every page of a sign-in: login, a wrong
// password, sign-up, second factor, enrolment (QR), recovery codes, forgot / reset (valid and used
// link), logout, the 404 page, a provider error page; and the language selector's POST /language.
// AUTH_REQUIRE_TOTP is on, so that a password alone leads to the enrolment page.

let auth: TestAuth;
let catcher: MailCatcher;
let party: RelyingParty;
let ip = 0;

beforeAll(async () => {
  catcher = await startMailCatcher();
  auth = await startAuth({
    env: {
      ...mailEnv(catcher),
      AUTH_SELF_SIGNUP: 'true',
      AUTH_REQUIRE_TOTP: 'true',
      AUTH_TRUSTED_PROXIES: '127.0.0.1',
    },
  });
  party = await relyingParty(auth);
});
afterAll(async () => {
  await auth.stop();
  await catcher.close();
});

/** A browser in `language` (its Accept-Language), from an address of its own (no shared throttle). */
function browser(language: string): Browser {
  ip += 1;
  return new Browser({ 'accept-language': language, 'x-forwarded-for': `198.51.100.${ip}` });
}

const CLIENT = 'Push web app';
/** What the pages show that is data, not text: the brand, the client's name, the test's addresses. */
const DATA: (string | RegExp)[] = [
  'secret-push',
  CLIENT,
  /^[a-z0-9.-]+@example\.org$/,
  // The frame's technical <meta> values (viewport, robots, referrer).
  'width=device-width, initial-scale=1',
  'noindex, nofollow',
  'no-referrer',
];

/** German, `lang="de"`, and each of `phrases`. */
function expectGerman(page: Page, ...phrases: string[]): void {
  expect(page.body).toContain('<html lang="de" dir="ltr">');
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  for (const phrase of phrases) expect(page.body).toContain(phrase);
}

/** Under en-XA: nothing but the data of the page in plain ASCII. */
function expectTranslated(page: Page, allow: (string | RegExp)[] = []): void {
  expect(page.body).toContain('<html lang="en-XA" dir="ltr">');
  expect(untranslatedText(page.body, [...DATA, ...allow])).toEqual([]);
}

const at = (path: string) => new URL(path, auth.issuer);
const linkIn = (page: Page, path: RegExp) =>
  new RegExp(`<a href="(/interaction/[^"]+${path.source})"`).exec(page.body)?.[1];

/** A person signed in in `b` (a new account with a second factor: AUTH_REQUIRE_TOTP is on). */
async function signedIn(b: Browser, email: string): Promise<void> {
  const who = await userWithTotp(auth, email);
  const second = await submitForm(auth, b, await loginPage(b), { email: who.email, password: who.password });
  const back = await submitForm(auth, b, second, { code: totpCodeAt(who.secret) });
  expect(back.status).toBe(303);
}

/** The logout confirmation's "Sign out" (the provider's xsrf token), followed to the signed-out page. */
function confirmLogout(b: Browser, page: Page): Promise<Page> {
  const xsrf = /<input type="hidden" name="xsrf" value="([^"]*)"/.exec(page.body)![1]!;
  return b.follow(
    '',
    new URL(auth.issuer).origin,
    b.post(at(formAction(page.body)!), { xsrf, logout: 'yes' }),
  );
}

/** A new sign-in in `b` up to its login page. */
async function loginPage(b: Browser): Promise<Page> {
  const started = await authorize(auth, party.rp, b);
  expect(started.page.status).toBe(200);
  return started.page;
}

describe('the sign-in pages in German', () => {
  it('the login page, a wrong password, and the sign-up page with a refused form', async () => {
    const b = browser('de-DE,de;q=0.9,en;q=0.5');
    const login = await loginPage(b);
    expectGerman(
      login,
      '<title>Anmelden · secret-push</title>',
      '<h1>Anmelden</h1>',
      'um mit <strong>Push web app</strong> fortzufahren',
      '<label for="password">Passwort</label>',
      'Passwort vergessen?',
      'Noch kein Konto? <a href="',
      'Ohne Anmeldung zurück zu Push web app.',
    );

    const wrong = await submitForm(auth, b, login, {
      email: 'nobody@example.org',
      password: 'wrong password 1',
    });
    expect(wrong.status).toBe(422);
    expectGerman(wrong, 'E-Mail-Adresse oder Passwort ist falsch.', 'value="nobody@example.org"');

    const signup = await b.get(at(linkIn(wrong, /\/signup/)!));
    expectGerman(signup, '<h1>Konto erstellen</h1>', 'Mindestens 12 Zeichen.', 'Passwort wiederholen');
    const refused = await submitForm(auth, b, signup, {
      email: 'neu@example.org',
      password: 'ein langes Passwort 1',
      password_again: 'ein anderes Passwort 2',
    });
    expect(refused.status).toBe(422);
    expectGerman(refused, 'Die beiden Passwörter stimmen nicht überein.');
    const short = await submitForm(auth, b, refused, {
      email: 'neu@example.org',
      password: 'kurz',
      password_again: 'kurz',
    });
    expectGerman(short, 'Das Passwort muss mindestens 12 Zeichen lang sein.');
  });

  it('the second factor, with a wrong code', async () => {
    const who = await userWithTotp(auth, 'zweiter-faktor@example.org');
    const b = browser('de');
    const second = await submitForm(auth, b, await loginPage(b), {
      email: who.email,
      password: who.password,
    });
    expect(second.status).toBe(200);
    expectGerman(
      second,
      '<h1>Zwei-Faktor-Authentifizierung</h1>',
      'Bestätigungscode',
      '>Bestätigen</button>',
    );
    const wrong = await submitForm(auth, b, second, {
      code: '000000' === totpCodeAt(who.secret) ? '111111' : '000000',
    });
    expect(wrong.status).toBe(422);
    expectGerman(wrong, 'Falscher Code.');
  });

  it('the enrolment (QR code) and the recovery codes, their script messages and the downloaded file', async () => {
    const who = await auth.createUser('einrichten@example.org');
    const b = browser('de-AT');
    const enrol = await submitForm(auth, b, await loginPage(b), { email: who.email, password: who.password });
    expect(enrol.status).toBe(200);
    expectGerman(
      enrol,
      '<h1>Zwei-Faktor-Authentifizierung einrichten</h1>',
      'Richten Sie sie ein, um mit Push web app fortzufahren.',
      'QR-Code scannen:',
      '<svg aria-hidden="true"',
    );
    const secret = textOf(enrol.body, 'totp-secret')!;
    const wrong = await submitForm(auth, b, enrol, {
      code: totpCodeAt(secret) === '000000' ? '111111' : '000000',
    });
    expectGerman(wrong, 'Dieser Code passt nicht.');
    const codes = await submitForm(auth, b, wrong, { code: totpCodeAt(secret) });
    expect(codes.status).toBe(200);
    expectGerman(
      codes,
      '<h1>Ihre Wiederherstellungscodes</h1>',
      'aria-label="Wiederherstellungscodes"',
      '>Herunterladen</a',
      '<button type="submit">Weiter zu Push web app</button>',
      '<script type="application/json" id="sp-messages">{"copied":"Kopiert","copyFailed":"Kopieren nicht möglich:',
    );
    const file = decodeURIComponent(/href="data:text\/plain;charset=utf-8,([^"]*)"/.exec(codes.body)![1]!);
    expect(file.split('\n')[0]).toBe('Wiederherstellungscodes für secret-push');
  });

  it('forgot password, the email sent page, the reset form, and the same link once used', async () => {
    const who = await auth.createUser('vergessen@example.org');
    const b = browser('de-DE');
    const forgot = await b.get(at(linkIn(await loginPage(b), /\/forgot/)!));
    expectGerman(
      forgot,
      '<h1>Passwort zurücksetzen</h1>',
      'Link zum Zurücksetzen senden',
      'Zurück zur Anmeldung',
    );
    const invalid = await submitForm(auth, b, forgot, { email: 'keine adresse' });
    expectGerman(invalid, 'Geben Sie die E-Mail-Adresse Ihres Kontos ein.');
    const sent = await submitForm(auth, b, invalid, { email: who.email });
    expectGerman(
      sent,
      '<h1>Sehen Sie in Ihr Postfach</h1>',
      '<strong>vergessen@example.org</strong>',
      'Minuten lang',
    );

    await eventually(() => Promise.resolve(catcher.messages.some((m) => m.to === who.email)));
    const link = resetLinkIn(
      catcher.messages.find((m) => m.to === who.email)!,
      auth.issuer,
    );
    const form = await b.get(link);
    expect(form.status).toBe(200);
    expectGerman(
      form,
      '<h1>Neues Passwort festlegen</h1>',
      'Mindestens 12 Zeichen.',
      'Neues Passwort wiederholen',
    );
    const mismatch = await submitForm(auth, b, form, {
      new_password: 'ein ganz neues Passwort',
      repeat_password: 'ein anderes neues Passwort',
    });
    expect(mismatch.status).toBe(422);
    expectGerman(mismatch, 'Die neuen Passwörter stimmen nicht überein.');
    const done = await submitForm(auth, b, mismatch, {
      new_password: 'ein ganz neues Passwort',
      repeat_password: 'ein ganz neues Passwort',
    });
    expect(done.status).toBe(200);
    expectGerman(
      done,
      '<h1>Ihr Passwort wurde geändert</h1>',
      '<a href="/account">melden Sie sich bei Ihrer Kontoseite an</a>',
    );
    const used = await b.get(link);
    expect(used.status).toBe(410);
    expectGerman(used, '<h1>Dieser Link funktioniert nicht mehr</h1>', '„Passwort vergessen?“');
  });

  it('the logout page, the 404 page, a refused authorization request, an expired form', async () => {
    const b = browser('de');
    await signedIn(b, 'abmelden@example.org');
    const logout = await b.get(at('/connect/endsession'));
    expect(logout.status).toBe(200);
    expectGerman(logout, '<h1>Abmelden</h1>', 'Möchten Sie sich abmelden?', 'Angemeldet bleiben');
    const out = await confirmLogout(b, logout);
    expect(out.status).toBe(200);
    expectGerman(out, '<h1>Abgemeldet</h1>', 'Sie sind abgemeldet.');

    const missing = await b.get(at('/no/such/page'));
    expect(missing.status).toBe(404);
    expectGerman(missing, '<h1>Seite nicht gefunden</h1>');

    const refused = await b.get(at('/connect/authorize?client_id=unknown&response_type=code&scope=openid'));
    expect(refused.status).toBe(400);
    expectGerman(refused, '<h1>Anmeldeanfrage abgelehnt</h1>', 'Details: invalid_client');

    const login = await loginPage(b);
    const forged = await b.post(at(formAction(login.body)!), {
      csrf: 'x'.repeat(43),
      email: 'a@example.org',
      password: 'p',
    });
    expect(forged.status).toBe(403);
    expectGerman(forged, '<h1>Anmeldung abgelehnt</h1>', 'Dieses Formular ist abgelaufen');
  });
});

describe('nothing untranslated under the pseudo-locale en-XA', () => {
  it('login, wrong password, sign-up, forgot, sent', async () => {
    const b = browser('en-XA');
    const login = await loginPage(b);
    expectTranslated(login);
    const wrong = await submitForm(auth, b, login, {
      email: 'nobody@example.org',
      password: 'wrong password 1',
    });
    expect(wrong.status).toBe(422);
    expectTranslated(wrong);
    const signup = await b.get(at(linkIn(wrong, /\/signup/)!));
    expectTranslated(signup);
    expectTranslated(
      await submitForm(auth, b, signup, {
        email: 'x@example.org',
        password: 'short',
        password_again: 'short',
      }),
    );
    const forgot = await b.get(at(linkIn(login, /\/forgot/)!));
    expectTranslated(forgot);
    expectTranslated(await submitForm(auth, b, forgot, { email: 'nobody@example.org' }));
  });

  it('second factor, enrolment, recovery codes', async () => {
    const who = await userWithTotp(auth, 'pseudo-totp@example.org');
    const b = browser('en-XA');
    const second = await submitForm(auth, b, await loginPage(b), {
      email: who.email,
      password: who.password,
    });
    expectTranslated(second);
    expectTranslated(await submitForm(auth, b, second, { code: 'aaaaa-bbbbb' }));

    const fresh = await auth.createUser('pseudo-enrol@example.org');
    const c = browser('en-XA');
    const enrol = await submitForm(auth, c, await loginPage(c), {
      email: fresh.email,
      password: fresh.password,
    });
    const secret = textOf(enrol.body, 'totp-secret')!;
    // The secret, in groups of four, is data.
    expectTranslated(enrol, [/^[A-Z2-7]{4}$/]);
    const codes = await submitForm(auth, c, enrol, { code: totpCodeAt(secret) });
    expect(codes.status).toBe(200);
    expectTranslated(codes, [/^[a-z2-7]{5}-[a-z2-7]{5}$/]);
    const messages = JSON.parse(
      /<script type="application\/json" id="sp-messages">([^<]*)<\/script>/.exec(codes.body)![1]!,
    );
    expect(messages.copied).toMatch(/^⟦.*⟧$/);
    // The reloaded page after the codes: "two-factor authentication is on".
    expectTranslated(await c.get(at(formAction(codes.body)!.replace(/\/continue$/, ''))));
  });

  it('reset form, used link, logout, 404, 405, a refused request and an expired form', async () => {
    const who = await auth.createUser('pseudo-reset@example.org');
    const b = browser('en-XA');
    const forgot = await b.get(at(linkIn(await loginPage(b), /\/forgot/)!));
    await submitForm(auth, b, forgot, { email: who.email });
    await eventually(() => Promise.resolve(catcher.messages.some((m) => m.to === who.email)));
    const link = resetLinkIn(
      catcher.messages.find((m) => m.to === who.email)!,
      auth.issuer,
    );
    const form = await b.get(link);
    expectTranslated(form);
    expectTranslated(await submitForm(auth, b, form, { new_password: 'short', repeat_password: 'short' }));
    const done = await submitForm(auth, b, form, {
      new_password: 'a long enough new one',
      repeat_password: 'a long enough new one',
    });
    expect(done.status).toBe(200);
    expectTranslated(done);
    expectTranslated(await b.get(link));

    const c = browser('en-XA');
    await signedIn(c, 'pseudo-logout@example.org');
    const logout = await c.get(at('/connect/endsession'));
    expectTranslated(logout);
    expectTranslated(await confirmLogout(c, logout));
    expectTranslated(await b.get(at('/no/such/page')));
    expectTranslated(await b.request(at('/interaction/abc'), { method: 'DELETE' }));
    const refused = await b.get(at('/connect/authorize?client_id=unknown&response_type=code&scope=openid'));
    // The provider's own words in the detail line are for the application's developers (English).
    expectTranslated(refused, [/^invalid_client/, 'client is invalid']);
    const login = await loginPage(b);
    expectTranslated(
      await b.post(at(formAction(login.body)!), { csrf: 'x'.repeat(43), email: 'a', password: 'p' }),
    );
  });
});

describe('POST /language', () => {
  it('remembers a language in a cookie and goes back (303); the cookie beats Accept-Language', async () => {
    const b = browser('fr-FR');
    const login = await loginPage(b);
    expect(login.body).toContain('<html lang="fr" dir="ltr">');
    expect(login.body).toContain('<h1>Se connecter</h1>');
    const back = new URL(login.url).pathname;
    const chosen = await b.post(at('/language'), { lang: 'de', back }, { 'sec-fetch-site': 'same-origin' });
    expect(chosen.status).toBe(303);
    expect(chosen.location).toBe(at(back).href);
    expect(chosen.headers.getSetCookie().join()).toMatch(/sp_lang=de; path=\/; .*httponly/i);
    const again = await b.get(at(back));
    expectGerman(again, '<h1>Anmelden</h1>');
  });

  it('refuses a language that is not offered (400), and leaves the cookie alone', async () => {
    const b = browser('de');
    const refused = await b.post(
      at('/language'),
      { lang: 'xx', back: '/' },
      { 'sec-fetch-site': 'same-origin' },
    );
    expect(refused.status).toBe(400);
    expect(refused.headers.getSetCookie()).toEqual([]);
    const elsewhere = await b.post(
      at('/language'),
      { lang: 'de', back: '/' },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(elsewhere.status).toBe(403);
  });
});
