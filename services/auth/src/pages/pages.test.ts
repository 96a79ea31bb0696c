import { html } from '@secret-push/html';
import { trusted } from '@secret-push/html';
import { accountPage } from './account-page';
import { enrolPage } from './enrol-page';
import { loginPage } from './login-page';
import { signupPage } from './signup-page';
import { recoveryCodesPage } from './recovery-codes-page';
import { secondFactorPage } from './second-factor-page';
import { formTarget, pageCsp } from './page-headers';
import { authI18n } from '../languages';

// The pages' texts come from the catalogues: outside a request, in the default language (English).
authI18n({ languages: ['en'], defaultLanguage: 'en' });

describe('formTarget', () => {
  it('is the origin of an http(s) URL, the scheme alone for an IPv6 literal, nothing otherwise', () => {
    expect(formTarget('https://push.example:8443/auth/callback?x=1')).toBe('https://push.example:8443');
    expect(formTarget('http://127.0.0.1:3000/cb')).toBe('http://127.0.0.1:3000');
    expect(formTarget('http://[::1]:3000/cb')).toBe('http:');
    expect(formTarget('com.example.app:/cb')).toBeUndefined();
    expect(formTarget('javascript:alert(1)')).toBeUndefined();
    expect(formTarget('not a url')).toBeUndefined();
    expect(formTarget(undefined)).toBeUndefined();
  });
});

describe('pageCsp', () => {
  it("allows forms to 'self' and the given targets only, once each", () => {
    expect(pageCsp(['https://a.example', undefined, 'https://a.example'])).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self' https://a.example; " +
        "frame-ancestors 'none'; base-uri 'none'",
    );
    expect(pageCsp()).toContain("form-action 'self';");
  });
});

describe('the pages', () => {
  it('escape every interpolated value', () => {
    expect(html`<p title="${'"><script>'}">${'<b>&'}</p>`.value).toBe(
      '<p title="&quot;&gt;&lt;script&gt;">&lt;b&gt;&amp;</p>',
    );
    const page = loginPage({
      action: '/interaction/abc/login',
      csrfToken: 'tok"en',
      clientName: '<App & Co>',
      email: '"><img src=x onerror=alert(1)>',
      error: 'Incorrect email or password.',
    });
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;App &amp; Co&gt;');
    expect(page).toContain('value="tok&quot;en"');
    expect(page).toContain('aria-describedby="login-error"');
  });

  it('second factor, enrolment, recovery codes and account pages: escaped, every field labelled', () => {
    const evil = '<img src=x onerror=alert(1)>';
    const pages = [
      secondFactorPage({
        action: '/interaction/u/second-factor',
        csrfToken: 't',
        clientName: evil,
        error: evil,
      }),
      enrolPage({ action: '/a', csrfToken: 't', lead: evil, qr: trusted('<svg></svg>'), secret: 'ABCDEFGH' }),
      recoveryCodesPage({ codes: [evil], next: { link: { href: '/account', label: evil } } }),
      accountPage({
        email: evil,
        secondFactor: true,
        recoveryCodesLeft: 1,
        totpRequired: false,
        csrfToken: 't',
        error: { form: 'password', message: evil },
        signOutHref: '/connect/endsession',
      }),
    ];
    for (const page of pages) {
      expect(page).not.toContain('<img src=x');
      const ids = [...page.matchAll(/<input\s+id="([^"]+)"/g)].map((m) => m[1]!);
      for (const id of ids) expect(page).toContain(`<label for="${id}">`);
    }
    expect(pages[1]).toContain('<code class="secret" id="totp-secret">ABCD EFGH</code>');
  });
});

describe('the sign-up page', () => {
  const input = {
    action: '/interaction/abc/signup',
    csrfToken: 'token',
    loginUrl: '/interaction/abc',
    clientName: 'App',
    passwordMinCharacters: 12,
  };

  it('escapes what was typed and ties the error to its field', () => {
    const page = signupPage({
      ...input,
      email: '"><img src=x onerror=alert(1)>',
      error: 'The two passwords do not match.',
      errorField: 'password',
    });
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('aria-describedby="password-hint signup-error"');
    expect(page).toMatch(/id="password"[^>]*autofocus/);
    expect(page).not.toMatch(/id="email"[^>]*autofocus/);
  });

  it('is linked from the login page only when sign-up is on', () => {
    const login = { action: '/interaction/abc/login', csrfToken: 't', clientName: 'App' };
    expect(loginPage(login)).not.toContain('Create an account');
    expect(loginPage({ ...login, signupUrl: '/interaction/abc/signup' })).toContain(
      '<a href="/interaction/abc/signup">Create an account</a>',
    );
  });
});

describe('the layout', () => {
  it('loads the served theme script in <head> (no inline script) and has the hidden theme button it shows', () => {
    const page = loginPage({ action: '/interaction/abc/login', csrfToken: 't', clientName: 'App' });
    const head = page.slice(0, page.indexOf('</head>'));
    expect(head).toContain('<script src="/static/theme.js"></script>');
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page).toMatch(
      /<button\s+type="button"\s+class="quiet theme-toggle"\s+data-theme-toggle[^>]*\shidden\s*>\s*Theme: system\s*<\/button>/,
    );
  });
});
