import type { TestAuth } from '@secret-push/auth/testing';
import { type MailCatcher, startMailCatcher, untranslatedText } from '@secret-push/testing';
import { type TestPush, type TestWebStack, startTestWorker, startWebStack } from '../testing';
import type { WorkerService } from '../worker-server';
import { Browser } from './support/browser';
import { type Receiver, startReceiver } from './support/webhook-receiver';

/*
 * The owner's pages in the person's language (issue 30), signed in, against the real services:
 * `Accept-Language: de-DE` gives German (`lang="de"`) on /pushes (empty, then with pushes), a
 * push's page with its audit log and email sends, /users/token (with a token, after a create and
 * a regenerate, a confirmation), /users/webhooks (the list, a new secret, a delivery log with a
 * delivered test event) and /account; `en-XA` (the pseudo-locale) leaves no text of these pages
 * outside the catalogues.
 *
 * The pseudo-locale check reads each page's `<main>` and `<title>`: the header, the footer and
 * the frame are the frame's own pages' test. Times (`<time>` and the relative time before it) are
 * `Intl`'s output, which the pseudo-locale formats as English: they are left out of that check.
 */
let stack: TestWebStack;
let auth: TestAuth;
let push: TestPush;
let mail: MailCatcher;
let worker: WorkerService;
let receiver: Receiver;

beforeAll(async () => {
  mail = await startMailCatcher();
  const env = {
    PUSH_SMTP_URL: mail.url,
    PUSH_MAIL_FROM: 'secret-push@example.org',
    PUSH_WEBHOOK_ALLOW_HTTP: 'true',
  };
  stack = await startWebStack({ pushEnv: env });
  ({ auth, push } = stack);
  worker = await startTestWorker(push, {
    PUSH_WEBHOOK_ALLOW_HTTP: 'true',
    PUSH_WEBHOOK_ALLOWED_DESTINATIONS: '127.0.0.1',
    PUSH_WEBHOOK_INTERVAL_MS: '100',
  });
  receiver = await startReceiver();
  receiver.answer(() => ({ status: 200, body: 'ok' }));
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await worker?.close();
  await stack?.stop();
  await mail?.close();
});

const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };
const csrfOf = (body: string) => /name="csrf" value="([^"]+)"/.exec(body)![1]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A form body; an array value is the field sent once per item (checkboxes). */
const body = (fields: Record<string, string | string[]>) =>
  new URLSearchParams(
    Object.entries(fields).flatMap(([k, v]) =>
      (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x]),
    ),
  ).toString();

interface Person {
  b: Browser;
  csrf: string;
  email: string;
}

let people = 0;
/** A new person (their own empty lists), signed in to the web app. */
async function newPerson(): Promise<Person> {
  const email = `owner-i18n-${++people}-${Math.random().toString(36).slice(2, 8)}@example.org`;
  const made = await auth.cli('users', 'create', '--email', email, '--json');
  expect(made.code).toBe(0);
  const who = JSON.parse(made.out) as { email: string; password: string };
  const b = new Browser();
  const landed = await b.signIn(push.url, auth.issuer, who);
  return { b, csrf: csrfOf(landed.body), email };
}

type Lang = 'de-DE' | 'en-XA';

/** A page in a language: status and body. */
async function get(p: Person, path: string, lang: Lang) {
  const res = await p.b.fetch(`${push.url}${path}`, { headers: { 'accept-language': lang } });
  return { status: res.status, body: await res.text(), location: res.headers.get('location') };
}

/** A form posted in a language: the answer (not followed). */
async function post(p: Person, path: string, lang: Lang, fields: Record<string, string | string[]> = {}) {
  const res = await p.b.fetch(`${push.url}${path}`, {
    method: 'POST',
    headers: { ...FORM_TYPE, 'accept-language': lang },
    body: body({ csrf: p.csrf, ...fields }),
  });
  return { status: res.status, body: await res.text(), location: res.headers.get('location') };
}

/** What the pseudo-locale check reads: the title and `<main>`, without `Intl`'s times. */
function ownText(page: string): string {
  const title = /<title>([\s\S]*?)<\/title>/.exec(page)?.[1] ?? '';
  const main = /<main\b[\s\S]*<\/main>/.exec(page)?.[0] ?? '';
  expect(main).not.toBe('');
  return `<p>${title}</p>${main}`
    .replace(/<span class="when"[\s\S]*?<\/time\s*>\)<\/span\s*><\/span\s*>/g, ' ')
    .replace(/<time\b[\s\S]*?<\/time\s*>/g, ' ');
}

/** Values the pages show as they are: the brand, event types, scopes, header names, the test's data. */
const ALLOWED: (string | RegExp)[] = [
  'secret-push',
  /^(push|request|email|webhook)\.[a-z_]+$/,
  /^pushes:(read|write)$/,
  'Authorization: Bearer <token>',
  'X-User-Token',
  'X-User-Email',
  'webhook-signature',
];

/** The confirmation page's Cancel button (confirm.views.ts, translated on helper "pages"'s branch). */
const CONFIRM_FRAME = ['Cancel'];

/** The pseudo-locale page has no text outside the catalogues (but `allow`). */
function expectPseudo(page: { status: number; body: string }, allow: (string | RegExp)[] = []) {
  expect(page.body).toContain('lang="en-XA"');
  expect(untranslatedText(ownText(page.body), [...ALLOWED, ...allow])).toEqual([]);
}

/** A German page: `lang="de"` and each phrase. */
function expectGerman(page: { body: string }, phrases: string[]) {
  expect(page.body).toMatch(/<html[^>]*lang="de"/);
  for (const phrase of phrases) expect(page.body).toContain(phrase);
}

/** A personal token made on the page (its value, shown once). */
async function makeToken(p: Person, name: string, lang: Lang) {
  const made = await post(p, '/users/token', lang, { name, scopes: ['pushes:read', 'pushes:write'] });
  expect(made.status).toBe(201);
  const value = /id="new-token"[^>]*value="([^"]+)"/.exec(made.body)![1]!;
  return { page: made, value };
}

/** A push made over the API with a personal token: its URL token. */
async function apiPush(token: string, fields: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${push.url}/api/v2/pushes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ push: fields }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { url_token: string }).url_token;
}

describe('/pushes and a push’s page', () => {
  it('lists no pushes in German and in the pseudo-locale', async () => {
    const p = await newPerson();
    for (const state of ['active', 'expired']) {
      const de = await get(p, `/pushes?state=${state}`, 'de-DE');
      expect(de.status).toBe(200);
      expectGerman(de, [
        '<h1>Ihre Freigaben</h1>',
        state === 'active' ? 'Keine aktiven Freigaben.' : 'Keine abgelaufenen Freigaben.',
        '>Aktiv</a>',
        '>Abgelaufen</a>',
      ]);
      expectPseudo(await get(p, `/pushes?state=${state}`, 'en-XA'));
    }
  });

  it('lists pushes, and shows a push’s audit log and emails, in German and in the pseudo-locale', async () => {
    const p = await newPerson();
    const { value } = await makeToken(p, 'owner-list', 'de-DE');
    const named = await apiPush(value, { payload: 'one', name: 'Vendor key', expire_after_views: 3 });
    await apiPush(value, { payload: 'two' });
    const gone = await apiPush(value, { payload: 'three', name: 'Old key' });
    expect(
      (
        await fetch(`${push.url}/api/v2/pushes/${gone}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${value}` },
        })
      ).status,
    ).toBe(200);
    // A view of the named push: an event of its audit log.
    expect((await fetch(`${push.url}/api/v2/pushes/${named}`)).status).toBe(200);

    /** The push's name, and the user agent of its view (the audit log shows it). */
    const AUDIT_DATA = ['Vendor key', 'node'];
    const de = await get(p, '/pushes', 'de-DE');
    expectGerman(de, [
      '<caption>',
      'Aktive Freigaben, Seite 1',
      'data-label="Verbleibende Aufrufe"',
      '>Text</td>',
      '(ohne Namen)',
      '<span class="visually-hidden"> von Vendor key</span>',
      '>Beenden<span class="visually-hidden">: Vendor key</span>',
    ]);
    expectPseudo(await get(p, '/pushes', 'en-XA'), ['Vendor key']);
    const expired = await get(p, '/pushes?state=expired', 'de-DE');
    expectGerman(expired, ['Abgelaufene Freigaben, Seite 1', 'data-label="Abgelaufen"', 'Old key']);
    expectPseudo(await get(p, '/pushes?state=expired', 'en-XA'), ['Old key']);

    // A refused send is shown in German (the API keeps its English), then a send.
    const refused = await post(p, `/pushes/${named}/notify`, 'de-DE', {
      notify_emails_to: 'friend@example.net, not-an-address',
      notify_emails_to_locale: 'en',
    });
    expect(refused.status).toBe(422);
    expectGerman(refused, ['Diese E-Mail-Adressen sind ungültig: not-an-address']);
    const pseudoRefused = await post(p, `/pushes/${named}/notify`, 'en-XA', {
      notify_emails_to: 'a@example.net,',
    });
    expect(pseudoRefused.status).toBe(422);
    expectPseudo(pseudoRefused, ['a@example.net,', ...AUDIT_DATA]);
    const sent = await post(p, `/pushes/${named}/notify`, 'de-DE', {
      notify_emails_to: 'friend@example.net',
      notify_emails_to_locale: 'en',
    });
    expect([sent.status, sent.location]).toEqual([303, `/pushes/${named}/audit?sent=1`]);

    const audit = await get(p, `/pushes/${named}/audit?sent=1`, 'de-DE');
    expectGerman(audit, [
      '<h1>Protokoll: Vendor key</h1>',
      'Der Link wird per E-Mail verschickt; den Status sehen Sie unten.',
      '<th scope="col">An</th>',
      'Der Link',
      '<h3>Link per E-Mail senden</h3>',
      '<option value="en" lang="en"',
      '<th scope="col">Browser oder Client</th>',
      '<td>Erstellt</td>',
      '<td>Aufgerufen</td>',
      '<td>Link per E-Mail an Empfänger gesendet</td>',
    ]);
    // The email's status (queued, then sent by the worker) and its time, in German.
    expect(audit.body).toMatch(/<strong>(In der Warteschlange|Gesendet)<\/strong>/);
    expect(audit.body).toMatch(/\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} UTC/);
    expectPseudo(await get(p, `/pushes/${named}/audit?sent=1`, 'en-XA'), [
      'Vendor key',
      'node' /* the user agent of the view */,
    ]);

    // An expired push's page: no form, and a sentence saying why.
    const old = await get(p, `/pushes/${gone}/audit`, 'de-DE');
    expectGerman(old, [
      'Diese Freigabe ist abgelaufen',
      'Für diese Freigabe wurde noch keine E-Mail verschickt.',
    ]);
    expectPseudo(await get(p, `/pushes/${gone}/audit`, 'en-XA'), [
      'Old key',
      'node' /* the user agent of its DELETE */,
    ]);

    // Another's push, or none: the 404 page in German.
    const none = await get(p, '/pushes/nosuchpushtoken0000/audit', 'de-DE');
    expect(none.status).toBe(404);
    expectGerman(none, ['Nicht gefunden']);
  });
});

describe('/users/token', () => {
  it('lists, creates and regenerates tokens in German and in the pseudo-locale', async () => {
    const p = await newPerson();
    const empty = await get(p, '/users/token', 'de-DE');
    expectGerman(empty, ['<h1>API-Token</h1>', 'Sie haben noch keine API-Token.', 'Token erstellen']);
    expectPseudo(await get(p, '/users/token', 'en-XA'));

    const made = await makeToken(p, 'ci-pipeline', 'de-DE');
    expectGerman(made.page, ['Token „ci-pipeline“', 'Ihr neues API-Token', 'Token kopieren']);
    const pseudoMade = await makeToken(p, 'deploy-bot', 'en-XA');
    expectPseudo(pseudoMade.page, ['deploy-bot', 'ci-pipeline']);

    const list = await get(p, '/users/token', 'de-DE');
    expectGerman(list, [
      'Ihre API-Token',
      'data-label="Zuletzt verwendet"',
      'läuft nicht ab',
      'aria-label="ci-pipeline widerrufen"',
    ]);
    expectPseudo(await get(p, '/users/token', 'en-XA'), ['deploy-bot', 'ci-pipeline']);

    const badDays = await post(p, '/users/token', 'de-DE', {
      name: 'x',
      scopes: 'pushes:read',
      expires_days: 'soon',
    });
    expect(badDays.status).toBe(422);
    expectGerman(badDays, ['Geben Sie eine ganze Zahl von Tagen an']);

    const id = /href="\/users\/token\/([^/"]+)\/regenerate"/.exec(list.body)![1]!;
    const ask = await get(p, `/users/token/${id}/regenerate`, 'de-DE');
    expectGerman(ask, ['neu erzeugen?', 'Sein bisheriger Wert funktioniert sofort nicht mehr']);
    expectPseudo(await get(p, `/users/token/${id}/revoke`, 'en-XA'), [
      'deploy-bot',
      'ci-pipeline',
      ...CONFIRM_FRAME,
    ]);
    const regenerated = await post(p, `/users/token/${id}/regenerate`, 'en-XA');
    expect(regenerated.status).toBe(200);
    expectPseudo(regenerated, ['deploy-bot', 'ci-pipeline']);
  });
});

describe('/users/webhooks', () => {
  it('lists endpoints, shows a new secret and a delivery log in German and in the pseudo-locale', async () => {
    const p = await newPerson();
    const empty = await get(p, '/users/webhooks', 'de-DE');
    expectGerman(empty, [
      'Sie haben noch keine Webhook-Endpunkte.',
      'Endpunkt hinzufügen',
      'Alle Ereignistypen',
    ]);
    expectPseudo(await get(p, '/users/webhooks', 'en-XA'), ['https://example.com/hooks/secret-push.']);

    const refused = await post(p, '/users/webhooks', 'de-DE', {
      url: 'ftp://hooks.example/x',
      event_types: 'push.viewed',
    });
    expect(refused.status).toBe(422);
    expectGerman(refused, ['Die URL muss mit http(s) beginnen.']);

    const url = receiver.url(`/owner-i18n-${Math.random().toString(36).slice(2)}`);
    const made = await post(p, '/users/webhooks', 'de-DE', {
      url,
      event_types: ['push.viewed', 'push.expired'],
    });
    expect(made.status).toBe(201);
    expectGerman(made, [
      'Endpunkt hinzugefügt',
      'Sein Signaturschlüssel',
      'Empfängt push.viewed, push.expired.',
    ]);
    const id = /href="\/users\/webhooks\/([^/"]+)"/.exec(made.body)![1]!;
    const rotated = await post(p, `/users/webhooks/${id}/rotate`, 'en-XA');
    expect(rotated.status).toBe(200);
    expectPseudo(rotated, ['https://example.com/hooks/secret-push.']);
    expectPseudo(await get(p, '/users/webhooks', 'en-XA'), ['https://example.com/hooks/secret-push.']);

    const tested = await post(p, `/users/webhooks/${id}/test`, 'de-DE');
    expect(tested.location).toBe(`/users/webhooks/${id}?done=test`);
    let log = await get(p, `/users/webhooks/${id}?done=test`, 'de-DE');
    for (let i = 0; i < 100 && !log.body.includes('Zugestellt'); i++) {
      await sleep(100);
      log = await get(p, `/users/webhooks/${id}`, 'de-DE');
    }
    expectGerman(log, [
      '<h1>Webhook-Zustellungen</h1>',
      '<strong>Zugestellt</strong><br />1 Versuch',
      'Wiederholen',
    ]);
    expect(log.body).toMatch(/HTTP 200, [\d.]+ ms/);
    expectPseudo(await get(p, `/users/webhooks/${id}?done=test`, 'en-XA'), [/^ok$/]);

    const disabled = await post(p, `/users/webhooks/${id}/disable`, 'de-DE');
    expect(disabled.location).toBe('/users/webhooks?done=disabled');
    expectGerman(await get(p, '/users/webhooks?done=disabled', 'de-DE'), [
      'Der Endpunkt wurde deaktiviert',
      '<strong>Deaktiviert</strong>: von seinem Besitzer deaktiviert.',
    ]);
    expectPseudo(await get(p, `/users/webhooks/${id}`, 'en-XA'), [/^ok$/]);
    expectPseudo(await get(p, `/users/webhooks/${id}/delete`, 'en-XA'), CONFIRM_FRAME);
  });
});

describe('/account', () => {
  it('shows the account, its notices and a sign-out of other sessions in German and in the pseudo-locale', async () => {
    const p = await newPerson();
    const de = await get(p, '/account', 'de-DE');
    expectGerman(de, [
      '<h1>Ihr Konto</h1>',
      'Angemeldet über',
      'E-Mail-Hinweise',
      'Mir eine E-Mail senden, wenn ein Geheimnis von mir …',
      'Konto löschen',
      'Mein Konto löschen',
    ]);
    expectPseudo(await get(p, '/account', 'en-XA'));

    const saved = await post(p, '/account/notices', 'de-DE', { notices: ['view'] });
    expect(saved.location).toBe('/account?saved=notices');
    expectGerman(await get(p, '/account?saved=notices', 'de-DE'), [
      'Ihre E-Mail-Hinweise wurden gespeichert.',
    ]);

    const others = await post(p, '/account/sign-out-others', 'de-DE');
    expectGerman(others, ['0 andere Sitzungen wurden abgemeldet.']);
    expectPseudo(await post(p, '/account/sign-out-others', 'en-XA'));

    const mismatch = await post(p, '/account/delete', 'de-DE', { confirm: 'nope' });
    expect(mismatch.status).toBe(422);
    expectGerman(mismatch, [`Geben Sie genau ${p.email} ein, um Ihr Konto zu löschen.`]);
  });
});
