import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CaughtMail, MailCatcher } from './mail-catcher';
import { listPage, messagePage, notFoundPage } from './mail-inbox.views';

/**
 * The web inbox of `make up`'s mail catcher (`local-mail.ts`): HTML pages for people, a JSON API
 * for scripts, on 127.0.0.1 only.
 *   GET  /                        the list, newest first (time, to, subject)
 *   GET  /messages/:id            one message: headers, the text part, the HTML part (sandboxed)
 *   POST /clear                   forget every message (the list page's button), then back to /
 *   GET  /api/messages[?to=addr]  summaries, newest first (only those whose envelope has `addr`)
 *   GET  /api/messages/:id        one message, parsed (text, html, headers)
 *   GET  /api/messages/:id/raw    the message as received (text/plain)
 *   DELETE /api/messages          forget every message
 */

/**
 * The inbox page's policy (a `srcdoc` frame inherits it): no script anywhere, nothing loaded from
 * elsewhere (remote images of an email stay blocked, as a careful mail client does), inline styles
 * (an email's own), forms only to the inbox, never framed.
 */
export const INBOX_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'";

export interface MailInbox {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface MailInboxOptions {
  /** 0 (the default) takes a free port. */
  port?: number;
  /** How many messages to keep in memory, the newest (default 200). */
  keep?: number;
}

/** What `/api/messages` lists of each message. */
export function summaryOf(m: CaughtMail) {
  return {
    id: m.id,
    receivedAt: m.receivedAt.toISOString(),
    envelope: m.envelope,
    messageId: m.messageId ?? null,
    from: m.from,
    to: m.to,
    subject: m.subject,
  };
}

/** What `/api/messages/:id` answers: the summary and the parsed parts (the raw message apart). */
export function detailOf(m: CaughtMail) {
  return { ...summaryOf(m), replyTo: m.replyTo ?? null, text: m.text, html: m.html, headers: m.headers };
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

const COMMON_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

function send(res: ServerResponse, status: number, type: string, body: string, extra: object = {}): void {
  res.writeHead(status, { ...COMMON_HEADERS, 'Content-Type': type, ...extra });
  res.end(body);
}
const sendHtml = (res: ServerResponse, status: number, body: string) =>
  send(res, status, 'text/html; charset=utf-8', body, {
    'Content-Security-Policy': INBOX_CSP,
    'X-Frame-Options': 'DENY',
  });
const sendJson = (res: ServerResponse, status: number, body: unknown) =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));
const jsonError = (res: ServerResponse, status: number, error: string, message: string) =>
  sendJson(res, status, { error, message });

/**
 * Refuses what a web page elsewhere could make a browser send: a Host that is not this machine's
 * loopback name (DNS rebinding: emails hold secret links) and a cross-site POST or DELETE.
 */
function refusal(req: IncomingMessage, port: number): string | null {
  const host = req.headers.host ?? '';
  const name = host.replace(/:\d+$/, '');
  if (!LOCAL_HOSTS.has(name) || (host !== name && host !== `${name}:${port}`)) {
    return `this inbox answers only to 127.0.0.1:${port} or localhost:${port}`;
  }
  if (req.method === 'POST' || req.method === 'DELETE') {
    const origin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    if (
      (origin !== undefined && origin !== `http://${host}`) ||
      (site !== undefined && site !== 'same-origin' && site !== 'none')
    ) {
      return 'cross-site requests may not change the inbox';
    }
  }
  return null;
}

/** Starts the inbox over `catcher`'s messages; trims them to the newest `keep`. */
export async function startMailInbox(
  catcher: MailCatcher,
  options: MailInboxOptions = {},
): Promise<MailInbox> {
  const keep = options.keep ?? 200;
  const trim = () => {
    const extra = catcher.messages.length - keep;
    if (extra > 0) catcher.messages.splice(0, extra);
  };
  // The catcher has no "new message" hook: trim on a short timer and before every answer.
  const trimmer = setInterval(trim, 500);
  trimmer.unref();
  const newestFirst = () => [...catcher.messages].reverse();
  const byId = (id: string | undefined) => catcher.messages.find((m) => String(m.id) === id);
  let port = 0;

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    trim();
    const url = new URL(req.url ?? '/', 'http://inbox.invalid');
    const path = url.pathname;
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    const isApi = path.startsWith('/api/');
    const refused = refusal(req, port);
    if (refused) {
      if (isApi) jsonError(res, 403, 'forbidden', refused);
      else send(res, 403, 'text/plain; charset=utf-8', `${refused}\n`);
      return;
    }
    const route = `${method} ${path.replace(/\/\d+(?=\/|$)/, '/:id')}`;
    const id = /^\/(?:api\/)?messages\/(\d+)/.exec(path)?.[1];
    switch (route) {
      case 'GET /':
        return sendHtml(res, 200, listPage(newestFirst(), catcher.url).value);
      case 'GET /messages/:id': {
        const m = byId(id);
        return m ? sendHtml(res, 200, messagePage(m).value) : sendHtml(res, 404, notFoundPage().value);
      }
      case 'POST /clear':
        catcher.clear();
        return send(res, 303, 'text/plain; charset=utf-8', 'Cleared\n', { Location: '/' });
      case 'GET /api/messages': {
        const to = url.searchParams.get('to')?.toLowerCase();
        const list = newestFirst().filter((m) => !to || m.envelope.to.some((t) => t.toLowerCase() === to));
        return sendJson(res, 200, { messages: list.map(summaryOf) });
      }
      case 'DELETE /api/messages':
        catcher.clear();
        res.writeHead(204, COMMON_HEADERS).end();
        return;
      case 'GET /api/messages/:id':
      case 'GET /api/messages/:id/raw': {
        const m = byId(id);
        if (!m) return jsonError(res, 404, 'not_found', `no message ${id ?? ''} (it may have been cleared)`);
        if (path.endsWith('/raw')) return send(res, 200, 'text/plain; charset=utf-8', m.raw);
        return sendJson(res, 200, detailOf(m));
      }
      default:
        if (isApi) return jsonError(res, 404, 'not_found', `no route ${method} ${path}`);
        return sendHtml(res, 404, notFoundPage().value);
    }
  };

  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (err) {
      send(res, 500, 'text/plain; charset=utf-8', `inbox error: ${(err as Error).message}\n`);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise((resolve) => {
        clearInterval(trimmer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
