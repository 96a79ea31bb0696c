import { composeLinkEmail, composeNotice } from './email-compose';
import { pushI18n } from '../languages';
import { notifyByEmailOf } from './push-emails';
import type { EmailDelivery } from './ports/email-store';

const en = pushI18n().translator('en');
const now = new Date('2026-11-26T12:00:00Z');
const facts = {
  url: 'https://push.example.org/p/TOKEN/r',
  retrievalStep: true,
  passphraseProtected: true,
  expiresAt: new Date(now.getTime() + 7 * 86_400_000),
  viewsLeft: 5,
  senderAddress: null,
  now,
};

describe('composeLinkEmail', () => {
  it('says the same in text and HTML: the link, the retrieval step, the passphrase, the expiry in words', () => {
    const m = composeLinkEmail(en, facts);
    for (const part of [m.text, m.html]) {
      expect(part).toContain('Someone sent you a secret');
      expect(part).toContain('https://push.example.org/p/TOKEN/r');
      expect(part).toContain('the passphrase reaches you another way');
      expect(part).toContain('The link expires in 7 days or after 5 views, whichever comes first.');
      expect(part).toContain('revealed only when you press it');
    }
    expect(m.headers['Content-Language']).toBe('en');
  });

  it('names the sender only when asked, escaped in HTML; hours and one view in words', () => {
    const m = composeLinkEmail(en, {
      ...facts,
      senderAddress: '<b>x</b>@example.org',
      passphraseProtected: false,
      retrievalStep: false,
      expiresAt: new Date(now.getTime() + 3 * 3_600_000),
      viewsLeft: 1,
    });
    expect(m.text).toContain('<b>x</b>@example.org sent you a secret');
    expect(m.html).toContain('&lt;b&gt;x&lt;/b&gt;@example.org sent you a secret');
    expect(m.text).toContain('expires in 3 hours or after 1 view,');
    expect(m.text).not.toContain('passphrase');
  });
});

describe('composeNotice', () => {
  it('names the push by its name (one line) or its creation date, never more', () => {
    const named = composeNotice(en, 'viewed', { name: 'db\npassword', createdAt: now });
    expect(named.subject).toBe('Your secret was viewed: “db password”');
    const unnamed = composeNotice(en, 'expired_unseen', { name: null, createdAt: now });
    expect(unnamed.text).toContain(
      'your secret created Nov 26, 2026, 12:00 UTC expired without being viewed.',
    );
    expect(composeNotice(en, 'failed_passphrase', { name: 'x', createdAt: now }).text).toContain(
      'every 10 minutes',
    );
  });
});

describe("notifyByEmailOf (Password Pusher's notify_by_email)", () => {
  const batch = {
    id: 'b',
    auditId: '1',
    recipients: ['a@x.org', 'b@x.org'],
    locale: 'en' as const,
    createdAt: now,
  };
  const d = (recipient: string, status: EmailDelivery['status']): EmailDelivery => ({
    id: recipient,
    purpose: 'push_link',
    recipient,
    status,
    attempts: 1,
    detail: null,
    updatedAt: now,
    batchId: 'b',
    auditId: '1',
  });
  it.each<[EmailDelivery['status'][], string, string | null]>([
    [['queued', 'sent'], 'pending', null],
    [['deferred', 'sent'], 'pending', null],
    [['sent', 'sent'], 'completed', null],
    [['failed', 'sent'], 'partially_failed', 'Some emails could not be sent.'],
    [['failed', 'failed'], 'failed', 'No emails were sent successfully.'],
  ])('%j → %s', (states, status, message) => {
    const n = notifyByEmailOf(batch, [d('a@x.org', states[0]!), d('b@x.org', states[1]!)]);
    expect(n).toMatchObject({ status, errorMessage: message, recipientsCount: 2 });
  });
});
