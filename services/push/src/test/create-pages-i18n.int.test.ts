import { untranslatedText } from '@secret-push/testing';
import { type TestPush, type TestWebStack, startWebStack } from '../testing';

/*
 * The create form, the created page and the receipt in the person's language (issue 30): German
 * with `Accept-Language: de-DE`, and nothing left untranslated with the pseudo-locale `en-XA`
 * (every catalogue letter accented). Anonymous visitor, files allowed without sign-in, so that the
 * form offers all four kinds and the created page the receipt. What is checked is what these pages
 * own: the `<title>`, the `<main>` and the texts of their scripts (`#sp-messages`); the frame and
 * the site header are checked by their own tests.
 */
jest.setTimeout(60_000);

const KIB = 1024;
let stack: TestWebStack;
let push: TestPush;
beforeAll(async () => {
  stack = await startWebStack({
    files: true,
    pushEnv: {
      PUSH_FILE_PUSHES_REQUIRE_AUTH: 'false',
      PUSH_FILES_MAX_COUNT: '4',
      PUSH_FILES_MAX_FILE_BYTES: String(1536 * KIB), // 1.5 MiB: a decimal in the page's language
      PUSH_FILES_MAX_TOTAL_BYTES: String(3 * 1024 * KIB),
    },
  });
  ({ push } = stack);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

const BRAND = 'secret-push';

/** `GET` (or `POST`) of a page in `lang`. */
const get = (path: string, lang: string, cookie = '') =>
  fetch(`${push.url}${path}`, {
    headers: { 'Accept-Language': lang, ...(cookie ? { Cookie: cookie } : {}) },
    redirect: 'manual',
  });

/** A form sent as the page sends it (urlencoded: text, URL, QR; the form takes both). */
const post = (fields: Record<string, string>, lang: string) =>
  fetch(`${push.url}/`, {
    method: 'POST',
    headers: {
      'Accept-Language': lang,
      'Sec-Fetch-Site': 'same-origin',
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });

/** A Files form without a file (multipart, as the page sends it). */
function postFiles(fields: Record<string, string>, lang: string) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  return fetch(`${push.url}/`, {
    method: 'POST',
    headers: { 'Accept-Language': lang, 'Sec-Fetch-Site': 'same-origin' },
    body,
    redirect: 'manual',
  });
}

const FORM = {
  kind: 'text',
  payload: 'i18n-secret-42',
  duration: 'custom',
  expire_after_days: '2',
  views: 'custom',
  expire_after_views: '3',
  retrieval_step: 'false',
  deletable_by_viewer: 'false',
};

/**
 * What this area owns of a page: its title and its main, without the times of time.views.ts
 * (helper "pages": its relative time and UTC are checked there).
 */
function ownParts(page: string): string {
  const title = /<title>[\s\S]*?<\/title>/.exec(page)![0];
  const main = /<main[\s\S]*<\/main>/
    .exec(page)![0]
    .replace(/<span class="when"[\s\S]*?<\/time\s*>[\s\S]*?<\/span\s*>[\s\S]*?<\/span\s*>/g, ' ');
  return `${title}\n${main}`;
}

/** The page's script texts (`#sp-messages`), if any. */
function clientMessages(page: string): Record<string, string> {
  const json = /<script type="application\/json" id="sp-messages">([\s\S]*?)<\/script>/.exec(page)?.[1];
  return json ? (JSON.parse(json) as Record<string, string>) : {};
}

/** Untranslated words of a page's own parts and of its script texts (placeholders aside). */
function untranslated(page: string, allow: (string | RegExp)[] = []): string[] {
  const scripts = Object.values(clientMessages(page))
    .map((m) => `<p>${m.replace(/\{\w+\}/g, ' ')}</p>`)
    .join('\n');
  return untranslatedText(`${ownParts(page)}\n${scripts}`, [BRAND, ...allow]);
}

const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

/** An anonymous create and its created page, in `lang`. */
async function created(lang: string, fields: Record<string, string> = {}) {
  const made = await post({ ...FORM, ...fields }, lang);
  expect(made.status).toBe(303);
  const cookie = cookiesOf(made);
  const page = await get('/created', lang, cookie);
  expect(page.status).toBe(200);
  const html = await page.text();
  const receipt = /id="receipt"[^>]*?value="[^"]*\/receipt\/([\w-]+)"/.exec(html)?.[1];
  return { html, receipt: receipt! };
}

describe('the create form', () => {
  it('is German with Accept-Language: de-DE, durations, views and sizes in German', async () => {
    const res = await get('/', 'de-DE');
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('<html lang="de"');
    expect(page).toContain('<title>Ein Geheimnis teilen');
    expect(page).toContain('<legend>Was möchten Sie teilen?</legend>');
    for (const kind of ['Text', 'Einen Link (URL)', 'Einen QR-Code', 'Dateien']) {
      expect(page).toMatch(new RegExp(`<label for="kind-\\w+">${kind.replace(/[()]/g, '\\$&')}</label>`));
    }
    expect(page).toContain('>1 Stunde</label>');
    expect(page).toContain('>3 Tage</label>');
    expect(page).toContain('>1 Woche</label>');
    expect(page).toContain('>Eigener Wert</label>');
    expect(page).toMatch(/>1 Aufruf<\/label>/);
    expect(page).toContain('Passwort erzeugen');
    expect(page).toContain('Geheimen Link erstellen</button>');
    // The limits: 1.5 MiB with a German decimal comma.
    expect(page).toMatch(/Bis zu 4 Dateien, jeweils höchstens 1,5 MiB, zusammen 3 MiB\./);
    const messages = clientMessages(page);
    expect(messages.dropNote).toBe('Oder ziehen Sie Dateien hierher.');
    expect(messages['chosen.one']).toBe('{count} Datei ausgewählt.');
    expect(messages['chosen.other']).toBe('{count} Dateien ausgewählt.');
    expect(messages.fileTooLarge).toBe('{name} überschreitet die Grenze von 1,5 MiB.');
    expect(messages.genUsed).toBe('In das Feld „Geheimnis“ übernommen.');
  });

  it('has the plural forms of each language for its scripts (Polish: one, few, many, other)', async () => {
    const messages = clientMessages(await (await get('/', 'pl')).text());
    expect(messages['chosen.one']).toBe('Wybrano {count} plik.');
    expect(messages['chosen.few']).toBe('Wybrano {count} pliki.');
    expect(messages['chosen.many']).toBe('Wybrano {count} plików.');
    const fr = clientMessages(await (await get('/', 'fr-FR')).text());
    expect(fr['chosen.many']).toBe('{count} de fichiers choisis.');
  });

  it('leaves nothing untranslated in the pseudo-locale', async () => {
    const page = await (await get('/', 'en-XA')).text();
    expect(page).toContain('<html lang="en-XA"');
    expect(untranslated(page)).toEqual([]);
  });

  describe('its problems, in the page language, for each kind', () => {
    const cases: [string, () => Promise<Response>, string, RegExp][] = [];
    for (const lang of ['de-DE', 'en-XA']) {
      cases.push(
        ['text', () => post({ ...FORM, payload: '' }, lang), lang, /payload/],
        [
          'text, out of bounds',
          () => post({ ...FORM, expire_after_days: '999' }, lang),
          lang,
          /expire_after_days/,
        ],
        ['url', () => post({ ...FORM, kind: 'url', payload: 'nourl1' }, lang), lang, /payload/],
        ['qr', () => post({ ...FORM, kind: 'qr', payload: 'q'.repeat(2000) }, lang), lang, /payload/],
        ['file', () => postFiles({ ...FORM, kind: 'file', payload: '' }, lang), lang, /files/],
      );
    }
    it.each(cases)('%s (%#)', async (_kind, send, lang, field) => {
      const res = await send();
      expect(res.status).toBe(422);
      const page = await res.text();
      expect(page).toMatch(new RegExp(`<a href="#${field.source}">`));
      if (lang === 'de-DE') {
        expect(page).toContain('<html lang="de"');
        expect(page).toMatch(/Bitte korrigieren Sie diese Angabe(n)?:/);
        expect(page).not.toMatch(/Payload is required|must be|too large|at least one file/);
      } else {
        expect(untranslated(page, ['nourl1', /^q+$/])).toEqual([]);
      }
    });

    it('German: the API problem by field, and the passphrase asked for again', async () => {
      const res = await post({ ...FORM, payload: '', passphrase: 'pw-1' }, 'de-DE');
      const page = await res.text();
      expect(page).toMatch(/<a href="#payload">Geheimnis<\/a>:\s*Geben Sie das Geheimnis ein\./);
      expect(page).toContain('Geben Sie die Passphrase erneut ein');
      const days = await (await post({ ...FORM, expire_after_days: '999' }, 'de-DE')).text();
      expect(days).toMatch(
        /<a href="#expire_after_days">Anzahl der Tage<\/a>:\s*Geben Sie eine ganze Zahl von 1 bis 90 ein\./,
      );
      const url = await (await post({ ...FORM, kind: 'url', payload: 'nourl1' }, 'de-DE')).text();
      expect(url).toContain('Geben Sie einen Link ein, der mit http:// oder https:// beginnt.');
      const qr = await (await post({ ...FORM, kind: 'qr', payload: 'q'.repeat(2000) }, 'de-DE')).text();
      expect(qr).toContain('Der Inhalt des QR-Codes ist zu lang: höchstens 1024 Zeichen.');
      const file = await (await postFiles({ ...FORM, kind: 'file', payload: '' }, 'de-DE')).text();
      expect(file).toContain('Wählen Sie mindestens eine Datei aus.');
    });
  });
});

describe('the created page and the receipt', () => {
  it('are German with Accept-Language: de-DE', async () => {
    const { html, receipt } = await created('de-DE', { passphrase: 'pw-1' });
    expect(html).toContain('<html lang="de"');
    expect(html).toContain('<h1>Ihr geheimer Link</h1>');
    expect(html).toContain('Link kopieren');
    expect(html).toMatch(/Er kann 3 Mal geöffnet werden, bis/);
    expect(html).toContain('Der Empfänger braucht außerdem die Passphrase.');
    expect(html).toContain('QR-Code des Links – nicht des Geheimnisses');
    expect(html).toContain('Ihr privater Statuslink');
    expect(html).toContain('Jetzt ablaufen lassen');

    const status = await get(`/receipt/${receipt}`, 'de-DE');
    expect(status.status).toBe(200);
    const page = await status.text();
    expect(page).toContain('<html lang="de"');
    expect(page).toContain('<h1>Status Ihres Geheimnisses</h1>');
    expect(page).toContain('<strong>Aktiv</strong>: Es kann noch geöffnet werden');
    expect(page).toMatch(/0 von 3 genutzt, 3 Aufrufe übrig/);

    const confirm = await (await get(`/receipt/${receipt}/expire`, 'de-DE')).text();
    expect(confirm).toContain('Dieses Geheimnis ablaufen lassen?');
    expect(confirm).toContain('Geheimnis ablaufen lassen</button>');

    const missing = await get('/receipt/AAAAAAAAAAAAAAAAAAAAAA', 'de-DE');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Statuslink nicht gefunden');

    const gone = await get('/created', 'de-DE');
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain('<h1>Link wird nicht mehr angezeigt</h1>');
  });

  it('leave nothing untranslated in the pseudo-locale', async () => {
    const { html, receipt } = await created('en-XA', { name: 'Vendor9' });
    expect(untranslated(html)).toEqual([]);
    expect(untranslated(await (await get(`/receipt/${receipt}`, 'en-XA')).text(), ['Vendor9'])).toEqual([]);
    // The confirmation's Cancel is confirm.views.ts's (helper "pages").
    const confirm = await (await get(`/receipt/${receipt}/expire`, 'en-XA')).text();
    expect(untranslated(confirm, ['Vendor9', 'Cancel'])).toEqual([]);
    expect(untranslated(await (await get('/receipt/AAAAAAAAAAAAAAAAAAAAAA', 'en-XA')).text())).toEqual([]);
    expect(untranslated(await (await get('/created', 'en-XA')).text())).toEqual([]);
  });
});
