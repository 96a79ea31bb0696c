import { composeRequestAnswered, composeRequestCode, composeRequestLink } from './request-email-compose';
import { pushI18n } from '../languages';

const en = pushI18n().translator('en');

// The request emails say what may be told and nothing else (no message, note, passphrase, answer).

const NOW = new Date('2026-11-27T12:00:00.000Z');
const URL = 'https://push.example/respond/tok123';

describe('composeRequestLink', () => {
  it('links to the responder page, names nobody unless asked, says when it closes', () => {
    const m = composeRequestLink(en, {
      url: URL,
      passphraseProtected: false,
      closeAfterAt: new Date('2026-11-30T12:00:00.000Z'),
      requestorAddress: null,
      now: NOW,
    });
    expect(m.subject).toBe('You are asked to send a secret');
    expect(m.text).toContain('Someone asks you to send them a secret');
    expect(m.text).toContain(URL);
    expect(m.html).toContain(`href="${URL}"`);
    expect(m.text).toContain('closes in 3 days');
    expect(m.text).not.toContain('passphrase');
    expect(m.headers['Content-Language']).toBe('en');
  });

  it('names the requester when shown, escaped in the HTML, and mentions the passphrase', () => {
    const m = composeRequestLink(en, {
      url: URL,
      passphraseProtected: true,
      closeAfterAt: new Date('2026-11-27T14:00:00.000Z'),
      requestorAddress: 'o<b>@example.org',
      now: NOW,
    });
    expect(m.text).toContain('o<b>@example.org asks you to send them a secret');
    expect(m.html).toContain('o&lt;b&gt;@example.org');
    expect(m.text).toContain('Answering needs a passphrase');
    expect(m.text).toContain('closes in 2 hours');
  });
});

describe('composeRequestAnswered', () => {
  it('names the request on one line and links to its owner page, never the answer', () => {
    const m = composeRequestAnswered(en, {
      name: 'vendor\nkey',
      createdAt: NOW,
      ownerUrl: 'https://push.example/requests/tok123',
    });
    expect(m.subject).toBe('Your request was answered: “vendor key”');
    expect(m.text).toContain('https://push.example/requests/tok123');
    expect(m.text).toContain('never contains the answer');
  });

  it('names an unnamed request by its creation time', () => {
    const m = composeRequestAnswered(en, { name: null, createdAt: NOW, ownerUrl: 'https://x/requests/t' });
    expect(m.subject).toBe('Your request was answered: your request created Nov 27, 2026, 12:00 UTC');
  });
});

describe('composeRequestCode', () => {
  it('carries the code and its validity only', () => {
    const m = composeRequestCode(en, { code: '042517', validMinutes: 15 });
    expect(m.subject).toBe('Your code: 042517');
    expect(m.text).toContain('042517');
    expect(m.text).toContain('valid for 15 minutes');
  });
});
