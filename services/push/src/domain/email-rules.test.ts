import { emailPlanFor } from './email-policy';
import {
  SUPPORTED_LOCALES,
  isSupportedLocale,
  parseNoticeKinds,
  parseRecipients,
  senderLocaleOf,
} from './email-rules';
import { pushI18n } from '../languages';
import { EmailRefused } from './errors';

describe('parseRecipients (notify_emails_to)', () => {
  it.each<[string, string[]]>([
    ['a@example.org', ['a@example.org']],
    [' a@example.org ,B@example.org', ['a@example.org', 'B@example.org']],
  ])('takes %j', (raw, recipients) => {
    expect(parseRecipients(raw)).toEqual({ ok: true, recipients });
  });

  it.each<[string, string]>([
    ['', "can't be blank"],
    ['a@example.org,', 'empty address'],
    ['a@example.org,,b@example.org', 'empty address'],
    ['a@example.org, A@Example.ORG', 'duplicate'],
    ['nope', 'invalid'],
    ['a@b', 'invalid'],
    ['Name <a@example.org>', 'invalid'],
    ['a@example.org\r\nBcc: x@example.org', 'invalid'],
    [[1, 2, 3, 4, 5, 6].map((i) => `r${i}@example.org`).join(','), 'at most 5'],
    ['x'.repeat(5000), 'at most 5'],
  ])('refuses %j (%s)', (raw, words) => {
    const parsed = parseRecipients(raw);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.join(' ')).toContain(words);
  });
});

describe("the email languages (notify_emails_to_locale, the sender's language)", () => {
  it('are the languages with a catalogue, spelled exactly as Password Pusher does', () => {
    expect(SUPPORTED_LOCALES).toEqual(['en', 'de', 'fr', 'es', 'it', 'nl', 'pt-BR', 'pl']);
    for (const tag of SUPPORTED_LOCALES) expect(isSupportedLocale(tag)).toBe(true);
    for (const tag of ['pt-br', 'PT-BR', 'DE', 'pt', 'en-XA', 'xx', '']) {
      expect(isSupportedLocale(tag)).toBe(false);
    }
  });

  // The sender's language: negotiated by the service's I18n (cookie, Accept-Language, best fit
  // against the offered languages, else the default), then an email language or the fallback.
  const languages = pushI18n({ languages: ['en', 'de', 'fr', 'pt-BR'], defaultLanguage: 'de', pseudo: true });
  it.each<[string | undefined, string]>([
    [undefined, 'de'],
    ['en-GB,en;q=0.9', 'en'],
    ['fr-CH, fr;q=0.9, en;q=0.8', 'fr'],
    ['pt', 'pt-BR'],
    ['it, nl', 'de'],
    ['en-XA', 'de'],
  ])('Accept-Language %j → %j', (header, locale) => {
    const negotiated = languages.negotiateHeaders({ acceptLanguage: header });
    expect(senderLocaleOf(negotiated, languages.defaultLanguage)).toBe(locale);
  });
});

describe('parseNoticeKinds (notify_owner_on)', () => {
  it('reads arrays and comma-separated strings, canonical order, each once', () => {
    expect(parseNoticeKinds(['expired_unseen', 'view', 'view'])).toEqual({
      ok: true,
      kinds: ['view', 'expired_unseen'],
    });
    expect(parseNoticeKinds('failed_passphrase, view')).toEqual({
      ok: true,
      kinds: ['view', 'failed_passphrase'],
    });
    expect(parseNoticeKinds('')).toEqual({ ok: true, kinds: [] });
    expect(parseNoticeKinds(['viewed']).ok).toBe(false);
    expect(parseNoticeKinds({ view: true }).ok).toBe(false);
  });
});

describe('emailPlanFor (who may email what)', () => {
  const on = { enabled: true, dailyLimit: 500 };
  const person = { userId: 'u1', verifiedEmail: 'p@example.org', noticeDefaults: ['view' as const] };
  const send = { recipients: ['a@example.org'], locale: null, includeSender: false };

  it('writes nothing for a create without email by a person without defaults', () => {
    expect(
      emailPlanFor(undefined, { owner: 'user:u1', sender: { ...person, noticeDefaults: [] } }, on, null),
    ).toBeNull();
    expect(emailPlanFor(undefined, { owner: 'client:c', sender: null }, on, null)).toBeNull();
  });

  it("applies a person's defaults, only where email is on", () => {
    expect(emailPlanFor(undefined, { owner: 'user:u1', sender: person }, on, null)).toEqual({
      noticeOn: ['view'],
      locale: 'en',
      send: null,
    });
    expect(
      emailPlanFor(undefined, { owner: 'user:u1', sender: person }, { ...on, enabled: false }, null),
    ).toBeNull();
  });

  it('decides the locale: asked, else the sender’s, else the default', () => {
    const plan = emailPlanFor({ send, noticeOn: null }, { owner: 'client:c', sender: null }, on, 'en');
    expect(plan?.send).toMatchObject({ locale: 'en', senderAddress: null, dailyLimit: 500 });
  });

  it.each<[string, Parameters<typeof emailPlanFor>, string]>([
    [
      'anonymous recipients',
      [{ send, noticeOn: null }, { owner: null, sender: null }, on, null],
      'notify_emails_to',
    ],
    [
      'email off',
      [{ send, noticeOn: null }, { owner: 'client:c', sender: null }, { ...on, enabled: false }, null],
      'notify_emails_to',
    ],
    [
      'notices by a client',
      [{ send: null, noticeOn: ['view'] }, { owner: 'client:c', sender: null }, on, null],
      'notify_owner_on',
    ],
    [
      'notices by an unverified person',
      [
        { send: null, noticeOn: ['view'] },
        { owner: 'user:u1', sender: { ...person, verifiedEmail: null } },
        on,
        null,
      ],
      'notify_owner_on',
    ],
    [
      'the sender named by a client',
      [
        { send: { ...send, includeSender: true }, noticeOn: null },
        { owner: 'client:c', sender: null },
        on,
        null,
      ],
      'notify_emails_include_sender',
    ],
  ])('refuses %s', (_case, args, field) => {
    try {
      emailPlanFor(...args);
      throw new Error('not refused');
    } catch (err) {
      expect(err).toBeInstanceOf(EmailRefused);
      expect(Object.keys((err as EmailRefused).fields)).toContain(field);
    }
  });
});
