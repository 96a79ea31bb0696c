/*
 * Just enough of a browser for the web app's sign-in tests: fetch with a cookie jar shared by
 * every port of the host (as a browser's is), redirects followed by hand, and form posts.
 */
/** A browser: cookies by name for the whole host (ports share them), redirects followed by hand. */
export class Browser {
  readonly cookies = new Map<string, string>();
  readonly setCookies: string[] = [];
  readonly visited: string[] = [];

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    if (init.method === 'POST') headers.set('sec-fetch-site', 'same-origin');
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      this.setCookies.push(line);
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1);
      if (/expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0/i.test(line) || value === '') {
        this.cookies.delete(name);
      } else {
        this.cookies.set(name, value);
      }
    }
    return res;
  }

  /**
   * Follows redirects from `url`, and an immediate meta refresh (`content="0; url=…"`, as the
   * sign-out page sends) as a browser does; returns the last answer and its URL.
   */
  async follow(url: string, init?: RequestInit): Promise<{ res: Response; url: string; body: string }> {
    let res = await this.fetch(url, init);
    let at = url;
    for (let i = 0; i < 15; i++) {
      let next: string | undefined;
      if (res.status >= 300 && res.status < 400) next = res.headers.get('location')!;
      else {
        const body = await res.text();
        const refresh = /<meta http-equiv="refresh" content="0; url=([^"]+)"/.exec(body)?.[1];
        if (!refresh) return { res, url: at, body };
        next = refresh.replaceAll('&amp;', '&');
      }
      at = new URL(next, at).href;
      this.visited.push(at);
      res = await this.fetch(at);
    }
    return { res, url: at, body: await res.text() };
  }

  /**
   * Submits the page's first form (its action, its hidden fields, plus `fields`) and follows; the
   * frame's language selector (`action="/language"`, in the header) is not the page's form.
   */
  async submit(page: { url: string; body: string }, fields: Record<string, string> = {}) {
    const form = [...page.body.matchAll(/<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].find(
      (f) => f[1] !== '/language',
    )!;
    const values = new URLSearchParams();
    for (const m of form[2]!.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) {
      values.set(m[1]!, m[2]!);
    }
    for (const [k, v] of Object.entries(fields)) values.set(k, v);
    return this.follow(new URL(form[1]!, page.url).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: values.toString(),
    });
  }

  /**
   * Signs in to the push web app at `pushUrl` through its provider at `issuer`, typing `fields` in
   * the provider's login form; a consent page, if any, is accepted. Returns the page the push
   * service ends on.
   */
  async signIn(pushUrl: string, issuer: string, fields: Record<string, string>) {
    const loginPage = await this.follow(`${pushUrl}/sign-in`);
    // Already signed in at the provider (single sign-on): straight back to the push service.
    if (!loginPage.url.startsWith(issuer)) return loginPage;
    const next = await this.submit(loginPage, fields);
    return next.url.startsWith(issuer) ? this.submit(next) : next;
  }
}
