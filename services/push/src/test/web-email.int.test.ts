import { sql } from 'kysely';
import type { TestAuth } from '@secret-push/auth/testing';
import { type MailCatcher, startMailCatcher } from '@secret-push/testing';
import { hashUrlToken } from '../security/url-token';
import { type TestPush, type TestWebStack, startTestWorker, startWebStack } from '../testing';
import type { WorkerService } from '../worker-server';
import { Browser } from './support/browser';

/*
 * The web app's email parts (issue 26) against the real services, with a real SMTP server in this
 * process and a worker sending through it: the create form's "Email the link to" (the email
 * arrives with the link, never the secret), its problems shown next to the field with what was
 * typed, the account's default notices (CSRF, Post/Redirect/Get) pre-checked in the form, a
 * person without a verified address told why they get no notices, and the owner's page of a push
 * with each recipient's status and "Send the link by email".
 */
let stack: TestWebStack;
let auth: TestAuth;
let push: TestPush;
let mail: MailCatcher;
let worker: WorkerService;
let user: { email: string; password: string };

const FROM = 'secret-push@example.org';

beforeAll(async () => {
  mail = await startMailCatcher();
  const smtp = { PUSH_SMTP_URL: mail.url, PUSH_MAIL_FROM: FROM };
  // With files: a signed-in person's form is then multipart (its email fields go through the upload pipeline).
  stack = await startWebStack({ pushEnv: smtp, authEnv: { AUTH_SELF_SIGNUP: 'true' }, files: true });
  ({ auth, push, user } = stack);
  worker = await startTestWorker(push); // SMTP, keys and public URL from the push service's
}, 60_000);
afterAll(async () => {
  await worker?.close();
  await stack?.stop();
  await mail?.close();
});

const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };
const csrfOf = (body: string) => /name="csrf" value="([^"]+)"/.exec(body)![1]!;
const keyOf = (body: string) => /name="idempotency_key" value="([^"]+)"/.exec(body)![1]!;
const linkOf = (page: string) => /id="link"[^>]*?value="([^"]+)"/.exec(page)![1]!;
const tokenOf = (link: string) => /\/p\/([\w-]+)/.exec(link)![1]!;

/** A form body; an array value is the field sent once per item (checkboxes). */
const body = (fields: Record<string, string | string[]>) =>
  new URLSearchParams(
    Object.entries(fields).flatMap(([k, v]) =>
      (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x]),
    ),
  ).toString();

async function signedIn(who: { email: string; password: string }): Promise<Browser> {
  const b = new Browser();
  const landed = await b.signIn(push.url, auth.issuer, who);
  expect(landed.body).toContain('Signed in as');
  return b;
}

/** The create form of a signed-in person: its page, CSRF token and key. */
async function formOf(b: Browser) {
  const page = await b.follow(`${push.url}/`);
  expect(page.res.status).toBe(200);
  return { page: page.body, csrf: csrfOf(page.body), key: keyOf(page.body) };
}

const checked = (page: string, id: string) => new RegExp(`id="${id}"[^>]*\\schecked`).test(page);

it('offers the email fields to a signed-in person with a verified address, and none to an anonymous visitor', async () => {
  const anonymous = await new Browser().follow(`${push.url}/`);
  expect(anonymous.res.status).toBe(200);
  expect(anonymous.body).not.toContain('name="notify_emails_to"');
  expect(anonymous.body).not.toContain('name="notify_owner_on"');

  const { page } = await formOf(await signedIn(user));
  expect(page).toContain('<label for="notify_emails_to">Email the link to (optional)</label>');
  expect(page).toContain('never the passphrase');
  expect(page).toMatch(
    /<select id="notify_emails_to_locale" name="notify_emails_to_locale"[^>]*>\s*<option value="en" lang="en"\s+selected/,
  );
  expect(page).toContain('Show my email address to the recipients');
  for (const n of ['view', 'failed_passphrase', 'expired_unseen']) {
    expect(page).toMatch(new RegExp(`id="notify_owner_on-${n}"\\s+name="notify_owner_on"\\s+value="${n}"`));
  }
});

it('"Email the link to": the email reaches the SMTP server with the link and never the secret', async () => {
  const b = await signedIn(user);
  const { csrf, key } = await formOf(b);
  const created = await b.fetch(`${push.url}/`, {
    method: 'POST',
    headers: FORM_TYPE,
    body: body({
      csrf,
      idempotency_key: key,
      kind: 'text',
      payload: 'the web form secret',
      expire_after_days: '3',
      expire_after_views: '2',
      retrieval_step: ['false', 'true'],
      deletable_by_viewer: ['false'],
      notify_emails_to: 'friend@example.net',
      notify_emails_to_locale: 'en',
    }),
  });
  expect(created.status).toBe(303);
  const shown = await b.follow(`${push.url}${created.headers.get('location')!}`);
  const link = linkOf(shown.body);

  const email = await mail.waitFor((m) => m.envelope.to.includes('friend@example.net'), 15_000);
  expect(email.text).toContain(link);
  expect(email.html).toContain(link);
  for (const part of [email.text, email.html, email.subject]) {
    expect(part).not.toContain('the web form secret');
  }
  // The sender is not named unless asked.
  expect(email.text).not.toContain(user.email);

  // The owner's page of the push: the recipient, sent (once the worker has recorded the server's reply).
  const sentRow = /<td>friend@example\.net<\/td>[\s\S]*?<strong>Sent<\/strong>/;
  let owner = await b.follow(`${push.url}/pushes/${tokenOf(link)}/audit`);
  for (let i = 0; i < 50 && !sentRow.test(owner.body); i++) {
    await new Promise((r) => setTimeout(r, 100));
    owner = await b.follow(`${push.url}/pushes/${tokenOf(link)}/audit`);
  }
  expect(owner.res.status).toBe(200);
  expect(owner.body).toMatch(sentRow);
});

it('a refused address is shown next to its field, the form keeping what was typed; nothing is created', async () => {
  const b = await signedIn(user);
  const { csrf, key } = await formOf(b);
  const before = Number(
    (await sql<{ n: string }>`select count(*) as n from push`.execute(push.db)).rows[0]!.n,
  );
  const refused = await b.fetch(`${push.url}/`, {
    method: 'POST',
    headers: FORM_TYPE,
    body: body({
      csrf,
      idempotency_key: key,
      kind: 'text',
      payload: 'kept secret',
      expire_after_days: '3',
      expire_after_views: '2',
      name: 'kept name',
      notify_emails_to: 'a@example.net, not-an-address',
      notify_emails_include_sender: 'true',
      notify_owner_on: ['view'],
    }),
  });
  expect(refused.status).toBe(422);
  const page = await refused.text();
  expect(page).toMatch(/<p class="error" id="notify_emails_to-error">[^<]*not-an-address/);
  expect(page).toMatch(/id="notify_emails_to"[^>]*value="a@example.net, not-an-address"/s);
  expect(page).toMatch(/id="notify_emails_to"[^>]*aria-invalid="true"/s);
  expect(page).toContain('kept secret');
  expect(page).toContain('value="kept name"');
  expect(checked(page, 'notify_emails_include_sender')).toBe(true);
  expect(checked(page, 'notify_owner_on-view')).toBe(true);
  expect(checked(page, 'notify_owner_on-expired_unseen')).toBe(false);
  const after = Number(
    (await sql<{ n: string }>`select count(*) as n from push`.execute(push.db)).rows[0]!.n,
  );
  expect(after).toBe(before);
});

it('the account sets the default notices (CSRF, Post/Redirect/Get), and the create form pre-checks them', async () => {
  const b = await signedIn(user);
  const account = await b.follow(`${push.url}/account`);
  expect(account.body).toContain('<h2>Email notices</h2>');
  const csrf = csrfOf(account.body);

  const forged = await b.fetch(`${push.url}/account/notices`, {
    method: 'POST',
    headers: FORM_TYPE,
    body: body({ csrf: 'forged', notices: ['view'] }),
  });
  expect(forged.status).toBe(403);

  const saved = await b.fetch(`${push.url}/account/notices`, {
    method: 'POST',
    headers: FORM_TYPE,
    body: body({ csrf, notices: ['view', 'expired_unseen'] }),
  });
  expect(saved.status).toBe(303);
  expect(saved.headers.get('location')).toBe('/account?saved=notices');
  const shown = await b.follow(`${push.url}${saved.headers.get('location')!}`);
  expect(shown.body).toContain('Your email notices were saved.');
  expect(checked(shown.body, 'notices-view')).toBe(true);
  expect(checked(shown.body, 'notices-failed_passphrase')).toBe(false);
  expect(checked(shown.body, 'notices-expired_unseen')).toBe(true);

  const { page } = await formOf(b);
  expect(checked(page, 'notify_owner_on-view')).toBe(true);
  expect(checked(page, 'notify_owner_on-failed_passphrase')).toBe(false);
  expect(checked(page, 'notify_owner_on-expired_unseen')).toBe(true);

  // None checked is none.
  await b.fetch(`${push.url}/account/notices`, { method: 'POST', headers: FORM_TYPE, body: body({ csrf }) });
  const cleared = await formOf(b);
  expect(cleared.page).not.toMatch(/id="notify_owner_on-[a-z_]+"[^>]*\schecked/);
});

it('a person whose address is not verified is told why they get no notices, and cannot set them', async () => {
  // Self sign-up at the auth service: the address is not verified.
  const b = new Browser();
  const login = await b.follow(`${push.url}/sign-in`);
  const signupUrl = /<a href="([^"]+)">Create an account<\/a>/.exec(login.body)![1]!.replaceAll('&amp;', '&');
  const signup = await b.follow(new URL(signupUrl, login.url).href);
  const landed = await b.submit(signup, {
    email: 'unverified@example.org',
    password: 'a long enough passphrase',
    password_again: 'a long enough passphrase',
  });
  expect(landed.body).toContain('Signed in as');

  const { page, csrf } = await formOf(b);
  expect(page).toContain('name="notify_emails_to"');
  expect(page).not.toContain('name="notify_owner_on"');
  expect(page).not.toContain('Show my email address');
  expect(page).toContain('your sign-in provider has not verified unverified@example.org');

  const account = await b.follow(`${push.url}/account`);
  expect(account.body).toContain('Email notices need a verified address');
  expect(account.body).not.toContain('action="/account/notices"');
  const refused = await b.fetch(`${push.url}/account/notices`, {
    method: 'POST',
    headers: FORM_TYPE,
    body: body({ csrf, notices: ['view'] }),
  });
  expect(refused.status).toBe(422);
});

it("the owner's page sends the link by email (errors shown), and offers no form for an expired push", async () => {
  const b = await signedIn(user);
  const { csrf, key } = await formOf(b);
  const created = await b.fetch(`${push.url}/`, {
    method: 'POST',
    headers: FORM_TYPE,
    body: body({
      csrf,
      idempotency_key: key,
      kind: 'text',
      payload: 'later',
      expire_after_days: '3',
      expire_after_views: '2',
    }),
  });
  const link = linkOf((await b.follow(`${push.url}${created.headers.get('location')!}`)).body);
  const token = tokenOf(link);
  const audit = `${push.url}/pushes/${token}/audit`;

  const page = await b.follow(audit);
  expect(page.body).toContain('No email has been sent for this push.');
  expect(page.body).toContain(`action="/pushes/${token}/notify"`);

  const bad = await b.fetch(`${push.url}/pushes/${token}/notify`, {
    method: 'POST',
    headers: FORM_TYPE,
    body: body({ csrf, notify_emails_to: 'x@example.net,', notify_emails_to_locale: 'en' }),
  });
  expect(bad.status).toBe(422);
  const badPage = await bad.text();
  expect(badPage).toContain('id="notify_emails_to-error"');
  expect(badPage).toMatch(/id="notify_emails_to"[^>]*value="x@example.net,"/s);

  const forged = await b.fetch(`${push.url}/pushes/${token}/notify`, {
    method: 'POST',
    headers: FORM_TYPE,
    body: body({ csrf: 'forged', notify_emails_to: 'y@example.net' }),
  });
  expect(forged.status).toBe(403);

  const sent = await b.fetch(`${push.url}/pushes/${token}/notify`, {
    method: 'POST',
    headers: FORM_TYPE,
    body: body({ csrf, notify_emails_to: 'later@example.net', notify_emails_to_locale: 'en' }),
  });
  expect(sent.status).toBe(303);
  expect(sent.headers.get('location')).toBe(`/pushes/${token}/audit?sent=1`);
  const email = await mail.waitFor((m) => m.envelope.to.includes('later@example.net'), 15_000);
  expect(email.text).toContain(link);
  const after = await b.follow(`${push.url}${sent.headers.get('location')!}`);
  expect(after.body).toContain('The link will be emailed');
  expect(after.body).toMatch(/<td>later@example\.net<\/td>/);

  // Another person's push is not theirs to email.
  const made = await auth.cli('users', 'create', '--email', 'bystander@example.org', '--json');
  const other = await signedIn(JSON.parse(made.out) as { email: string; password: string });
  const otherCsrf = csrfOf((await other.follow(`${push.url}/account`)).body);
  const notTheirs = await other.fetch(`${push.url}/pushes/${token}/notify`, {
    method: 'POST',
    headers: FORM_TYPE,
    body: body({ csrf: otherCsrf, notify_emails_to: 'z@example.net' }),
  });
  expect(notTheirs.status).toBe(404);

  // Expired: the form is gone.
  const expire = await b.fetch(`${push.url}/pushes/${token}/expire`, {
    method: 'POST',
    headers: FORM_TYPE,
    body: body({ csrf }),
  });
  expect(expire.status).toBe(303);
  const expired = await b.follow(audit);
  expect(expired.body).not.toContain(`action="/pushes/${token}/notify"`);
  expect(expired.body).toContain('its link can no longer be emailed');
});

it('a Files form (multipart) with every field, email ones included: created, the link emailed, notices kept', async () => {
  const b = await signedIn(user);
  const { page, csrf, key } = await formOf(b);
  expect(page).toContain('enctype="multipart/form-data"');
  const form = new FormData();
  // As the page orders them: the CSRF token first, the files last; a form that came back after a
  // passphrase was typed also carries passphrase_required: 20 fields, the most the form sends, and
  // the most a multipart create takes (FORM_LIMITS.fields).
  const fields: [string, string][] = [
    ['csrf', csrf],
    ['idempotency_key', key],
    ['kind', 'file'],
    ['payload', 'a note with the file'],
    ['expire_after_days', '3'],
    ['expire_after_views', '2'],
    ['passphrase_required', 'true'],
    ['passphrase', 'correct-horse-77'],
    ['retrieval_step', 'false'],
    ['retrieval_step', 'true'],
    ['deletable_by_viewer', 'false'],
    ['deletable_by_viewer', 'true'],
    ['name', 'with a file'],
    ['note', 'mine'],
    ['notify_emails_to', 'files@example.net'],
    ['notify_emails_to_locale', 'en'],
    ['notify_emails_include_sender', 'true'],
    ['notify_owner_on', 'view'],
    ['notify_owner_on', 'failed_passphrase'],
    ['notify_owner_on', 'expired_unseen'],
  ];
  for (const [k, v] of fields) form.append(k, v);
  form.append('files', new Blob(['file body']), 'a.txt');
  const created = await b.fetch(`${push.url}/`, { method: 'POST', body: form });
  expect(created.status).toBe(303);
  const link = linkOf((await b.follow(`${push.url}${created.headers.get('location')!}`)).body);
  const email = await mail.waitFor((m) => m.envelope.to.includes('files@example.net'), 15_000);
  expect(email.text).toContain(link);
  expect(email.text).toContain(user.email); // the sender named, as asked
  expect(email.text).not.toContain('correct-horse-77');
  expect(email.html).not.toContain('correct-horse-77');
  expect(email.text).not.toContain('a note with the file');
  const row = await push.db
    .selectFrom('push')
    .select('notify_owner_on')
    .where('token_hash', '=', hashUrlToken(tokenOf(link)))
    .executeTakeFirstOrThrow();
  expect(row.notify_owner_on).toEqual(['view', 'failed_passphrase', 'expired_unseen']);
});

it("the owner's page shows a deferred email with its reason and a failed one with its reason", async () => {
  const b = await signedIn(user);
  mail.fail({ code: 451, message: 'Greylisted, try later', to: 'slow@example.net' }, 1);
  mail.fail({ code: 550, message: 'No such mailbox', to: 'gone@example.net' }, 1);
  const { csrf, key } = await formOf(b);
  const created = await b.fetch(`${push.url}/`, {
    method: 'POST',
    headers: FORM_TYPE,
    body: body({
      csrf,
      idempotency_key: key,
      kind: 'text',
      payload: 'status',
      expire_after_days: '3',
      expire_after_views: '2',
      notify_emails_to: 'slow@example.net, gone@example.net',
    }),
  });
  const link = linkOf((await b.follow(`${push.url}${created.headers.get('location')!}`)).body);
  const audit = `${push.url}/pushes/${tokenOf(link)}/audit`;
  const deferred = /<td>slow@example\.net<\/td>[\s\S]*?<strong>Deferred<\/strong>[\s\S]*?Greylisted/;
  const failed = /<td>gone@example\.net<\/td>[\s\S]*?<strong>Failed<\/strong>[\s\S]*?No such mailbox/;
  let page = await b.follow(audit);
  for (let i = 0; i < 100 && !(deferred.test(page.body) && failed.test(page.body)); i++) {
    await new Promise((r) => setTimeout(r, 100));
    page = await b.follow(audit);
  }
  expect(page.body).toMatch(deferred);
  expect(page.body).toMatch(failed);
});

it('in German (the selector’s cookie): the form preselects German, and a create without a language emails in German', async () => {
  const b = await signedIn(user);
  b.cookies.set('sp_lang', 'de');
  const { page, csrf, key } = await formOf(b);
  expect(page).toMatch(
    /<select id="notify_emails_to_locale" name="notify_emails_to_locale"[^>]*>[\s\S]*?<option value="de"[^>]*\sselected/,
  );
  const created = await b.fetch(`${push.url}/`, {
    method: 'POST',
    headers: FORM_TYPE,
    body: body({
      csrf,
      idempotency_key: key,
      kind: 'text',
      payload: 'x',
      expire_after_days: '3',
      expire_after_views: '2',
      retrieval_step: ['false'],
      deletable_by_viewer: ['false'],
      notify_emails_to: 'freund@example.net',
    }),
  });
  expect(created.status).toBe(303);
  const email = await mail.waitFor((m) => m.envelope.to.includes('freund@example.net'), 15_000);
  expect(email.subject).toBe('Sie haben ein Geheimnis erhalten');
  expect(email.text).toContain('Der Link läuft in 3 Tagen oder nach 2 Aufrufen ab');
  expect(email.headers['content-language']).toBe('de');
});
