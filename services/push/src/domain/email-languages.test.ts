import { LANGUAGES, type Translator } from '@secret-push/i18n';
import { untranslatedText } from '@secret-push/testing';
import { pushI18n } from '../languages';
import {
  type ComposedMessage,
  composeEndpointDisabled,
  composeLinkEmail,
  composeNotice,
} from './email-compose';
import { composeRequestAnswered, composeRequestCode, composeRequestLink } from './request-email-compose';

// Every email kind in every language, from the catalogue (`email.…`): the pseudo-locale leaves no
// plain-English word in the HTML part (en-XA is no email language: the translator is built here),
// plural forms as each language needs them (Polish: one, few, many), dates through Intl.

const NOW = new Date('2026-11-26T12:00:00Z');
const inDays = (n: number) => new Date(NOW.getTime() + n * 86_400_000);
const inHours = (n: number) => new Date(NOW.getTime() + n * 3_600_000);

/** One message of each kind (and each variant: named or not, with a reason or not). */
function everyKind(tr: Translator): ComposedMessage[] {
  return [
    composeLinkEmail(tr, {
      url: 'https://push.example.org/p/TOKEN/r',
      retrievalStep: true,
      passphraseProtected: true,
      expiresAt: inDays(7),
      viewsLeft: 5,
      senderAddress: 'owner@example.org',
      now: NOW,
    }),
    composeLinkEmail(tr, {
      url: 'https://push.example.org/p/TOKEN',
      retrievalStep: false,
      passphraseProtected: false,
      expiresAt: inHours(3),
      viewsLeft: null,
      senderAddress: null,
      now: NOW,
    }),
    composeNotice(tr, 'viewed', { name: 'zzqx', createdAt: NOW }),
    composeNotice(tr, 'failed_passphrase', { name: null, createdAt: NOW }),
    composeNotice(tr, 'expired_unseen', { name: null, createdAt: NOW }),
    composeEndpointDisabled(tr, {
      url: 'https://hooks.example.net/in/abc',
      reason: 'HTTP 500',
      manageUrl: 'https://push.example.org/users/webhooks',
    }),
    composeEndpointDisabled(tr, {
      url: 'not a url',
      reason: null,
      manageUrl: 'https://push.example.org/users/webhooks',
    }),
    composeRequestLink(tr, {
      url: 'https://push.example.org/respond/tok',
      passphraseProtected: true,
      closeAfterAt: inDays(3),
      requestorAddress: 'asker@example.org',
      now: NOW,
    }),
    composeRequestLink(tr, {
      url: 'https://push.example.org/respond/tok',
      passphraseProtected: false,
      closeAfterAt: inHours(1),
      requestorAddress: null,
      now: NOW,
    }),
    composeRequestAnswered(tr, {
      name: 'zzqx',
      createdAt: NOW,
      ownerUrl: 'https://push.example.org/requests/tok',
    }),
    composeRequestAnswered(tr, {
      name: null,
      createdAt: NOW,
      ownerUrl: 'https://push.example.org/requests/tok',
    }),
    composeRequestCode(tr, { code: '042517', validMinutes: 15 }),
  ];
}

describe('the emails in the pseudo-locale (en-XA)', () => {
  const languages = pushI18n({ languages: ['en'], defaultLanguage: 'en', pseudo: true });
  const pseudo = languages.translator('en-XA');

  it('every kind comes from the catalogue: nothing untranslated in the HTML part, nor in the subject', () => {
    expect(pseudo.locale).toBe('en-XA');
    // Allowed: the test's own data, a date Intl formats (en-XA formats as English), the API call.
    const allow = ['zzqx', 'Nov 26, 2026, 12:00 UTC', 'HTTP 500', 'PATCH'];
    for (const m of everyKind(pseudo)) {
      expect(m.html).toContain('<html lang="en-XA"');
      expect(untranslatedText(m.html, allow)).toEqual([]);
      expect(untranslatedText(`<p>${m.subject}</p>`, allow)).toEqual([]);
      expect(m.headers['Content-Language']).toBe('en-XA');
    }
    expect([...languages.problems]).toEqual([]);
  });
});

describe('the emails in every language', () => {
  const languages = pushI18n();

  it.each(LANGUAGES)(
    '%s: every kind formats (no missing key or argument), lang and Content-Language set',
    (lang) => {
      const tr = languages.translator(lang);
      const english = everyKind(languages.translator('en'));
      everyKind(tr).forEach((m, i) => {
        expect(m.html).toContain(`<html lang="${lang}" dir="ltr"`);
        expect(m.headers['Content-Language']).toBe(lang);
        expect(m.text).not.toMatch(/[{}]/);
        if (lang !== 'en') {
          expect(m.subject === english[i]!.subject && m.text === english[i]!.text).toBe(false);
        }
      });
      expect([...languages.problems]).toEqual([]);
    },
  );

  it('German: durations, views and the creation date in German', () => {
    const de = languages.translator('de');
    const [link] = everyKind(de);
    expect(link!.subject).toBe('Sie haben ein Geheimnis erhalten');
    expect(link!.text).toContain(
      'Der Link läuft in 7 Tagen oder nach 5 Aufrufen ab – je nachdem, was zuerst eintritt.',
    );
    const unnamed = composeNotice(de, 'expired_unseen', { name: null, createdAt: NOW });
    expect(unnamed.subject).toBe(
      'Ihr Geheimnis ist ohne Aufruf abgelaufen: Ihr Geheimnis vom 26. Nov. 2026, 12:00 UTC',
    );
    expect(composeRequestCode(de, { code: '042517', validMinutes: 1 }).text).toContain(
      'Er ist 1 Minute lang gültig',
    );
  });

  it('Polish: one, few and many (2 and 5 days, hours, views, minutes)', () => {
    const pl = languages.translator('pl');
    const link = (expiresAt: Date, viewsLeft: number) =>
      composeLinkEmail(pl, {
        url: 'https://push.example.org/p/T',
        retrievalStep: false,
        passphraseProtected: false,
        expiresAt,
        viewsLeft,
        senderAddress: null,
        now: NOW,
      }).text;
    expect(link(inDays(1), 1)).toContain('Link wygasa za 1 dzień lub po 1 wyświetleniu');
    expect(link(inDays(2), 2)).toContain('Link wygasa za 2 dni lub po 2 wyświetleniach');
    expect(link(inDays(5), 5)).toContain('Link wygasa za 5 dni lub po 5 wyświetleniach');
    expect(link(inHours(2), 22)).toContain('za 2 godziny lub po 22 wyświetleniach');
    expect(link(inHours(5), 12)).toContain('za 5 godzin lub po 12 wyświetleniach');
    expect(link(inHours(1), 3)).toContain('za 1 godzinę');
    const valid = (minutes: number) => composeRequestCode(pl, { code: '1', validMinutes: minutes }).text;
    expect(valid(1)).toContain('przez 1 minutę');
    expect(valid(2)).toContain('przez 2 minuty');
    expect(valid(5)).toContain('przez 5 minut');
    expect(valid(22)).toContain('przez 22 minuty');
  });

  it('French: the many form for a million, numbers grouped the French way', () => {
    const fr = languages.translator('fr');
    const text = composeLinkEmail(fr, {
      url: 'https://push.example.org/p/T',
      retrievalStep: false,
      passphraseProtected: false,
      expiresAt: inDays(1),
      viewsLeft: 1_000_000,
      senderAddress: null,
      now: NOW,
    }).text;
    expect(text).toContain('Le lien expire dans 1 jour ou après 1\u202f000\u202f000 de consultations');
  });
});
