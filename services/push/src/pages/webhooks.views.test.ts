import { WEBHOOK_EVENT_TYPES } from '../domain/webhook';
import { pushI18n } from '../languages';
import { webhooksPage } from './webhooks.views';

// The views speak the default language (English) outside a request: the catalogues load first.
pushI18n();

describe('webhooksPage: the event types of the form', () => {
  const page = webhooksPage({
    header: { signInEnabled: true, user: { email: 'owner@example.org' }, csrf: 'c' },
    csrf: 'c',
    endpoints: [],
  }).value;
  /** The label of a type's checkbox, as text. */
  const label = (t: string) => {
    const m = new RegExp(`<label for="type-${t.replace('.', '-')}"><code>${t}</code>: ([^<]*)</label>`).exec(
      page,
    );
    return m?.[1];
  };

  it('explains every type, the request ones included', () => {
    for (const t of WEBHOOK_EVENT_TYPES) {
      expect({ t, label: label(t) }).toEqual({ t, label: expect.any(String) });
    }
    expect(label('request.answered')).toMatch(/^a request of yours is answered/);
    expect(label('request.closed')).toMatch(/^a request of yours is closed/);
  });

  it("says a failed email may be a push's or a request's", () => {
    expect(label('email.delivery_failed')).toBe(
      'an email about a push or request of yours could not be delivered (a push&#39;s link to a recipient, ' +
        'a request&#39;s link to the responder, or a notice to you)',
    );
  });
});
