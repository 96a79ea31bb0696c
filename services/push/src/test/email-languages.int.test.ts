import request from 'supertest';
import { type CaughtMail, type MailCatcher, startMailCatcher } from '@secret-push/testing';
import { type WorkerService } from '../worker-server';
import { startTestWorker } from '../testing';
import { type Harness, bearer, createPush, harness } from './support/helpers';
import { personWithToken } from './support/email';

// The emails in the recipient's language, through the API, the worker and a real SMTP server (the
// in-process catcher): `notify_emails_to_locale` if given, else the sender's language at creation
// (Accept-Language, negotiated against the offered languages), else I18N_DEFAULT_LANGUAGE; the
// subject, both parts, `<html lang>` and `Content-Language` in that language.
jest.setTimeout(90_000);

let h: Harness;
let catcher: MailCatcher;
let worker: WorkerService;

beforeAll(async () => {
  catcher = await startMailCatcher();
  h = await harness({
    env: { PUSH_SMTP_URL: catcher.url, PUSH_MAIL_FROM: 'secret-push <no-reply@mail.example.org>' },
  });
  worker = await startTestWorker(h.push);
});
afterAll(async () => {
  await worker.close();
  await h.stop();
  await catcher.close();
});

const api = () => request(h.push.url);
const mailTo = (to: string, match: (m: CaughtMail) => boolean = () => true) =>
  catcher.waitFor((m) => m.envelope.to.includes(to) && match(m), 20_000);
function expectLanguage(m: CaughtMail, lang: string) {
  expect(m.html).toContain(`<html lang="${lang}"`);
  expect(m.headers['content-language']).toBe(lang);
}

describe('a push’s emails', () => {
  it('notify_emails_to_locale=de: the link in German (subject, text, HTML), the owner’s notice in German too', async () => {
    const person = await personWithToken(h.push);
    const created = await createPush(
      h.push.url,
      {
        payload: 'x',
        name: 'DB-Zugang',
        notify_emails_to: 'de-rcpt@example.org',
        notify_emails_to_locale: 'de',
        notify_owner_on: ['view'],
        expire_after_days: 7,
        expire_after_views: 5,
      },
      person.token,
    );
    expect(created.status).toBe(201);
    expect(created.body.notify_emails_to_locale).toBe('de');
    const m = await mailTo('de-rcpt@example.org');
    expect(m.subject).toBe('Sie haben ein Geheimnis erhalten');
    for (const part of [m.text, m.html]) {
      expect(part).toContain('Jemand hat Ihnen ein Geheimnis gesendet');
      expect(part).toContain('Öffnen Sie es über diesen Link:');
      expect(part).toContain('Der Link läuft in 7 Tagen oder nach 5 Aufrufen ab');
    }
    expectLanguage(m, 'de');

    const t = created.body.url_token as string;
    expect((await api().get(`/api/v2/pushes/${t}`)).status).toBe(200);
    const notice = await mailTo(person.email!);
    expect(notice.subject).toBe('Ihr Geheimnis wurde aufgerufen: „DB-Zugang“');
    expect(notice.text).toContain('„DB-Zugang“ wurde soeben aufgerufen.');
    expect(notice.text).toContain('Diese Nachricht enthält niemals das Geheimnis.');
    expectLanguage(notice, 'de');
  });

  it('no locale, Accept-Language: fr-CH: the sender’s language (French); none offered: the default (English)', async () => {
    const fr = await api()
      .post('/api/v2/pushes')
      .set(bearer(h.token))
      .set('Accept-Language', 'fr-CH, fr;q=0.9, en;q=0.5')
      .send({ push: { payload: 'x', notify_emails_to: 'fr-rcpt@example.org', expire_after_views: 1 } });
    expect(fr.status).toBe(201);
    // The API's own answers stay English whatever the language.
    const m = await mailTo('fr-rcpt@example.org');
    expect(m.subject).toBe('Vous avez reçu un secret');
    expect(m.text).toContain('Quelqu’un vous a envoyé un secret');
    expect(m.text).toMatch(
      /Le lien expire dans \d+ jours ou après 1 consultation, selon ce qui arrive en premier\./,
    );
    expectLanguage(m, 'fr');

    const ja = await api()
      .post('/api/v2/pushes')
      .set(bearer(h.token))
      .set('Accept-Language', 'ja, zh;q=0.8')
      .send({ push: { payload: 'x', notify_emails_to: 'ja-rcpt@example.org' } });
    expect(ja.status).toBe(201);
    const en = await mailTo('ja-rcpt@example.org');
    expect(en.subject).toBe('You have received a secret');
    expectLanguage(en, 'en');
  });

  it('refuses a language that is not one (exact tags: pt-BR, not pt-br), in English', async () => {
    const refused = await api()
      .post('/api/v2/pushes')
      .set(bearer(h.token))
      .set('Accept-Language', 'de')
      .send({ push: { payload: 'x', notify_emails_to: 'x@example.org', notify_emails_to_locale: 'pt-br' } });
    expect(refused.status).toBe(422);
    expect(refused.body.fields.notify_emails_to_locale).toEqual(['is not available']);
  });
});

describe('a request’s emails', () => {
  it('notify_emails_to_locale=de: the responder’s link in German', async () => {
    const made = await api()
      .post('/api/v2/requests')
      .set(bearer(h.token))
      .send({
        request: {
          request: 'the message',
          notify_emails_to: 'de-responder@example.org',
          notify_emails_to_locale: 'de',
        },
      });
    expect(made.status).toBe(201);
    const m = await mailTo('de-responder@example.org');
    expect(m.subject).toBe('Sie werden um ein Geheimnis gebeten');
    expect(m.text).toContain('Jemand bittet Sie, ein Geheimnis zu senden');
    expect(m.text).toContain(`/respond/${made.body.url_token as string}`);
    expect(m.text).toMatch(
      /Die Anfrage wird in \d+ (Tagen|Stunden) geschlossen oder sobald sie beantwortet ist\./,
    );
    expect(m.text).not.toContain('the message');
    expectLanguage(m, 'de');
  });

  it('no locale, Accept-Language: de-DE: a listed responder’s code email in German (the requester’s language)', async () => {
    const made = await api()
      .post('/api/v2/requests')
      .set(bearer(h.token))
      .set('Accept-Language', 'de-DE,de;q=0.9,en;q=0.8')
      .send({
        request: { request: 'codes', answerable_by: 'emails', answerable_emails: 'listed-de@example.org' },
      });
    expect(made.status).toBe(201);
    const asked = await api()
      .post(`/api/v2/requests/${made.body.url_token as string}/code`)
      .send({ email: 'listed-de@example.org' });
    expect(asked.status).toBe(202);
    const m = await mailTo('listed-de@example.org');
    expect(m.subject).toMatch(/^Ihr Code: \d{6}$/);
    expect(m.text).toMatch(
      /Geben Sie diesen Code ein, um die Anfrage nach einem Geheimnis zu beantworten: \d{6}/,
    );
    expect(m.text).toMatch(/Er ist \d+ Minuten lang gültig und kann einmal verwendet werden\./);
    expectLanguage(m, 'de');
  });
});
