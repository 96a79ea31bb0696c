import { type Html, type HtmlValue, html, trusted } from '@secret-push/html';
import type { CaughtMail } from './mail-catcher';

/**
 * The local inbox's pages. Every value from a message goes through the `html` tag (escaped); the
 * message's HTML part is shown only inside an `<iframe sandbox srcdoc>` (an opaque origin, no
 * scripts, no forms, no navigation of the inbox), never in the inbox page itself.
 */

const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem; color: #1d1d1f; }
h1 { font-size: 1.3rem; } h2 { font-size: 1.05rem; margin-top: 1.5rem; }
header { display: flex; gap: 1rem; align-items: baseline; justify-content: space-between; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid #ddd; vertical-align: top; }
th { font-weight: 600; background: #f5f5f7; }
td.time { white-space: nowrap; color: #555; }
pre { white-space: pre-wrap; word-break: break-word; background: #f5f5f7; padding: .8rem; border-radius: 4px; }
iframe { width: 100%; height: 60vh; border: 1px solid #ccc; border-radius: 4px; resize: vertical; background: #fff; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; } dt { font-weight: 600; }
.empty { color: #666; } button { font: inherit; }
`;

function page(title: string, body: HtmlValue): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${title} · secret-push local inbox</title>
        <style>
          ${trusted(STYLE)}
        </style>
      </head>
      <body>
        ${body}
      </body>
    </html>`;
}

const time = (d: Date) => d.toISOString().replace('T', ' ').slice(0, 19) + 'Z';

/** The list, newest first, with "clear". */
export function listPage(messages: readonly CaughtMail[], smtpUrl: string): Html {
  const rows = messages.map(
    (m) =>
      html`<tr>
        <td class="time">${time(m.receivedAt)}</td>
        <td>${m.to || m.envelope.to.join(', ')}</td>
        <td><a href="/messages/${m.id}">${m.subject || '(no subject)'}</a></td>
      </tr>`,
  );
  return page(
    'Inbox',
    html`<header>
        <h1>Local inbox</h1>
        <form method="post" action="/clear"><button type="submit">Clear</button></form>
      </header>
      <p>
        Every message sent to <code>${smtpUrl}</code> lands here (the last ones only, in memory). Scripts:
        <a href="/api/messages">/api/messages</a>.
      </p>
      ${
        messages.length === 0
          ? html`<p class="empty">No messages yet.</p>`
          : html`<table>
              <thead>
                <tr>
                  <th>Received</th>
                  <th>To</th>
                  <th>Subject</th>
                </tr>
              </thead>
              <tbody>
                ${rows}
              </tbody>
            </table>`
      }`,
  );
}

const URL_IN_TEXT = /https?:\/\/[^\s<>"]+/g;

/** The text part, with its http(s) links made clickable (each piece escaped by the tag). */
export function linkify(text: string): Html {
  const parts: HtmlValue[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const url = match[0].replace(/[.,;:!?)\]]+$/, '');
    parts.push(text.slice(last, match.index));
    parts.push(html`<a href="${url}" target="_blank" rel="noopener noreferrer">${url}</a>`);
    last = match.index + url.length;
  }
  parts.push(text.slice(last));
  return html`${parts}`;
}

/**
 * The sandbox of the HTML part: no `allow-scripts`, no `allow-same-origin` (an opaque origin that
 * cannot reach the inbox), no `allow-forms`, no `allow-top-navigation`; its links may open a new tab
 * (`allow-popups`, which leave the sandbox so the opened page works normally).
 */
export const HTML_PART_SANDBOX = 'allow-popups allow-popups-to-escape-sandbox';

/** One message: its headers, the text part and the HTML part in a sandboxed frame. */
export function messagePage(m: CaughtMail): Html {
  const header = (name: string, value: string | undefined) =>
    value
      ? html`<dt>${name}</dt>
          <dd>${value}</dd>`
      : '';
  return page(
    m.subject || '(no subject)',
    html`<header>
        <h1>${m.subject || '(no subject)'}</h1>
        <a href="/">← Inbox</a>
      </header>
      <dl>
        ${header('Received', time(m.receivedAt))} ${header('From', m.from)} ${header('To', m.to)}
        ${header('Reply-To', m.replyTo)} ${header('Message-ID', m.messageId)}
        ${header('Envelope', `MAIL FROM <${m.envelope.from}> RCPT TO ${m.envelope.to.map((t) => `<${t}>`).join(' ')}`)}
      </dl>
      <p><a href="/api/messages/${m.id}">JSON</a> · <a href="/api/messages/${m.id}/raw">raw message</a></p>
      <h2>Text part</h2>
      ${m.text ? html`<pre>${linkify(m.text)}</pre>` : html`<p class="empty">No text part.</p>`}
      <h2>HTML part</h2>
      ${
        m.html
          ? html`<iframe
              title="HTML part (sandboxed)"
              sandbox="${HTML_PART_SANDBOX}"
              referrerpolicy="no-referrer"
              srcdoc="${m.html}"
            ></iframe>`
          : html`<p class="empty">No HTML part.</p>`
      }`,
  );
}

/** A small page for 404 and refusals. */
export function notFoundPage(): Html {
  return page(
    'Not found',
    html`<h1>No such message</h1>
      <p><a href="/">← Inbox</a></p>`,
  );
}
