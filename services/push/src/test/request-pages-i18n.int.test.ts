import { randomBytes } from 'node:crypto';
import type { TestAuth } from '@secret-push/auth/testing';
import { type MailCatcher, startMailCatcher, untranslatedText } from '@secret-push/testing';
import { type TestPush, type TestWebStack, startWebStack } from '../testing';
import { Browser } from './support/browser';

/*
 * The requester's and the responder's pages (issue 30) in the person's language: every state of
 * /requests, /requests/new (and its refusal), /requests/created, a request's page (open, answered,
 * closed, its Close confirmation), the responder's /respond/:token (with and without passphrase,
 * the email-code step, the file limits and the upload script's texts, a 413, the done, answered,
 * gone, file-gone and sign-in pages), signed in and not. German (`Accept-Language: de-DE`) shows
 * German; the pseudo-locale `en-XA` leaves no text outside the catalogue (only the test's own data,
 * the brand and Intl's size units may stay plain ASCII).
 */
let stack: TestWebStack;
let auth: TestAuth;
let push: TestPush;
let mail: MailCatcher;

const MIB = 1024 * 1024;

beforeAll(async () => {
  mail = await startMailCatcher();
  stack = await startWebStack({
    files: true,
    pushEnv: {
      PUSH_SMTP_URL: mail.url,
      PUSH_MAIL_FROM: 'secret-push@example.org',
      PUSH_REQUESTS_MAX_TOTAL_FILE_BYTES: String(MIB),
      PUSH_RATE_LIMIT_ANSWERS_PER_MINUTE: '1000',
      PUSH_RATE_LIMIT_ANSWERS_PER_REQUEST_PER_MINUTE: '1000',
    },
  });
  ({ auth, push } = stack);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await mail?.close();
});

/** The test's own words, shown back by the pages. */
const MESSAGE = 'Zqx vpnkey';
const NAME = 'Zqx label';
const ANSWER = 'Zqx answer';
const ALLOW: (string | RegExp)[] = [
  MESSAGE,
  NAME,
  ANSWER,
  'not-an-address',
  'secret-push',
  // The frame's meta values (not text).
  /^(initial-scale=1|noindex|nofollow|no-referrer)$/,
  // Intl's size units ("512 bytes", "1.5 kB", "1 MB") and the browser the events table names.
  /^(bytes?|kB|MB|GB)$/,
  /^(node|undici)$/,
  'UTC', // a time zone's name beside an exact time: a value
];

const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };
const csrfOf = (body: string) => /name="csrf" value="([^"]+)"/.exec(body)![1]!;
const keyOf = (body: string) => /name="idempotency_key" value="([^"]+)"/.exec(body)![1]!;
const linkOf = (body: string) => /id="link"[^>]*?value="([^"]+)"/.exec(body)![1]!;
const tokenOf = (link: string) => /\/respond\/([\w-]+)$/.exec(link)![1]!;

let people = 0;
async function signedIn(): Promise<{ b: Browser; csrf: string }> {
  people += 1;
  const made = await auth.cli('users', 'create', '--email', `i18n-req-${people}@example.org`, '--json');
  expect(made.code).toBe(0);
  const who = JSON.parse(made.out) as { email: string; password: string };
  const b = new Browser();
  const landed = await b.signIn(push.url, auth.issuer, who);
  expect(landed.res.status).toBe(200);
  return { b, csrf: csrfOf(landed.body) };
}

/** The pages of one language, by name: what each state of each page answered. */
type Pages = Record<string, { status: number; body: string }>;

async function collect(lang: string): Promise<Pages> {
  const headers = { 'accept-language': lang };
  const pages: Pages = {};
  const look = async (name: string, b: Browser, path: string, status = 200) => {
    const res = await b.fetch(`${push.url}${path}`, { headers });
    const body = await res.text();
    expect([name, res.status]).toEqual([name, status]);
    pages[name] = { status: res.status, body };
    return body;
  };
  const send = async (name: string, b: Browser, path: string, fields: Record<string, string>) => {
    const res = await b.fetch(`${push.url}${path}`, {
      method: 'POST',
      headers: { ...headers, ...FORM_TYPE },
      body: new URLSearchParams(fields).toString(),
    });
    if (res.status !== 303) pages[name] = { status: res.status, body: await res.text() };
    return res;
  };
  const sendFiles = async (name: string, b: Browser, path: string, form: FormData) => {
    const res = await b.fetch(`${push.url}${path}`, { method: 'POST', headers, body: form });
    if (res.status !== 303) pages[name] = { status: res.status, body: await res.text() };
    return res;
  };
  const create = async (p: { b: Browser; csrf: string }, fields: Record<string, string> = {}) => {
    const form = await look('form', p.b, '/requests/new');
    const res = await send('create', p.b, '/requests/new', {
      csrf: p.csrf,
      idempotency_key: keyOf(form),
      request: MESSAGE,
      ...fields,
    });
    expect(res.status).toBe(303);
    const link = linkOf(await look('created', p.b, '/requests/created'));
    return tokenOf(link);
  };

  const p = await signedIn();
  // The lists, empty, then the form and its refusal.
  await look('list empty', p.b, '/requests');
  const form = await look('form', p.b, '/requests/new');
  await send('form refused', p.b, '/requests/new', {
    csrf: p.csrf,
    idempotency_key: keyOf(form),
    request: ' ',
    name: NAME,
    passphrase: 'typed once',
    notify_emails_to: 'not-an-address',
  });
  expect(pages['form refused']!.status).toBe(422);
  // Nothing created yet with this browser: the created page says the link is no longer shown.
  await look('created gone', p.b, '/requests/created', 404);

  // A request with files allowed and a name, one with a passphrase, one for listed addresses.
  const open = await create(p, { name: NAME, response_file_attachments: 'true' });
  await look('created', p.b, '/requests/created');
  const withPassphrase = await create(p, { passphrase: 'open sesame' });
  const listed = await create(p, { answerable_by: 'emails', answerable_emails: 'listed@example.org' });
  const usersOnly = await create(p, { answerable_by: 'users' });
  await look('list open', p.b, '/requests?state=open');
  await look('detail open', p.b, `/requests/${open}`);
  await look('close confirmation', p.b, `/requests/${withPassphrase}/close?back=/requests`);

  // The responder: anonymous and signed in, each step.
  const visitor = new Browser();
  await look('respond files', visitor, `/respond/${open}`);
  await look('respond signed in', p.b, `/respond/${open}`);
  await look('respond passphrase', visitor, `/respond/${withPassphrase}`);
  await send('respond wrong passphrase', visitor, `/respond/${withPassphrase}`, {
    passphrase: 'wrong',
    payload: ANSWER,
  });
  expect(pages['respond wrong passphrase']!.status).toBe(401);
  await look('respond code step', visitor, `/respond/${listed}`);
  await send('respond code sent', visitor, `/respond/${listed}/code`, { email: 'listed@example.org' });
  await send('respond code blank', visitor, `/respond/${listed}/code`, { email: ' ' });
  expect(pages['respond code blank']!.status).toBe(422);
  await look('respond sign in', visitor, `/respond/${usersOnly}`, 401);
  const big = [0, 1].map((i) => ({ name: `part${i}.bin`, data: randomBytes(600_000) }));
  const tooLarge = new FormData();
  tooLarge.append('payload', ANSWER);
  for (const f of big) tooLarge.append('files', new Blob([f.data]), f.name);
  await sendFiles('respond 413', visitor, `/respond/${open}`, tooLarge);
  expect(pages['respond 413']!.status).toBe(413);
  const answer = new FormData();
  answer.append('payload', ANSWER);
  answer.append('files', new Blob([randomBytes(1500)]), 'part.bin');
  expect((await sendFiles('answer', visitor, `/respond/${open}`, answer)).status).toBe(303);
  await look('respond done', visitor, `/respond/${open}/done`);
  await send('respond answered', visitor, `/respond/${open}`, { payload: ANSWER });
  expect(pages['respond answered']!.status).toBe(409);
  await look('respond gone', visitor, '/respond/AAAAAAAAAAAAAAAAAAAAAA', 404);
  await look(
    'respond file gone',
    visitor,
    `/respond/${listed}/files/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`,
    404,
  );

  // The owner: answered, then closed; the lists in each state; an unknown request.
  await look('detail answered', p.b, `/requests/${open}`);
  await look('list answered', p.b, '/requests?state=answered');
  expect(
    (
      await send('close', p.b, `/requests/${withPassphrase}/close`, {
        csrf: p.csrf,
        back: '/requests?state=closed',
      })
    ).status,
  ).toBe(303);
  await look('list closed', p.b, '/requests?state=closed');
  await look('detail closed', p.b, `/requests/${withPassphrase}`);
  await look('detail unknown', p.b, '/requests/AAAAAAAAAAAAAAAAAAAAAA', 404);
  return pages;
}

describe('the request pages in the person’s language', () => {
  it('German: lang="de" on every page, German words on each', async () => {
    const pages = await collect('de-DE');
    for (const [name, page] of Object.entries(pages)) {
      expect([name, /<html lang="de"/.test(page.body)]).toEqual([name, true]);
    }
    const says = (name: string, ...phrases: string[]) => {
      for (const phrase of phrases) {
        expect([name, pages[name]!.body]).toEqual([name, expect.stringContaining(phrase)]);
      }
    };
    says('list empty', 'Ihre Anfragen', 'Keine offenen Anfragen.');
    says(
      'form',
      'Geheimnis anfragen',
      'Wer antworten darf',
      'Anfrage-Link erstellen',
      'höchstens 10.000 Zeichen',
    );
    says(
      'form refused',
      'darf nicht leer sein',
      'enthält ungültige E-Mail-Adressen: not-an-address',
      'Geben Sie die Passphrase erneut ein',
    );
    says('created', 'Ihr Anfrage-Link', 'Link kopieren');
    says('created gone', 'Link wird nicht mehr angezeigt');
    says(
      'list open',
      'Offene Anfragen, Seite 1',
      'Schließen<span class="visually-hidden">: Zqx label</span>',
    );
    says(
      'detail open',
      'Anfrage: Zqx label',
      'Noch nicht beantwortet',
      'Antworten können alle mit dem Link.',
    );
    says('close confirmation', 'Diese Anfrage schließen?', 'Das lässt sich nicht rückgängig machen.');
    says('respond files', 'Jemand bittet Sie um ein Geheimnis', 'Antwort senden', 'Dateien (optional)');
    says('respond files', '"respondTotalTooLarge":"Die Dateien zusammen überschreiten 1 MB."');
    says('respond files', '"respondFileTooLarge":"{name} überschreitet die Grenze von');
    says('respond passphrase', 'mit einer Passphrase geschützt');
    says('respond wrong passphrase', 'Diese Passphrase ist falsch.');
    says('respond code step', 'Bestätigen Sie Ihre Adresse', 'Code senden');
    says('respond code sent', 'Falls diese Adresse antworten darf');
    says('respond code blank', 'Geben Sie Ihre E-Mail-Adresse ein.');
    says('respond sign in', 'Melden Sie sich an, um diese Anfrage zu beantworten');
    says('respond 413', 'Die Dateien zusammen überschreiten 1 MB.');
    says('respond done', 'Ihre Antwort wurde gesendet');
    says('respond answered', 'Diese Anfrage wurde bereits beantwortet');
    says('respond gone', 'Diese Anfrage ist geschlossen oder existiert nicht');
    says('respond file gone', 'Diese Datei existiert nicht');
    says('detail answered', 'mit 1 Datei', 'Antwort öffnen', 'einzigen Aufruf');
    says('list answered', 'Beantwortete Anfragen');
    says('list closed', 'Geschlossene Anfragen');
    says('detail closed', '(von Ihnen)', 'Von Ihnen geschlossen');
    says('detail unknown', 'Unter Ihren Anfragen gibt es keine solche.');
  }, 60_000);

  it('pseudo-locale: nothing on these pages bypasses the catalogue', async () => {
    const pages = await collect('en-XA');
    const left: Record<string, string[]> = {};
    for (const [name, page] of Object.entries(pages)) {
      expect([name, /<html lang="en-XA"/.test(page.body)]).toEqual([name, true]);
      const words = untranslatedText(page.body, ALLOW);
      if (words.length) left[name] = words;
    }
    expect(left).toEqual({});
  }, 60_000);
});
