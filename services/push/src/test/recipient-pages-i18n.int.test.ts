import express from 'express';
import request from 'supertest';
import { HttpError } from '@secret-push/http-kit';
import { LANGUAGES } from '@secret-push/i18n';
import { createLogger } from '@secret-push/logger';
import { untranslatedText } from '@secret-push/testing';
import { PushNotFound } from '../domain/errors';
import { pushI18n } from '../languages';
import { pageErrors } from '../pages/pages.routes';
import { type TestPush, type TestWebStack, startWebStack } from '../testing';
import { Browser } from './support/browser';

/*
 * The recipient pages, the web app's frame, the error, about and sign-in pages in the person's
 * language (issue 30): German with `Accept-Language: de-DE`, and nothing left in English with the
 * pseudo-locale `en-XA` (every catalogue letter accented: what stays plain ASCII bypassed the
 * catalogue). The language selector's POST /language remembers a choice in a cookie.
 */
jest.setTimeout(60_000);

let stack: TestWebStack;
let push: TestPush;
/** A signed-in person (owner pages: the confirm page, a flash message) and their API token. */
let owner: Browser;
let apiToken: string;

beforeAll(async () => {
  stack = await startWebStack({
    files: true,
    pushEnv: { PUSH_RATE_LIMIT_RETRIEVE_PER_MINUTE: '10000', PUSH_PASSPHRASE_ATTEMPTS_PER_IP: '1000' },
  });
  push = stack.push;
  owner = new Browser();
  const landed = await owner.signIn(push.url, stack.auth.issuer, {
    email: stack.user.email,
    password: stack.user.password,
  });
  const csrf = /name="csrf" value="([^"]+)"/.exec(landed.body)![1]!;
  const made = await owner.fetch(`${push.url}/users/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `csrf=${csrf}&name=i18n&scopes=pushes:read&scopes=pushes:write`,
  });
  expect(made.status).toBe(201);
  apiToken = /id="new-token"[^>]*value="(spu_[^"]+)"/s.exec(await made.text())![1]!;
}, 90_000);
afterAll(async () => {
  await stack?.stop();
});

const DE = { 'Accept-Language': 'de-DE,de;q=0.9,en;q=0.5' };
const XA = { 'Accept-Language': 'en-XA' };

/**
 * What may stay plain ASCII on a page in the pseudo-locale: the brand, the test's own data, and
 * what `Intl` writes in English for `en-XA` (dates, relative times, units: its locale is `en`).
 */
const INTL_EN =
  /^(in|ago|now|UTC|AM|PM|minutes?|hours?|days?|months?|years?|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|bytes?|kB|MB|GB|TB)$/;
const ALLOW: (string | RegExp)[] = ['secret-push', INTL_EN];

function expectGerman(res: request.Response, ...phrases: string[]) {
  expect(res.text).toContain('<html lang="de" dir="ltr">');
  for (const p of phrases) expect(res.text).toContain(p);
}
function expectNothingUntranslated(res: request.Response, allow: (string | RegExp)[] = []) {
  expect(res.text).toContain('<html lang="en-XA" dir="ltr">');
  expect(untranslatedText(res.text, [...allow, ...ALLOW])).toEqual([]);
}

async function created(fields: Record<string, unknown>): Promise<string> {
  const res = await request(push.url)
    .post('/api/v2/pushes')
    .set('Authorization', `Bearer ${apiToken}`)
    .send({ push: { expire_after_views: 5, ...fields } });
  expect(res.status).toBe(201);
  return (res.body as { url_token: string }).url_token;
}

async function createdFiles(): Promise<string> {
  const res = await request(push.url)
    .post('/api/v2/pushes')
    .set('Authorization', `Bearer ${apiToken}`)
    .field('push[payload]', 'see the files')
    .field('push[expire_after_views]', '5')
    .attach('push[files][]', Buffer.alloc(2150, 1), {
      filename: 'report.pdf',
      contentType: 'application/pdf',
    })
    .attach('push[files][]', Buffer.alloc(512, 2), { filename: 'notes.txt', contentType: 'text/plain' });
  expect(res.status).toBe(201);
  return (res.body as { url_token: string }).url_token;
}

const open = (t: string, lang: Record<string, string>) => request(push.url).get(`/p/${t}/r`).set(lang);
const reveal = (t: string, lang: Record<string, string>, form: Record<string, string> = {}) =>
  request(push.url).post(`/p/${t}/r`).set(lang).type('form').send(form);

describe('the open page (nothing revealed yet)', () => {
  it.each([
    ['text', { payload: 'plain words' }, 'Jemand hat ein Geheimnis mit Ihnen geteilt', 'Geheimnis anzeigen'],
    [
      'url',
      { payload: 'https://example.org/x', kind: 'url' },
      'Jemand hat einen Link mit Ihnen geteilt',
      'Link öffnen',
    ],
    [
      'qr',
      { payload: 'WIFI:S:net;;', kind: 'qr' },
      'Jemand hat einen QR-Code mit Ihnen geteilt',
      'QR-Code anzeigen',
    ],
  ])('%s: German, and nothing untranslated in the pseudo-locale', async (_kind, fields, heading, action) => {
    const t = await created(fields);
    const de = await open(t, DE);
    expect(de.status).toBe(200);
    expectGerman(de, heading, action, 'Es kann noch 5 Mal geöffnet werden und läuft');
    expect(de.text).toMatch(/läuft <span class="when"\s*>in \d+ (Tagen|Stunden)/);
    expect(de.text).toMatch(/\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} UTC/);
    expect(de.text).toContain(
      '<meta property="og:title" content="Jemand hat ein Geheimnis mit Ihnen geteilt"',
    );
    expect(de.text).toContain('<a href="/about">So funktioniert es</a>');
    expectNothingUntranslated(await open(t, XA));
  });

  it('file: German, and nothing untranslated in the pseudo-locale', async () => {
    const t = await createdFiles();
    expectGerman(await open(t, DE), 'Jemand hat Dateien mit Ihnen geteilt', 'Dateien anzeigen');
    expectNothingUntranslated(await open(t, XA));
  });

  it('with a passphrase, a wrong one, and too many attempts', async () => {
    const t = await created({ payload: 'guarded', passphrase: 'open sesame' });
    const de = await open(t, DE);
    expectGerman(de, '<label for="passphrase">Passphrase</label>', 'mit einer Passphrase geschützt');
    expectNothingUntranslated(await open(t, XA));

    const wrong = await reveal(t, DE, { passphrase: 'nope' });
    expect(wrong.status).toBe(401);
    expectGerman(wrong, 'Die Passphrase ist falsch. Bitte versuchen Sie es erneut.');
    const wrongXa = await reveal(t, XA, { passphrase: 'nope' });
    expect(wrongXa.status).toBe(401);
    expectNothingUntranslated(wrongXa);

    for (let i = 0; i < 3; i++) expect((await reveal(t, DE, { passphrase: `guess ${i}` })).status).toBe(401);
    const many = await reveal(t, DE, { passphrase: 'open sesame' });
    expect(many.status).toBe(429);
    const wait = Number(many.headers['retry-after']);
    expectGerman(
      many,
      `Zu viele Versuche mit der Passphrase. Bitte warten Sie ${wait} ${wait === 1 ? 'Sekunde' : 'Sekunden'}`,
    );
    const manyXa = await reveal(t, XA, { passphrase: 'open sesame' });
    expect(manyXa.status).toBe(429);
    expectNothingUntranslated(manyXa);
  });
});

describe('the revealed page', () => {
  it('text: German, the copy texts for the script, nothing untranslated', async () => {
    const t = await created({ payload: 'plain words', expire_after_views: 3 });
    const de = await reveal(t, DE);
    expect(de.status).toBe(200);
    expectGerman(de, '<h1>Das geteilte Geheimnis</h1>', 'In die Zwischenablage kopieren', 'plain words');
    expect(de.text).toContain('"pagesCopied":"Kopiert"');
    expect(de.text).toContain('"pagesTimeTitle":"{exact} (angezeigt für {zone})"');
    expectNothingUntranslated(await reveal(t, XA), ['plain words']);
    // The last view says so.
    const last = await reveal(t, DE);
    expectGerman(
      last,
      '<strong>Das war der letzte Aufruf:</strong> Das Geheimnis ist jetzt vom Server gelöscht.',
    );
  });

  it('qr: German, nothing untranslated', async () => {
    const t = await created({ payload: 'WIFI:S:net;;', kind: 'qr' });
    expectGerman(await reveal(t, DE), '<h1>Der geteilte QR-Code</h1>', 'Text im QR-Code anzeigen');
    expectNothingUntranslated(await reveal(t, XA), ['WIFI:S:net;;']);
  });

  it('files: the list with sizes in German, nothing untranslated', async () => {
    const t = await createdFiles();
    const de = await reveal(t, DE);
    expect(de.status).toBe(200);
    expectGerman(de, '<h1>Die geteilten Dateien</h1>', 'Alle herunterladen (zip)', '<h2>Dateien</h2>');
    expect(de.text).toMatch(/2 Dateien, 2,6\skB/);
    expect(de.text).toMatch(/<span class="muted size">2,1\skB<\/span>/);
    expect(de.text).toMatch(/<span class="muted size">512\sByte<\/span>/);
    expectNothingUntranslated(await reveal(t, XA), ['see the files', 'report.pdf', 'notes.txt']);
  });

  it('the viewer’s delete: German', async () => {
    const t = await created({ payload: 'x', deletable_by_viewer: true });
    const de = await reveal(t, DE);
    expectGerman(de, 'Geheimnis jetzt löschen');
    const deleted = await request(push.url).post(`/p/${t}/delete`).set(DE).type('form').send({});
    expectGerman(deleted, '<h1>Das Geheimnis wurde gelöscht</h1>');
    const t2 = await created({ payload: 'y', deletable_by_viewer: true });
    await reveal(t2, XA);
    expectNothingUntranslated(await request(push.url).post(`/p/${t2}/delete`).set(XA).type('form').send({}));
  });
});

describe('expired, about, errors', () => {
  it('the expired-or-unknown page', async () => {
    const gone = await request(push.url).get('/p/AAAAAAAAAAAAAAAAAAAAAA').set(DE);
    expect(gone.status).toBe(404);
    expectGerman(gone, 'Dieser Link ist abgelaufen oder existiert nicht');
    expectNothingUntranslated(await request(push.url).get('/p/AAAAAAAAAAAAAAAAAAAAAA').set(XA));
  });

  it('/about', async () => {
    const de = await request(push.url).get('/about').set(DE);
    expectGerman(de, '<h1>So funktioniert secret-push</h1>', 'Was der Server speichert');
    expectNothingUntranslated(await request(push.url).get('/about').set(XA), [
      'echo s3cret | secret-push push --views 2 --server',
      'AES-256-GCM',
      'SHA-256',
      'OpenAPI',
      'OAuth',
      'API',
      'HTTP',
      'IP',
      'scrypt',
    ]);
  });

  it('the 404 page and the download-gone page', async () => {
    const de = await request(push.url).get('/nope').set(DE);
    expect(de.status).toBe(404);
    expectGerman(de, '<h1>Seite nicht gefunden</h1>', 'Zur Startseite');
    expectNothingUntranslated(await request(push.url).get('/nope').set(XA));

    const link = '/api/v2/files/00000000-0000-4000-8000-000000000000?push=x&view=1&expires=1&sig=x';
    const html = 'text/html,application/xhtml+xml';
    const gone = await request(push.url).get(link).set(DE).set('Accept', html);
    expectGerman(gone, 'Dieser Download-Link ist ungültig, aufgebraucht oder abgelaufen');
    expectNothingUntranslated(await request(push.url).get(link).set(XA).set('Accept', html));
    // The API's JSON stays English.
    const json = await request(push.url).get(link).set(DE);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
  });

  describe('403, 405, 429, 500, 503 as pages in the page’s language', () => {
    const i18n = pushI18n({ languages: LANGUAGES, defaultLanguage: 'en', pseudo: true });
    const app = express();
    app.use(i18n.middleware());
    const fail = (err: unknown, headers: Record<string, string> = {}) => {
      return (_req: express.Request, res: express.Response, next: express.NextFunction) => {
        res.set(headers);
        next(err);
      };
    };
    app.get('/403', fail(new HttpError(403, 'forbidden', "That push doesn't belong to you.")));
    app.get('/403-other', fail(new HttpError(403, 'forbidden', 'Something else.')));
    app.get('/405', fail(new HttpError(405, 'method_not_allowed', 'Method not allowed.')));
    app.get('/429', fail(new HttpError(429, 'rate_limited', 'Slow down.'), { 'Retry-After': '30' }));
    app.get('/503', fail(new HttpError(503, 'dependency_unavailable', 'Redis is down.')));
    app.get('/500', fail(new Error('boom')));
    app.get('/gone', fail(new PushNotFound()));
    app.use(pageErrors(createLogger({ name: 'test', level: 'silent' }), 'a test page'));

    it.each([
      ['/403', 403, 'Nicht erlaubt', 'Diese Freigabe gehört nicht Ihnen.'],
      ['/403-other', 403, 'Nicht erlaubt', 'Das ist Ihnen nicht erlaubt.'],
      ['/405', 405, 'Nicht erlaubt', 'Diese Seite kann so nicht verwendet werden.'],
      ['/429', 429, 'Zu viele Anfragen', 'Bitte warten Sie 30 Sekunden und versuchen Sie es dann erneut.'],
      ['/503', 503, 'Vorübergehend nicht verfügbar', 'Bitte versuchen Sie es gleich noch einmal.'],
      ['/500', 500, 'Etwas ist schiefgelaufen', 'Bitte versuchen Sie es später noch einmal.'],
      ['/gone', 404, 'Dieser Link ist abgelaufen', 'Dieser Link ist abgelaufen oder existiert nicht'],
    ])('%s: %d in German; nothing untranslated', async (path, status, title, text) => {
      const de = await request(app).get(path).set(DE);
      expect(de.status).toBe(status);
      expectGerman(de, `<title>${title} · secret-push</title>`, text);
      const xa = await request(app).get(path).set(XA);
      expect(xa.status).toBe(status);
      expectNothingUntranslated(xa);
    });

    it('English stays as it was', async () => {
      expect((await request(app).get('/429')).text).toContain('Please wait 30 seconds and try again.');
      expect((await request(app).get('/403')).text).toContain('That push doesn&#39;t belong to you.');
    });
  });
});

describe('sign-in pages, a confirm page and a flash message', () => {
  it('signed out, and a cancelled sign-in', async () => {
    const de = await request(push.url).get('/signed-out').set(DE);
    expectGerman(de, '<h1>Sie sind abgemeldet</h1>', 'Erneut anmelden', '>Anmelden</a>');
    expectNothingUntranslated(await request(push.url).get('/signed-out').set(XA));

    const b = new Browser();
    b.cookies.set('sp_lang', 'de');
    const login = await b.follow(`${push.url}/sign-in`);
    const start = login.body.search(/<form method="post" action="[^"]+\/cancel"/);
    expect(start).toBeGreaterThan(0);
    const back = await b.submit({ url: login.url, body: login.body.slice(start) });
    expect(back.res.status).toBe(200);
    expect(back.body).toContain('<h1>Anmeldung abgebrochen</h1>');
    expect(back.body).toContain('<a href="/">Zur Startseite</a>');
  });

  it('the confirm page to expire a push, and the flash message after it', async () => {
    const t = await created({ payload: 'named one', name: 'Vendor key' });
    owner.cookies.set('sp_lang', 'de');
    try {
      const confirm = await owner.follow(`${push.url}/pushes/${t}/expire`);
      expect(confirm.res.status).toBe(200);
      expect(confirm.body).toContain('<html lang="de" dir="ltr">');
      expect(confirm.body).toContain('„Vendor key“ ablaufen lassen?');
      expect(confirm.body).toContain('Das Geheimnis wird sofort gelöscht');
      expect(confirm.body).toContain('>Abbrechen</a>');
      expect(confirm.body).toContain('Angemeldet als <strong>demo@example.org</strong>');
      owner.cookies.set('sp_lang', 'en-XA');
      const xa = await owner.follow(`${push.url}/pushes/${t}/expire`);
      expect(untranslatedText(xa.body, [...ALLOW, 'Vendor key', 'demo@example.org'])).toEqual([]);

      owner.cookies.set('sp_lang', 'de');
      const csrf = /name="csrf" value="([^"]+)"/.exec(confirm.body)![1]!;
      const done = await owner.fetch(`${push.url}/pushes/${t}/expire`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `csrf=${csrf}`,
      });
      expect(done.status).toBe(303);
      const told = await owner.follow(`${push.url}/pushes`);
      expect(told.body).toContain(
        '<p role="status" class="notice flash">Freigabe „Vendor key“ ist abgelaufen: Niemand kann sie mehr öffnen.</p>',
      );
    } finally {
      owner.cookies.delete('sp_lang');
    }
  });
});

describe('POST /language', () => {
  const choose = (lang: string, back: string) =>
    request(push.url)
      .post('/language')
      .set('Sec-Fetch-Site', 'same-origin')
      .type('form')
      .send({ lang, back });

  it('sets the cookie and returns to the page', async () => {
    const res = await choose('fr', '/about');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/about');
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('sp_lang='));
    expect(cookie).toMatch(/^sp_lang=fr;/);
    expect(cookie).toMatch(/HttpOnly/i);
    const page = await request(push.url).get('/about').set('Cookie', 'sp_lang=fr').set(DE);
    expect(page.text).toContain('<html lang="fr" dir="ltr">');
    expect(page.text).toContain('<h1>Comment fonctionne secret-push</h1>');
  });

  it('refuses a language not offered (400) and sets nothing; never returns off the site', async () => {
    const res = await choose('xx', '/about');
    expect(res.status).toBe(400);
    expect(res.headers['set-cookie']).toBeUndefined();
    const off = await choose('de', '//evil.example/');
    expect(off.status).toBe(303);
    expect(off.headers.location).toBe('/');
  });

  it('the selector is on the page in its language; pages vary by Accept-Language and Cookie', async () => {
    const page = await request(push.url).get('/about').set(DE);
    expect(page.text).toContain('<form method="post" action="/language"');
    expect(page.text).toContain('<input type="hidden" name="back" value="/about" />');
    expect(page.text).toMatch(/<option value="de" lang="de" selected>\s*Deutsch\s*<\/option>/);
    const vary = String(page.headers.vary);
    expect(vary).toMatch(/Accept-Language/i);
    expect(vary).toMatch(/Cookie/i);
  });
});
