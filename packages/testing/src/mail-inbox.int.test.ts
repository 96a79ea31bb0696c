/**
 * The local inbox over real HTTP, fed by a real SMTP exchange (nodemailer → the catcher): the list,
 * one message, the JSON API, "clear", the escaping and the sandbox of the HTML part, and what it
 * refuses (another Host, a cross-site change).
 */
import { request as httpRequest } from 'node:http';
import { type Transporter, createTransport } from 'nodemailer';
import { type MailCatcher, startMailCatcher } from './mail-catcher';
import { INBOX_CSP, type MailInbox, startMailInbox } from './mail-inbox';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let catcher: MailCatcher;
let inbox: MailInbox;
let smtp: Transporter;

function request(method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: inbox.port,
        method,
        path,
        headers: { Host: `127.0.0.1:${inbox.port}`, ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}
const get = (path: string) => request('GET', path);
const json = async (path: string) => {
  const a = await get(path);
  expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
  return { status: a.status, body: JSON.parse(a.body) as Record<string, unknown> };
};

/** An HTML part that tries to run a script and to break out of the srcdoc attribute. */
const HOSTILE_HTML =
  '<p style="color:#c00">Open <a href="https://push.example/p/tok">the secret</a></p>' +
  '<script>parent.document.title="pwned"</script>"></iframe><script>alert(1)</script><img src=x onerror=alert(2)>';

async function sendMail(to: string, subject: string, extra: { html?: string; text?: string } = {}) {
  const info = (await smtp.sendMail({
    from: '"secret-push" <no-reply@secret-push.local>',
    to,
    replyTo: 'help@secret-push.local',
    subject,
    text: extra.text ?? `Hello ${to}: https://push.example/p/tok.`,
    ...(extra.html ? { html: extra.html } : {}),
  })) as { response: string };
  expect(info.response).toMatch(/^250 /);
}

beforeEach(async () => {
  catcher = await startMailCatcher();
  inbox = await startMailInbox(catcher, { keep: 3 });
  smtp = createTransport({ host: '127.0.0.1', port: catcher.port, secure: false, ignoreTLS: true });
});
afterEach(async () => {
  smtp.close();
  await inbox.close();
  await catcher.close();
});

it('lists messages newest first with time, recipient and subject, escaped, under a strict CSP', async () => {
  await sendMail('first@example.org', 'First');
  await sendMail('second@example.org', 'Second <b>bold</b> & co');
  const page = await get('/');
  expect(page.status).toBe(200);
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(page.headers['content-security-policy']).toBe(INBOX_CSP);
  expect(page.headers['x-frame-options']).toBe('DENY');
  expect(page.headers['cache-control']).toBe('no-store');
  expect(page.body).toContain('Second &lt;b&gt;bold&lt;/b&gt; &amp; co');
  expect(page.body).not.toContain('<b>bold</b>');
  expect(page.body.indexOf('second@example.org')).toBeLessThan(page.body.indexOf('first@example.org'));
  expect(page.body).toMatch(/<td class="time">\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ<\/td>/);
  expect(page.body).toContain('<a href="/messages/2">');
});

it('shows a message: its headers, the text part with links, the HTML part only in a sandboxed srcdoc frame', async () => {
  await sendMail('alice@example.org', 'Your secret', { html: HOSTILE_HTML });
  const page = await get('/messages/1');
  expect(page.status).toBe(200);
  expect(page.headers['content-security-policy']).toBe(INBOX_CSP);
  expect(page.body).toMatch(/<dt>Reply-To<\/dt>\s*<dd>help@secret-push\.local<\/dd>/);
  expect(page.body).toContain(
    '<pre>Hello alice@example.org: <a href="https://push.example/p/tok" target="_blank" rel="noopener noreferrer">https://push.example/p/tok</a>.</pre>',
  );
  // No markup of the email reaches the inbox page: not one <script, <img or attribute break-out.
  expect(page.body).not.toMatch(/<script|<img|onerror=alert\(2\)>/i);
  const frames = [...page.body.matchAll(/<iframe\s([^>]*)>/g)].map((m) => m[1]!);
  expect(frames).toHaveLength(1);
  const sandbox = /sandbox="([^"]*)"/.exec(frames[0]!)?.[1];
  expect(sandbox).toBe('allow-popups allow-popups-to-escape-sandbox');
  expect(sandbox).not.toMatch(/allow-scripts|allow-same-origin|allow-forms|allow-top-navigation/);
  const srcdoc = /srcdoc="([^"]*)"/.exec(frames[0]!)?.[1] ?? '';
  const unescaped = srcdoc
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#96;/g, '`')
    .replace(/&amp;/g, '&');
  expect(unescaped).toBe(HOSTILE_HTML);
});

it('answers the JSON API: summaries newest first, a filter by recipient, one message, the raw message, 404s', async () => {
  await sendMail('alice@example.org', 'One', { html: '<p>One</p>' });
  await sendMail('bob@example.org', 'Two');
  const list = await json('/api/messages');
  expect(list.status).toBe(200);
  const messages = list.body.messages as { id: number; to: string; subject: string; envelope: unknown }[];
  expect(messages.map((m) => [m.id, m.to, m.subject])).toEqual([
    [2, 'bob@example.org', 'Two'],
    [1, 'alice@example.org', 'One'],
  ]);
  expect(messages[0]).toMatchObject({
    envelope: { from: 'no-reply@secret-push.local', to: ['bob@example.org'] },
    from: '"secret-push" <no-reply@secret-push.local>',
    receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
  });
  expect(messages[0]).not.toHaveProperty('text');

  const forAlice = await json('/api/messages?to=ALICE@example.org');
  expect((forAlice.body.messages as { id: number }[]).map((m) => m.id)).toEqual([1]);

  const one = await json('/api/messages/1');
  expect(one.body).toMatchObject({
    id: 1,
    subject: 'One',
    replyTo: 'help@secret-push.local',
    html: '<p>One</p>',
    text: 'Hello alice@example.org: https://push.example/p/tok.',
  });
  expect((one.body.headers as Record<string, string>)['message-id']).toMatch(/^<.+@secret-push\.local>$/);

  const raw = await get('/api/messages/1/raw');
  expect(raw.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(raw.body).toMatch(/^Subject: One\r?$/m);

  expect(await json('/api/messages/9')).toMatchObject({ status: 404, body: { error: 'not_found' } });
  expect(await json('/api/nothing')).toMatchObject({ status: 404, body: { error: 'not_found' } });
  expect((await get('/messages/9')).status).toBe(404);
});

it('clears from the page (back to the list) and from the API', async () => {
  await sendMail('alice@example.org', 'One');
  const cleared = await request('POST', '/clear', { Origin: `http://127.0.0.1:${inbox.port}` });
  expect(cleared.status).toBe(303);
  expect(cleared.headers.location).toBe('/');
  expect(((await json('/api/messages')).body.messages as unknown[]).length).toBe(0);
  expect((await get('/')).body).toContain('No messages yet.');

  await sendMail('alice@example.org', 'Two');
  expect((await request('DELETE', '/api/messages')).status).toBe(204);
  expect(catcher.messages).toHaveLength(0);
});

it('refuses another Host (DNS rebinding) and a cross-site clear, and changes nothing', async () => {
  await sendMail('alice@example.org', 'One');
  const rebound = await request('GET', '/api/messages', { Host: `attacker.example:${inbox.port}` });
  expect(rebound.status).toBe(403);
  expect(JSON.parse(rebound.body)).toMatchObject({ error: 'forbidden' });
  expect((await request('GET', '/', { Host: 'attacker.example' })).status).toBe(403);
  expect((await request('POST', '/clear', { Origin: 'https://attacker.example' })).status).toBe(403);
  expect((await request('DELETE', '/api/messages', { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
  expect((await request('GET', '/', { Host: `localhost:${inbox.port}` })).status).toBe(200);
  expect(catcher.messages).toHaveLength(1);
});

it('keeps only the newest messages (keep: 3)', async () => {
  for (const n of [1, 2, 3, 4, 5]) await sendMail(`r${n}@example.org`, `Message ${n}`);
  const list = await json('/api/messages');
  expect((list.body.messages as { subject: string }[]).map((m) => m.subject)).toEqual([
    'Message 5',
    'Message 4',
    'Message 3',
  ]);
  expect(catcher.messages).toHaveLength(3);
  expect((await get('/messages/1')).status).toBe(404);
});
