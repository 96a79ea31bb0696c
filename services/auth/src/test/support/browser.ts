/**
 * Just enough of a browser for the sign-in tests: `fetch` with a cookie jar (names and paths; like
 * a browser, cookies are per host, not per port), redirects followed by hand, and form posts.
 */
interface Cookie {
  value: string;
  path: string;
}

export interface Page {
  status: number;
  url: string;
  headers: Headers;
  body: string;
  /** The Location of a redirect, resolved against the request's URL. */
  location?: string;
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

export class Browser {
  private readonly jar = new Map<string, Cookie>();
  /** Every cookie value ever set, for the tests that check logs never contain one. */
  readonly cookieValuesSeen: string[] = [];

  /** Headers sent with every request (e.g. X-Forwarded-For, to stand for another client address). */
  constructor(private readonly headers: Record<string, string> = {}) {}

  private store(setCookies: string[], requestPath: string): void {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';').map((p) => p.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let path = requestPath.replace(/\/[^/]*$/, '') || '/';
      let expired = value === '';
      for (const attribute of attributes) {
        const [key = '', val = ''] = attribute.split('=');
        if (key.toLowerCase() === 'path') path = val;
        if (key.toLowerCase() === 'expires' && Date.parse(val) <= Date.now()) expired = true;
        if (key.toLowerCase() === 'max-age' && Number(val) <= 0) expired = true;
      }
      const key = `${name}|${path}`;
      if (expired) {
        this.jar.delete(key);
      } else {
        this.jar.set(key, { value, path });
        this.cookieValuesSeen.push(value);
      }
    }
  }

  /** The cookies that would be sent to `path`, by name. */
  cookiesFor(path: string): Map<string, string> {
    const out = new Map<string, string>();
    for (const [key, cookie] of this.jar) {
      if (pathMatches(path, cookie.path)) out.set(key.slice(0, key.indexOf('|')), cookie.value);
    }
    return out;
  }

  /** Whether any cookie named `name` is in the jar. */
  has(name: string): boolean {
    return [...this.jar.keys()].some((k) => k.startsWith(`${name}|`));
  }

  async request(
    url: string | URL,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<Page> {
    const target = new URL(url);
    const cookie = [...this.cookiesFor(target.pathname)].map(([n, v]) => `${n}=${v}`).join('; ');
    const headers: Record<string, string> = {
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      ...this.headers,
      ...init.headers,
    };
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(target, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      headers,
      body,
      redirect: 'manual',
    });
    this.store(res.headers.getSetCookie(), target.pathname);
    const location = res.headers.get('location');
    return {
      status: res.status,
      url: target.href,
      headers: res.headers,
      body: await res.text(),
      location: location === null ? undefined : new URL(location, target).href,
    };
  }

  get(url: string | URL, headers?: Record<string, string>): Promise<Page> {
    return this.request(url, { headers });
  }

  post(url: string | URL, form: Record<string, string>, headers?: Record<string, string>): Promise<Page> {
    return this.request(url, { form, headers });
  }

  /**
   * Requests `url` and follows redirects while they stay on `origin` (the auth service); returns
   * the last answer: a page, or a redirect that leaves the origin (to the application).
   */
  async follow(url: string | URL, origin: string, first?: Promise<Page>): Promise<Page> {
    let page = await (first ?? this.get(url));
    for (let hops = 0; page.location && new URL(page.location).origin === origin; hops++) {
      if (hops > 10) throw new Error('too many redirects');
      page = await this.get(page.location);
    }
    return page;
  }
}

/** The value of the hidden input `name` in a page. */
export function hiddenInput(body: string, name: string): string | undefined {
  return new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(body)?.[1];
}

/** The action of the page's (first) form; the frame's language selector (`/language`) is not one. */
export function formAction(body: string): string | undefined {
  return /<form method="post" action="(?!\/language")([^"]*)"/.exec(body)?.[1];
}
