import { startMailCatcher, type MailCatcher } from '@secret-push/testing';
import { createSmtpMailer } from './mailer';
import { retryDelaySeconds } from './retry-schedule';

let catcher: MailCatcher;
beforeAll(async () => {
  catcher = await startMailCatcher();
});
afterAll(() => catcher.close());
beforeEach(() => catcher.clear());

const config = () => ({
  url: catcher.url,
  from: 'secret-push <no-reply@example.org>',
  replyTo: 'help@example.org',
  timeoutMs: 5000,
});
const mail = {
  to: 'ana@example.org',
  subject: 'Hello',
  text: 'plain',
  html: '<p>plain</p>',
  messageId: '<m1@example.org>',
};

test('a message reaches the SMTP server with both parts, From, Reply-To and its Message-ID', async () => {
  const mailer = createSmtpMailer(config());
  const outcome = await mailer.send(mail);
  mailer.close();
  expect(outcome).toEqual({ ok: true, response: expect.stringContaining('250') });
  const got = await catcher.waitFor((m) => m.to === 'ana@example.org');
  expect(got).toMatchObject({
    subject: 'Hello',
    text: 'plain',
    messageId: '<m1@example.org>',
    replyTo: 'help@example.org',
  });
  expect(got.html).toContain('<p>plain</p>');
  expect(got.from).toContain('no-reply@example.org');
});

test('a 4xx reply is temporary, a 5xx reply is final, an unreachable server is temporary', async () => {
  const mailer = createSmtpMailer(config());
  catcher.fail({ code: 451, message: 'Try later' });
  expect(await mailer.send(mail)).toEqual({
    ok: false,
    temporary: true,
    reason: expect.stringContaining('451'),
  });
  catcher.fail({ code: 550, message: 'No such mailbox' });
  expect(await mailer.send(mail)).toEqual({
    ok: false,
    temporary: false,
    reason: expect.stringContaining('550'),
  });
  mailer.close();
  const down = createSmtpMailer({ ...config(), url: 'smtp://127.0.0.1:9', timeoutMs: 2000 });
  expect(await down.send(mail)).toMatchObject({ ok: false, temporary: true });
  down.close();
  expect(catcher.messages).toHaveLength(0);
});

test('the retry schedule grows, jitters within ±20 % and ends', () => {
  expect(retryDelaySeconds(1, [100], () => 0)).toBe(80);
  expect(retryDelaySeconds(1, [100], () => 1)).toBe(120);
  expect(retryDelaySeconds(2, [100])).toBeNull();
  expect(retryDelaySeconds(3)! > retryDelaySeconds(1, undefined, () => 1)!).toBe(true);
});
