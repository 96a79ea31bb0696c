import { type Html, branding, html } from '@secret-push/html';
import { layout } from './layout';
import { type WebHeader, webHeader } from './web-header';

/**
 * "How it works": what the server stores, how, and when it is wiped, stated as the code does it
 * (docs/push-service.md "How it keeps its promises", docs/api.md "Views and expiry"). Keep it true
 * when those change.
 */
export function aboutPage(header: WebHeader | undefined, publicUrl: string): Html {
  const name = branding().name;
  return layout(
    'How it works',
    html`${webHeader(header)}
      <div class="prose">
        <h1>How ${name} works</h1>
        <p>
          You give ${name} a secret (text, a link, a QR code or files) and get a link. The link works for a
          set number of views or a set time, whichever ends first; then the secret is deleted from the server.
        </p>

        <h2 id="link">What the link contains</h2>
        <p>
          The link (<code>${publicUrl}/p/…</code>) holds a long random token and nothing else: not the secret,
          not your name. Whoever has the link can open it, so send it only to the person it is for. With
          "click to reveal" (the default), opening the link shows a page first and uses no view, so that link
          previews in chat apps cannot use it up: a view is used when the person asks to see the secret.
        </p>

        <h2 id="stored">What the server stores</h2>
        <ul>
          <li>
            <strong>The secret and its note</strong>, encrypted with AES-256-GCM under keys this server holds
            (bound to their record, so that they cannot be swapped). <strong>Files</strong> are encrypted the
            same way as they arrive, in chunks, under a random key per file, and stored encrypted in the
            object store.
          </li>
          <li>
            <strong>The link's token</strong> only as a SHA-256 hash (to find the secret), plus an encrypted
            copy so that the sender, when signed in, can list their links.
          </li>
          <li><strong>A passphrase</strong>, if you set one, only as a slow (scrypt) hash.</li>
          <li>
            <strong>The settings and counts</strong>: the kind, the name you gave it, the number of views and
            days, views used, when it was created and when it expired.
          </li>
          <li>
            <strong>An audit log</strong> for the sender: each event (link opened, viewed, wrong passphrase,
            expired) with its time, IP address, browser (user agent) and referrer.
          </li>
        </ul>
        <p>
          The server encrypts with keys it holds: this protects the stored data (database, backups, object
          store), but the service's operator could decrypt a secret while it exists. Logs never contain
          secrets, tokens or request bodies.
        </p>

        <h2 id="wiped">When it is wiped</h2>
        <ul>
          <li>
            A secret expires at the first of: its last view, the end of its time, or a delete (by the sender,
            or by the recipient when the sender allowed it).
          </li>
          <li>
            At expiry, the secret, its note and the passphrase hash are wiped from the database in the same
            step; nobody can open the link again.
          </li>
          <li>
            Files stay downloadable for a short grace period after the last view (so that the downloads can
            finish), then are deleted from the object store; a delete or the end of the time deletes them at
            once.
          </li>
          <li>
            The record itself (settings, counts, times) and its audit log stay, so that the sender can see
            what happened to the link.
          </li>
        </ul>

        <h2 id="api">For developers</h2>
        <p>
          Everything here is also an HTTP API: see the <a href="/api/v2/docs">API documentation</a> (OpenAPI
          at <a href="/api/v2/openapi.json"><code>/api/v2/openapi.json</code></a
          >). Access is by OAuth 2 tokens or personal API tokens.
        </p>
        <h2 id="cli">Command-line client</h2>
        <p>
          The <code>secret-push</code> command-line client creates and reads secrets from scripts; the secret
          goes through standard input, never the command line:
        </p>
        <pre class="secret">echo s3cret | secret-push push --views 2 --server ${publicUrl}</pre>
        <p>Ask the operator of this service for the client and an API token.</p>
      </div>`,
  );
}
