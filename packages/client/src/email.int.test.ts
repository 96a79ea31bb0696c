import { randomBytes } from 'node:crypto';
import type { ClientCredentials, TestAuth } from '@secret-push/auth/testing';
import { type TestPush, type TestStack, startStack, startTestWorker } from '@secret-push/push/testing';
import { type MailCatcher, startMailCatcher } from '@secret-push/testing';
import { SecretPushError, createClient, type SecretPushClient } from './index.ts';

// The SDK's email calls (issue 26) against the real services: an auth service, a push API with
// SMTP pointed at a real SMTP server in this process, and a worker that sends through it. Test
// files of this package run as ES modules, where Jest has no `jest` global: timeouts are given
// per hook and test.
const TIMEOUT = 60_000;

let stack: TestStack;
let auth: TestAuth;
let push: TestPush;
let credentials: ClientCredentials;
let mail: MailCatcher;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
/** A personal API token of a person whose address is verified (owner notices are for people). */
let personal: string;

beforeAll(async () => {
  mail = await startMailCatcher();
  const smtp = { PUSH_SMTP_URL: mail.url, PUSH_MAIL_FROM: 'secret-push@example.org' };
  stack = await startStack({ pushEnv: smtp });
  ({ auth, push, credentials } = stack);
  worker = await startTestWorker(push); // SMTP, keys and public URL from the push service's
  const person = await push.db
    .insertInto('app_user')
    .values({
      issuer: 'https://idp.example',
      subject: `sdk-${randomBytes(4).toString('hex')}`,
      email: 'owner@example.org',
      email_verified: true,
      disabled_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const made = await push.cli('tokens', 'create', '--user', person.id, '--name', 'sdk', '--json');
  personal = (JSON.parse(made.out) as { token: string }).token;
}, TIMEOUT);
afterAll(async () => {
  await worker?.close();
  await stack?.stop();
  await mail?.close();
}, TIMEOUT);

const newClient = (): SecretPushClient =>
  createClient({
    baseUrl: push.url,
    auth: {
      clientId: credentials.client_id,
      clientSecret: credentials.client_secret,
      tokenUrl: `${auth.issuer}/connect/token`,
    },
  });

const emailTo = (address: string) => mail.waitFor((m) => m.envelope.to.includes(address), 15_000);

test(
  'version says the server emails; create with recipients (a list) emails the link, never the secret',
  async () => {
    const client = newClient();
    const version = await client.version();
    expect(version.features.pushes.email_auto_dispatch).toBe(true);

    const created = await client.create({
      payload: 'sdk emailed secret',
      notify_emails_to: ['one@example.net', 'two@example.net'],
      notify_emails_to_locale: 'en',
    });
    expect(created).toMatchObject({
      notify_emails_to: 'one@example.net, two@example.net',
      notify_emails_to_locale: 'en',
    });
    for (const to of ['one@example.net', 'two@example.net']) {
      const email = await emailTo(to);
      expect(email.text).toContain(created.html_url);
      expect(email.text).not.toContain('sdk emailed secret');
      expect(email.html).not.toContain('sdk emailed secret');
    }
  },
  TIMEOUT,
);

test(
  'notifyEmails sends the link later; its refusals are typed errors with the field',
  async () => {
    const client = newClient();
    const created = await client.create({ payload: 'later' });
    const answer = await client.notifyEmails(created.url_token, ['later@example.net'], { locale: 'en' });
    expect(typeof answer.message).toBe('string');
    expect((await emailTo('later@example.net')).text).toContain(created.html_url);

    const bad = await client.notifyEmails(created.url_token, 'x@example.net, nope').catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(SecretPushError);
    expect((bad as SecretPushError).status).toBe(422);
    expect((bad as SecretPushError).fields?.notify_emails_to?.length).toBeGreaterThan(0);

    // Only the owner: another client is refused.
    const other = await auth.createClient('pushes:read pushes:write');
    const stranger = createClient({
      baseUrl: push.url,
      auth: {
        clientId: other.client_id,
        clientSecret: other.client_secret,
        tokenUrl: `${auth.issuer}/connect/token`,
      },
    });
    const refused = await stranger.notifyEmails(created.url_token, 'y@example.net').catch((e: unknown) => e);
    expect((refused as SecretPushError).status).toBe(403);
  },
  TIMEOUT,
);

test(
  'notify_owner_on and notify_emails_include_sender: a person with a verified address; a file push too',
  async () => {
    const client = createClient({ baseUrl: push.url, auth: { token: personal } });
    const created = await client.create({
      payload: 'mine',
      notify_owner_on: ['view', 'expired_unseen'],
      notify_emails_to: 'friend@example.net',
      notify_emails_include_sender: true,
    });
    expect(created).toMatchObject({ notify_owner_on: ['view', 'expired_unseen'] });
    expect((await emailTo('friend@example.net')).text).toContain('owner@example.org');

    // Multipart: the list goes comma-separated, as forms send it.
    const withFile = await client.create({
      files: [{ blob: new Blob(['file body']), filename: 'a.txt' }],
      notify_owner_on: ['failed_passphrase'],
      notify_emails_to: ['file@example.net'],
    });
    expect(withFile).toMatchObject({ notify_owner_on: ['failed_passphrase'] });
    expect((await emailTo('file@example.net')).text).toContain(withFile.html_url);

    // A client (not a person) may not ask for owner notices.
    const refused = await newClient()
      .create({ payload: 'x', notify_owner_on: ['view'] })
      .catch((e: unknown) => e);
    expect((refused as SecretPushError).status).toBe(422);
    expect((refused as SecretPushError).fields).toHaveProperty('notify_owner_on');
  },
  TIMEOUT,
);
