import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { createLogger } from '@secret-push/logger';
import { type LocalS3, captureLogs } from '@secret-push/testing';
import { type TestPush, type TestWebStack, startPush, startWebStack } from '../testing';
import { Browser } from './support/browser';
import { waitFor } from './support/helpers';

/*
 * Files, name and note in the web app's create form (`POST /` as multipart/form-data), against
 * the whole set-up: the auth service as the web app's OpenID provider, a push service with a
 * private s3rver, PostgreSQL and Redis. The form is sent as a browser sends it without JavaScript
 * (fields in document order, the CSRF token first); what it makes is read back through the API.
 */
jest.setTimeout(60_000);

const MIB = 1024 * 1024;
const logs = captureLogs();
let stack: TestWebStack;
let push: TestPush;
let s3: LocalS3;
let user: { email: string; password: string };
/** Signed in as the demo user, with the session's CSRF token. */
let signedIn: Browser;
let csrf: string;

beforeAll(async () => {
  stack = await startWebStack({
    files: true,
    pushEnv: {
      PUSH_FILES_MAX_COUNT: '3',
      PUSH_FILES_MAX_FILE_BYTES: String(MIB),
      PUSH_FILES_MAX_TOTAL_BYTES: String(2 * MIB),
    },
    logger: createLogger({ name: 'push', level: 'trace' }, logs.stream),
  });
  ({ push, user } = stack);
  s3 = stack.s3!;
  signedIn = new Browser();
  const landed = await signedIn.signIn(push.url, stack.auth.issuer, user);
  csrf = /name="csrf" value="([^"]+)"/.exec(landed.body)![1]!;
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

interface FileIn {
  name: string;
  data: Buffer;
}

const FIELDS: [string, string][] = [
  ['kind', 'file'],
  ['payload', 'see attached'],
  ['expire_after_days', '2'],
  ['expire_after_views', '3'],
  ['retrieval_step', 'false'],
  ['deletable_by_viewer', 'false'],
];

/** The form as a browser sends it: `fields` in order, then each file as a part named `files`. */
function formOf(fields: [string, string][], files: FileIn[]): FormData {
  const form = new FormData();
  for (const [k, v] of fields) form.append(k, v);
  for (const f of files) {
    form.append('files', new Blob([f.data], { type: 'application/octet-stream' }), f.name);
  }
  return form;
}

/** A POST of the form, its 303 to the created page followed (Post/Redirect/Get) as a browser does. */
const post = async (browser: Browser, body: FormData | URLSearchParams) => {
  const { res, body: text } = await browser.follow(`${push.url}/`, { method: 'POST', body });
  return { status: res.status, headers: res.headers, text };
};

const linkOf = (page: string) => /id="link"[^>]*?value="([^"]+)"/.exec(page)?.[1];
const tokenOf = (link: string) => /\/p\/([\w-]+)/.exec(link)![1]!;

const counts = async () => {
  const row = (
    await sql<{ pushes: string; files: string; intents: string }>`
      select (select count(*) from push) as pushes, (select count(*) from push_file) as files,
             (select count(*) from upload_intent) as intents`.execute(push.db)
  ).rows[0]!;
  return { ...row, keys: (await s3.listKeys()).length };
};

/** Nothing was stored: no push, file row or upload intent, and (once the cleanup is done) no object. */
async function expectNothingStored(before: Awaited<ReturnType<typeof counts>>) {
  await waitFor(async () => (await counts()).keys === before.keys, 5000);
  expect(await counts()).toEqual(before);
}

const bytesOf = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

describe('GET /', () => {
  it('offers Files (several at once, the limits shown), name and note to a signed-in person, the CSRF token first', async () => {
    const { body } = await signedIn.follow(`${push.url}/`);
    const form = /<form\s[^>]*class="create"[^>]*>([\s\S]*?)<\/form>/.exec(body)!;
    expect(form[0]).toContain('enctype="multipart/form-data"');
    expect(form[1]!.trimStart()).toMatch(/^<input type="hidden" name="csrf" value="[^"]+" \/>/);
    expect(form[1]).toMatch(/<input\s+id="files"\s+name="files"\s+type="file"\s+multiple/);
    for (const id of ['kind-file', 'files', 'name', 'note', 'upload-progress']) {
      expect(form[1]).toContain(`<label for="${id}">`);
    }
    expect(form[1]).toMatch(/Up to 3 files, each at most 1 MiB,\s+2 MiB together/);
    expect(body).toContain('<script src="/static/create-form.js" defer></script>');
  });

  it('offers an anonymous visitor no Files where files need sign-in, and no name or note', async () => {
    const res = await fetch(`${push.url}/`);
    const body = await res.text();
    expect(body).toContain('id="kind-text"');
    expect(body).not.toContain('kind-file');
    expect(body).not.toContain('multipart/form-data');
    expect(body).not.toContain('id="name"');
    expect(body).not.toContain('name="csrf"');
  });
});

describe('POST / with files', () => {
  it('creates a file push owned by the signed-in person with its name and note; both files download intact', async () => {
    const files = [
      { name: 'keys.bin', data: randomBytes(700_000) },
      { name: 'readme ü.txt', data: Buffer.from('two files, one push\n') },
    ];
    const res = await post(
      signedIn,
      formOf(
        [['csrf', csrf], ...FIELDS, ['name', 'Quarterly keys'], ['note', 'for Alice, ticket 42']],
        files,
      ),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const link = linkOf(res.text)!;
    expect(link).toMatch(new RegExp(`^${push.url}/p/[\\w-]{22}$`));
    const token = tokenOf(link);

    const owner = (
      await sql<{
        owner: string;
        name: string;
      }>`select owner, name from push where token_hash = sha256(convert_to(${token}, 'UTF8'))`.execute(
        push.db,
      )
    ).rows[0]!;
    expect(owner.owner).toMatch(/^user:[0-9a-f-]{36}$/);
    expect(owner.name).toBe('Quarterly keys');

    // The person's own list over the API (a personal token made on /users/token) shows name and note.
    const made = await signedIn.fetch(`${push.url}/users/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrf=${csrf}&name=test&scopes=pushes:read`,
    });
    const personal = /id="new-token"[^>]*value="(spu_[^"]+)"/s.exec(await made.text())![1]!;
    const listed = (await (
      await fetch(`${push.url}/api/v2/pushes/active`, { headers: { authorization: `Bearer ${personal}` } })
    ).json()) as { url_token: string; name: string; note: string; kind: string }[];
    expect(listed.find((p) => p.url_token === token)).toMatchObject({
      kind: 'file',
      name: 'Quarterly keys',
      note: 'for Alice, ticket 42',
    });

    const got = (await (await fetch(`${push.url}/api/v2/pushes/${token}`)).json()) as {
      payload: string;
      expire_after_views: number;
      files: { filename: string; size: number; url: string }[];
    };
    expect(got.payload).toBe('see attached');
    expect(got.expire_after_views).toBe(3);
    expect(got.files.map((f) => [f.filename, f.size])).toEqual(files.map((f) => [f.name, f.data.length]));
    for (const [i, f] of got.files.entries()) {
      expect((await bytesOf(f.url)).equals(files[i]!.data)).toBe(true);
    }

    // The CSRF token and the session never reach the logs.
    const text = logs.text();
    expect(text).not.toContain(csrf);
    for (const value of signedIn.cookies.values()) expect(text).not.toContain(value);
  });

  // Refused before any byte is stored: with the object store stopped, a create that tried to store
  // a file would answer 503; these answer 403, and leave no upload intent either.
  it('refuses files from an anonymous visitor where files need sign-in (403 page) before storing anything', async () => {
    const before = await counts();
    await s3.stop();
    try {
      const res = await post(new Browser(), formOf(FIELDS, [{ name: 'a.bin', data: randomBytes(1000) }]));
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.text).toContain('You may not share files on this instance.');
    } finally {
      await s3.start();
    }
    await expectNothingStored(before);
  });

  it('refuses a missing, wrong or late CSRF token (403) before storing any file; a text form too', async () => {
    const before = await counts();
    const file = [{ name: 'a.bin', data: randomBytes(200_000) }];
    const cases: FormData[] = [
      formOf(FIELDS, file),
      formOf([['csrf', 'x'.repeat(csrf.length)], ...FIELDS], file),
      // The token after the file: the file part arrives first, and is refused.
      (() => {
        const form = formOf(FIELDS, file);
        form.append('csrf', csrf);
        return form;
      })(),
    ];
    await s3.stop();
    try {
      for (const form of cases) {
        const res = await post(signedIn, form);
        expect(res.status).toBe(403);
        expect(res.text).toContain('This form is out of date');
      }
    } finally {
      await s3.start();
    }
    const text = await post(
      signedIn,
      new URLSearchParams([...FIELDS.filter(([k]) => k !== 'kind'), ['kind', 'text']]),
    );
    expect(text.status).toBe(403);
    await expectNothingStored(before);
  });

  it('refuses too many files (422) and a file over the limit (413) with the form and its problem, storing nothing', async () => {
    const before = await counts();
    const small = (n: number) => ({ name: `f${n}.bin`, data: randomBytes(1000) });
    const many = await post(
      signedIn,
      formOf([['csrf', csrf], ...FIELDS], [small(1), small(2), small(3), small(4)]),
    );
    expect(many.status).toBe(422);
    expect(many.text).toContain('You can only attach up to 3 files per push.');
    expect(many.text).toMatch(/<a href="#files">Files<\/a>/);
    expect(many.text).toContain('see attached'); // what was typed is kept

    const large = await post(
      signedIn,
      formOf([['csrf', csrf], ...FIELDS], [small(1), { name: 'big.bin', data: randomBytes(MIB + 1) }]),
    );
    expect(large.status).toBe(413);
    expect(large.text).toContain('A file exceeds the limit of 1 MiB.');
    expect(large.text).toMatch(/id="files"[^>]*aria-invalid="true"/s);
    await expectNothingStored(before);
  });

  it('refuses a Files secret without files, files with another kind, and a name or note over the limits (422)', async () => {
    const before = await counts();
    const none = await post(signedIn, formOf([['csrf', csrf], ...FIELDS], []));
    expect(none.status).toBe(422);
    expect(none.text).toContain('Choose at least one file.');

    const textWithFiles = await post(
      signedIn,
      formOf(
        [['csrf', csrf], ['kind', 'text'], ...FIELDS.slice(1)],
        [{ name: 'a.bin', data: randomBytes(1000) }],
      ),
    );
    expect(textWithFiles.status).toBe(422);
    expect(textWithFiles.text).toContain('Only a Files secret carries files');

    const long = await post(
      signedIn,
      formOf(
        [['csrf', csrf], ['kind', 'text'], ...FIELDS.slice(1), ['name', 'n'.repeat(1025)], ['note', 'kept']],
        [],
      ),
    );
    expect(long.status).toBe(422);
    expect(long.text).toMatch(/id="name-error">At most 1024 characters\./);
    expect(long.text).toMatch(/id="name"[^>]*aria-invalid="true"/s);
    expect(long.text).toContain('value="kept"');
    const nul = await post(
      signedIn,
      new URLSearchParams([['csrf', csrf], ['kind', 'text'], ...FIELDS.slice(1), ['name', 'a\u0000b']]),
    );
    expect(nul.status).toBe(422);
    expect(nul.text).toContain('This text contains a character that cannot be stored (NUL).');
    await expectNothingStored(before);
  });

  it('lets an anonymous visitor share files where files do not need sign-in (no CSRF token: no session)', async () => {
    const open = await startPush(stack.auth, { env: { ...s3.env, PUSH_FILE_PUSHES_REQUIRE_AUTH: 'false' } });
    try {
      const page = await (await fetch(`${open.url}/`)).text();
      expect(page).toContain('id="kind-file"');
      expect(page).not.toContain('name="csrf"');
      const file = { name: 'anon.bin', data: randomBytes(50_000) };
      const { res, body } = await new Browser().follow(`${open.url}/`, {
        method: 'POST',
        body: formOf(FIELDS, [file]),
      });
      expect(res.status).toBe(200);
      const link = linkOf(body)!;
      const got = (await (await fetch(`${open.url}/api/v2/pushes/${tokenOf(link)}`)).json()) as {
        files: { url: string }[];
      };
      expect(got.files).toHaveLength(1);
      expect((await bytesOf(got.files[0]!.url)).equals(file.data)).toBe(true);
    } finally {
      await open.stop();
    }
  });

  it('a resubmitted Files form (same key) gets the same push; the duplicate upload is deleted', async () => {
    const key = /name="idempotency_key" value="([^"]+)"/.exec(
      (await signedIn.follow(`${push.url}/`)).body,
    )![1]!;
    const file = { name: 'once.bin', data: randomBytes(40_000) };
    const send = () => post(signedIn, formOf([['csrf', csrf], ['idempotency_key', key], ...FIELDS], [file]));
    const first = await send();
    expect(first.status).toBe(200);
    const before = await counts();
    const again = await send();
    expect(again.status).toBe(200);
    expect(linkOf(again.text)).toBe(linkOf(first.text));
    await expectNothingStored(before);
  });

  it('takes a text secret with a name and note in the same multipart form', async () => {
    const res = await post(
      signedIn,
      formOf([['csrf', csrf], ['kind', 'text'], ...FIELDS.slice(1), ['name', 'wifi']], []),
    );
    expect(res.status).toBe(200);
    const got = (await (await fetch(`${push.url}/api/v2/pushes/${tokenOf(linkOf(res.text)!)}`)).json()) as {
      kind: string;
      payload: string;
      files: unknown[];
    };
    expect(got).toMatchObject({ kind: 'text', payload: 'see attached', files: [] });
  });
});
