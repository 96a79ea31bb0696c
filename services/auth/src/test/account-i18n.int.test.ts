import { sql } from 'kysely';
import { createLogger } from '@secret-push/logger';
import { captureLogs, untranslatedText } from '@secret-push/testing';
import { type TestAuth, type TestUser, startAuth } from '../testing';
import { totpCodeAt } from '../users/totp';
import { type Page, hiddenInput } from './support/browser';
import { Browser, recoveryCodesIn, submit, textOf } from './support/relying-party';

// The account console in the person's language, against a real auth service (database, Redis,
// provider): German for `Accept-Language: de-DE` (its sections, a refused form re-rendered, the
// notices after a form, the sign-in again before a credential change), and nothing left in English
// with the pseudo-locale `en-XA` (every text through the catalogue). The sign-in pages in between
// are the sign-in area's; these tests only pass through them.

let auth: TestAuth;
const logs = captureLogs();
let ipCounter = 0;

beforeAll(async () => {
  auth = await startAuth({
    env: {
      AUTH_TRUSTED_PROXIES: '127.0.0.1',
      AUTH_LOGIN_MAX_PER_ACCOUNT_IP: '100',
      AUTH_LOGIN_MAX_PER_ACCOUNT: '1000',
    },
    logger: createLogger({ name: 'auth', level: 'debug' }, logs.stream),
  });
});
afterAll(() => auth.stop());

const origin = () => new URL(auth.issuer).origin;
const accountUrl = () => `${auth.issuer}/account`;

function browser(language: string): Browser {
  ipCounter += 1;
  return new Browser({ 'x-forwarded-for': `198.51.100.${ipCounter}`, 'accept-language': language });
}

/** /account in `b`, signing in through the normal pages first (with a TOTP code when `secret`). */
async function openConsole(b: Browser, who: TestUser, secret?: string): Promise<Page> {
  const atConsole = (p: Page) => p.url === accountUrl() && p.body.includes('name="csrf"');
  let page = await b.follow(accountUrl(), origin());
  if (!atConsole(page)) {
    page = await submit(auth, b, page, { email: who.email, password: who.password });
    if (secret && !atConsole(page)) {
      page = await submit(auth, b, page, { code: totpCodeAt(secret, Date.now() + 30_000) });
    }
  }
  expect(page.status).toBe(200);
  expect(page.url).toBe(accountUrl());
  return page;
}

const post = (b: Browser, page: Page, path: string, fields: Record<string, string>) =>
  b.post(`${auth.issuer}${path}`, { csrf: hiddenInput(page.body, 'csrf')!, ...fields });

/** Enrols TOTP from the console page: the secret, the enrolment page and the recovery codes page. */
async function enrol(b: Browser, page: Page) {
  const start = await post(b, page, '/account/two-factor/start', {});
  expect(start.status).toBe(200);
  const secret = textOf(start.body, 'totp-secret')!;
  const wrong = await post(b, start, '/account/two-factor/confirm', { code: '000000' });
  expect(wrong.status).toBe(422);
  const shown = await post(b, start, '/account/two-factor/confirm', { code: totpCodeAt(secret) });
  expect(shown.status).toBe(200);
  expect(recoveryCodesIn(shown.body)).toHaveLength(10);
  return { secret, start, wrong, shown };
}

/** Moves every sign-in of `accountId` `seconds` back (its sessions' `loginTs`, its password's time). */
async function ageSignIns(accountId: string, seconds: number): Promise<void> {
  await sql`update oidc_payload
    set payload = jsonb_set(payload, '{loginTs}', to_jsonb((payload->>'loginTs')::int - ${seconds}::int))
    where payload->>'accountId' = ${accountId} and payload ? 'loginTs'`.execute(auth.db);
  await sql`update account set password_changed_at = password_changed_at - make_interval(secs => ${seconds})
    where id = ${accountId}`.execute(auth.db);
}

/** The page's language (`<html lang>`). */
const lang = (body: string) => /<html[^>]*\blang="([^"]+)"/.exec(body)?.[1];

describe('the account console in German (Accept-Language: de-DE)', () => {
  it('shows every section, a refused form and the notices in German', async () => {
    const who = await auth.createUser('konto-de@example.org');
    const b = browser('de-DE,de;q=0.9,en;q=0.5');
    let page = await openConsole(b, who);
    expect(lang(page.body)).toBe('de');
    for (const text of [
      '<title>Ihr Konto',
      '<h1>Ihr Konto</h1>',
      `Angemeldet als <strong>${who.email}</strong>`,
      'Aktuelles Passwort',
      'Mindestens 12 Zeichen.',
      'Passwort ändern',
      'Aus. Beim Anmelden wird nur Ihr Passwort abgefragt.',
      'Zwei-Faktor-Authentifizierung einrichten',
      'Überall sonst abmelden',
      '>Abmelden</a>',
    ]) {
      expect(page.body).toContain(text);
    }

    // A refused form, re-rendered in German (the domain's English problem is not shown).
    const mismatch = await post(b, page, '/account/password', {
      current_password: who.password,
      new_password: 'a long new password 1',
      repeat_password: 'a long new password 2',
    });
    expect(mismatch.status).toBe(422);
    expect(lang(mismatch.body)).toBe('de');
    expect(mismatch.body).toContain('Die neuen Passwörter stimmen nicht überein.');
    expect(mismatch.body).not.toContain('do not match');
    const short = await post(b, page, '/account/password', {
      current_password: who.password,
      new_password: 'short',
      repeat_password: 'short',
    });
    expect(short.status).toBe(422);
    expect(short.body).toContain('Es muss mindestens 12 Zeichen lang sein.');
    const wrong = await post(b, page, '/account/password', {
      current_password: 'not the password at all',
      new_password: 'a long new password 1',
      repeat_password: 'a long new password 1',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toContain('Das aktuelle Passwort ist nicht korrekt.');

    // Second factor on: the count of recovery codes in German, a wrong code, the notices.
    const { secret, start, wrong: wrongCode, shown } = await enrol(b, page);
    expect(start.body).toContain(
      'Nach Ihrem Passwort wird beim Anmelden ein Code aus Ihrer Authenticator-App abgefragt.',
    );
    expect(wrongCode.body).toContain('Dieser Code stimmt nicht.');
    expect(shown.body).toContain('Zurück zu Ihrem Konto');
    page = await openConsole(b, who, secret);
    expect(page.body).toContain('10 Wiederherstellungscodes übrig.');
    expect(page.body).toContain('Neue Wiederherstellungscodes erzeugen');
    expect(page.body).toContain('Zwei-Faktor-Authentifizierung ausschalten');
    const refused = await post(b, page, '/account/recovery-codes', { credential: 'not the password at all' });
    expect(refused.status).toBe(422);
    expect(refused.body).toContain('Das Passwort oder der Code ist nicht korrekt.');
    const off = await post(b, page, '/account/two-factor/remove', { password: who.password });
    expect(off.status).toBe(303);
    page = await b.follow(off.location!, origin());
    expect(page.body).toContain('Die Zwei-Faktor-Authentifizierung ist ausgeschaltet.');
    const sessions = await post(b, page, '/account/sessions', {});
    page = await b.follow(sessions.location!, origin());
    expect(page.body).toContain(
      'Sie wurden in allen anderen Browsern und auf allen anderen Geräten abgemeldet.',
    );

    // A form from nowhere: the refusal page in German.
    const forged = await b.post(`${auth.issuer}/account/sessions`, { csrf: 'forged' });
    expect(forged.status).toBe(403);
    expect(forged.body).toContain('<h1>Anfrage abgelehnt</h1>');
  });

  it('asks a stale sign-in to sign in again, then says so in German', async () => {
    const who = await auth.createUser('konto-de-again@example.org');
    const b = browser('de-DE');
    const page = await openConsole(b, who);
    await ageSignIns(who.id, 3600);
    const next = 'another long password 2';
    const refused = await post(b, page, '/account/password', {
      current_password: who.password,
      new_password: next,
      repeat_password: next,
    });
    expect(refused.status).toBe(303);
    expect(new URL(refused.location!).searchParams.get('prompt')).toBe('login');
    const login = await b.follow(refused.location!, origin());
    const back = await submit(auth, b, login, { email: who.email, password: who.password });
    expect(back.url).toBe(`${auth.issuer}/account?done=signed-in-again`);
    expect(lang(back.body)).toBe('de');
    expect(back.body).toContain(
      'Sie haben sich erneut angemeldet und können jetzt Ihr Passwort und Ihre Zwei-Faktor-Einstellungen ändern.',
    );
  });
});

describe('the account console in the pseudo-locale (en-XA)', () => {
  it('leaves no text untranslated: every section, refused forms, notices, refusals', async () => {
    const who = await auth.createUser('konto-xa@example.org');
    const b = browser('en-XA');
    // The test's data, the brand, and the machine-read <meta> values of the frame (viewport,
    // robots, referrer) that untranslatedText reads as text.
    const allow = [who.email, 'secret-push', /^(initial-scale=1|noindex|nofollow|no-referrer)$/];
    const pages: [string, string][] = [];
    let page = await openConsole(b, who);
    expect(lang(page.body)).toBe('en-XA');
    pages.push(['console, second factor off', page.body]);
    for (const [name, fields] of [
      ['mismatch', { current_password: who.password, new_password: 'a long pass 11', repeat_password: 'x' }],
      ['too short', { current_password: who.password, new_password: 'short', repeat_password: 'short' }],
      [
        'wrong password',
        {
          current_password: 'not the password',
          new_password: 'a long pass 11',
          repeat_password: 'a long pass 11',
        },
      ],
    ] as const) {
      const res = await post(b, page, '/account/password', fields);
      expect(res.status).toBe(422);
      pages.push([`password refused: ${name}`, res.body]);
    }
    const { secret } = await enrol(b, page);
    page = await openConsole(b, who, secret);
    pages.push(['console, second factor on', page.body]);
    const wrongCredential = await post(b, page, '/account/recovery-codes', {
      credential: 'not the password',
    });
    pages.push(['recovery codes refused', wrongCredential.body]);
    const wrongRemove = await post(b, page, '/account/two-factor/remove', { password: 'not the password' });
    pages.push(['remove refused', wrongRemove.body]);
    const off = await post(b, page, '/account/two-factor/remove', { password: who.password });
    page = await b.follow(off.location!, origin());
    pages.push(['notice: second factor off', page.body]);
    const sessions = await post(b, page, '/account/sessions', {});
    pages.push(['notice: sessions', (await b.follow(sessions.location!, origin())).body]);
    pages.push(['form refused', (await b.post(`${auth.issuer}/account/sessions`, { csrf: 'forged' })).body]);
    pages.push(['not signed in', (await browser('en-XA').post(`${auth.issuer}/account/sessions`, {})).body]);
    const callback = await browser('en-XA').get(`${auth.issuer}/account/callback?state=x&code=y`);
    expect(callback.status).toBe(400);
    pages.push(['sign-in not completed', callback.body]);

    for (const [name, body] of pages) {
      expect({ name, untranslated: untranslatedText(body, allow) }).toEqual({ name, untranslated: [] });
    }
  });
});
