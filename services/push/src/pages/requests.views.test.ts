import { type OwnedRequest, requestDetailPage } from './requests.views';
import { pushI18n } from '../languages';

// The catalogues (form-parts.views): outside a request, the default language (English).
beforeAll(() => {
  pushI18n();
});

describe('requestDetailPage', () => {
  const request: OwnedRequest = {
    urlToken: 'T',
    link: 'https://push.example/respond/T',
    state: 'open',
    name: null,
    note: null,
    message: 'Send the <key>',
    passphrase: false,
    answerableBy: 'anyone',
    answerableEmails: [],
    responseFileAttachments: true,
    includeRequestor: false,
    expireAfterViews: 1,
    createdAt: new Date('2030-01-01T00:00:00Z'),
    closeAfterAt: new Date('2030-01-08T00:00:00Z'),
    answeredAt: null,
    closedAt: null,
    closedReason: null,
    answer: null,
  };
  const header = { signInEnabled: true, user: { email: 'owner@example.org' }, csrf: 'c', requests: true };

  it('shows the message escaped in its box', () => {
    const page = requestDetailPage({ header, request, entries: [] }).value;
    expect(page).toContain('<div class="secret" id="request-message">Send the &lt;key&gt;</div>');
  });

  it('a request made of files alone (a blank message): a line that says so, no empty box', () => {
    const page = requestDetailPage({ header, request: { ...request, message: '' }, entries: [] }).value;
    expect(page).not.toContain('class="secret" id="request-message"');
    expect(page).toMatch(/<p id="request-message">\s*No message: the responder sees the files you attached/);
  });
});
