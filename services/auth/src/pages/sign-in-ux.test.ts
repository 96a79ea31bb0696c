import { accountPage } from './account-page';
import { backToApp, signInCancelledPage } from './app-link';
import { enrolPage } from './enrol-page';
import { loginPage } from './login-page';
import { recoveryCodesPage, recoveryCodesText } from './recovery-codes-page';
import { ANY_CODE_PATTERN, APP_CODE_PATTERN, secondFactorPage } from './second-factor-page';
import { trusted } from '@secret-push/html';
import { authI18n } from '../languages';

// The pages' texts come from the catalogues: outside a request, in the default language (English).
authI18n({ languages: ['en'], defaultLanguage: 'en' });

/** The whole-value match a browser applies to a `pattern` (with the `v` flag, as Chromium does). */
const matches = (pattern: string, value: string) => new RegExp(`^(?:${pattern})$`, 'v').test(value);

const login = { action: '/interaction/abc/login', csrfToken: 't', clientName: 'secret-push' };
const cancel = { action: '/interaction/abc/cancel', csrfToken: 'c' };

describe('Cancel on the sign-in pages', () => {
  it('is a form of its own (its own token, no password field) on the login and second-factor pages', () => {
    for (const page of [
      loginPage({ ...login, cancel }),
      secondFactorPage({ ...login, action: '/interaction/abc/second-factor', cancel }),
    ]) {
      const form =
        /<form method="post" action="\/interaction\/abc\/cancel" class="cancel">([\s\S]*?)<\/form>/.exec(
          page,
        );
      expect(form).not.toBeNull();
      expect(form![1]).toContain('<input type="hidden" name="csrf" value="c" />');
      expect(form![1]).not.toContain('password');
      expect(form![1]).toMatch(/<button type="submit" class="secondary"[^>]*>Cancel<\/button>/);
      expect(form![1]).toContain('Back to secret-push without signing in.');
    }
    expect(loginPage(login)).not.toContain('/cancel');
  });

  it('the login page links "Forgot password?" only where it is given (email on)', () => {
    expect(loginPage(login)).not.toContain('Forgot password?');
    expect(loginPage({ ...login, forgotUrl: '/interaction/abc/forgot' })).toContain(
      '<a href="/interaction/abc/forgot">Forgot password?</a>',
    );
  });
});

describe('the code fields', () => {
  it('enrolment takes the 6 digits of an app: numeric keyboard, one-time-code, a pattern', () => {
    const page = enrolPage({
      action: '/a',
      csrfToken: 't',
      lead: 'x',
      qr: trusted('<svg></svg>'),
      secret: 'AB',
    });
    expect(page).toMatch(/id="enrol-code"[^>]*autocomplete="one-time-code"[^>]*inputmode="numeric"/);
    expect(page).toContain(`pattern="${APP_CODE_PATTERN}"`);
  });

  it('sign-in also takes a recovery code: a text keyboard, the pattern of both', () => {
    const page = secondFactorPage({ ...login, action: '/interaction/abc/second-factor' });
    expect(page).toMatch(/id="code"[^>]*autocomplete="one-time-code"[^>]*inputmode="text"/);
    expect(page).toContain(`pattern="${ANY_CODE_PATTERN}"`);
  });

  it('the patterns take what the server takes, and refuse what it never would', () => {
    for (const ok of ['123456', ' 123 456 ', '1 2 3 4 5 6']) {
      expect(matches(APP_CODE_PATTERN, ok)).toBe(true);
      expect(matches(ANY_CODE_PATTERN, ok)).toBe(true);
    }
    for (const code of ['abcde-fgh23', 'ABCDEFGH23', 'abcde fgh23', ' abcde-fgh23 ']) {
      expect(matches(APP_CODE_PATTERN, code)).toBe(false);
      expect(matches(ANY_CODE_PATTERN, code)).toBe(true);
    }
    for (const bad of ['12345', '1234567', 'abc', 'abcde-fgh2', 'abcde-fgh01', '12345a']) {
      expect(matches(APP_CODE_PATTERN, bad)).toBe(false);
      expect(matches(ANY_CODE_PATTERN, bad)).toBe(false);
    }
  });
});

describe('the recovery codes page', () => {
  const codes = ['abcde-fghij', 'klmno-pqrst'];
  const page = recoveryCodesPage({
    codes,
    next: { link: { href: '/account', label: 'Back to your account' } },
  });

  it('downloads the codes as a text file without JavaScript (a data: link), one a line', () => {
    const href = /<a class="download" href="([^"]+)" download="secret-push-recovery-codes.txt"/.exec(page);
    expect(href).not.toBeNull();
    expect(href![1]!.startsWith('data:text/plain;charset=utf-8,')).toBe(true);
    const text = decodeURIComponent(href![1]!.slice('data:text/plain;charset=utf-8,'.length));
    expect(text).toBe(recoveryCodesText(codes));
    expect(text.split('\n')).toEqual(expect.arrayContaining(codes));
  });

  it('has Copy and Print hidden until its served script shows them, and a status line', () => {
    expect(page).toContain('<button type="button" class="secondary" id="copy-codes" hidden>Copy</button>');
    expect(page).toContain('<button type="button" class="secondary" id="print-codes" hidden>Print</button>');
    expect(page).toContain('<p class="hint" id="codes-status" role="status"></p>');
    expect(page).toContain('<script src="/static/recovery-codes.js" defer></script>');
    expect(page).not.toMatch(/<script>|onclick=/);
  });
});

describe('the way back to the app (AUTH_APP_URL)', () => {
  const account = {
    email: 'a@example.org',
    secondFactor: false,
    recoveryCodesLeft: 0,
    totpRequired: false,
    csrfToken: 't',
    signOutHref: '/connect/endsession',
  };

  it('is linked from the account page when set, and absent when not', () => {
    const app = { url: 'https://push.example/', name: 'secret-push' };
    expect(accountPage({ ...account, app })).toContain(
      '<a href="https://push.example/">Back to secret-push</a>',
    );
    expect(accountPage({ ...account, app: { name: 'secret-push' } })).not.toContain('Back to');
    expect(accountPage(account)).not.toContain('Back to');
    const evil = backToApp({ url: 'https://x.example/"><b>', name: '<i>' }).toString();
    expect(evil).toContain('Back to &lt;i&gt;');
    expect(evil).not.toMatch(/<b>|<i>/);
  });

  it('a cancelled sign-in of the account page says so calmly, with the way back', () => {
    const page = signInCancelledPage({ url: 'https://push.example/', name: 'secret-push' });
    expect(page).toContain('<h1>Sign-in cancelled</h1>');
    expect(page).toContain('<a href="https://push.example/">Back to secret-push</a>');
    expect(page).toContain('<a href="/account">Sign in to your account page</a>');
  });
});
