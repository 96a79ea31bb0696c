import { readFileSync } from 'node:fs';

/** This package's version (from its package.json), or `unknown`. */
export const VERSION = (() => {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
})();

/** The text of `secret-push --help`. */
export const USAGE = `Usage: secret-push <command> [options]

Commands:
  push [SECRET|-]        share a secret (read from stdin when SECRET is missing or -); prints the link
    --url | --qr           the secret is a URL / a QR code payload (text by default)
    --file PATH            share a file (repeatable); a SECRET or stdin text is optional then
    --views N              views allowed           --days N     days the link lives
    --duration D           instead of --days: 15m 30m 45m 1h 6h 12h 1d…6d 1w 2w 3w 30d 60d 90d (or 0–17)
    --passphrase-file PATH the recipient must enter the passphrase in this file
    --[no-]retrieval-step  the recipient clicks before the secret shows
    --[no-]deletable-by-viewer
    --copy                 also copy the link to the clipboard (pbcopy, clip, wl-copy, xclip or xsel)
    --name TEXT  --note TEXT   labels only you see (in your lists)
    --notify A,B           email the link to these addresses (at most 5; never the passphrase), where
                           the server sends email (else a warning, and nobody is emailed)
    --notify-locale L      the language of that email (e.g. en)
  get LINK|TOKEN         print the secret (uses a view); --out DIR saves the files; --passphrase-file PATH
  preview LINK|TOKEN     print the recipient page's link (uses no view)
  expire LINK|TOKEN      expire the push now
  notify LINK|TOKEN ADDRESS…   email the link of one of your pushes (at most 5 addresses per push);
    --locale L             the language of the email
  list active|expired    your pushes (a table; --json gives every page as one array)
  audit LINK|TOKEN       the audit log of one of your pushes
  webhooks add URL       send signed messages about your pushes' events to URL (https); prints its
                         id and secret (whsec_…), shown only this once: store it
    --types A,B            events (push.created push.viewed push.view_refunded push.failed_passphrase
                           push.expired push.file_downloaded; push. optional); all by default
    --disabled             add it disabled
  webhooks list          your webhooks (the credentials' own: an API client's or a person's)
  webhooks rm|enable|disable ID      delete, enable or disable one
  webhooks rotate ID     a new secret, shown once (the previous one also signs for 24 hours)
  webhooks test ID       queue a webhook.test message to it
  webhooks deliveries ID its delivery log, newest first (--page N: 50 a page)
  webhooks replay ID DELIVERY_ID     send a delivery again (the same webhook-id)
                         (webhooks: reading needs the scope pushes:read, changing pushes:write)
  request create [TEXT|-]   ask someone for a secret: TEXT is the message they read (stdin when
                         missing or -); prints the link to send them (--copy: also to the clipboard)
    --name TEXT  --note TEXT   labels only you see
    --days N | --duration D    how long it stays open (D as for push)
    --views N              views of the answer (default 1)   --answer-days N   its days, from the answer
    --passphrase-file PATH the responder must enter this passphrase (--passphrase TEXT also works,
                           but shows in the process list)
    --allow-files          the responder may send files      --attach FILE   a file for them (repeatable)
    --downloads N          how often they may download each attached file (1–10, default 3)
    --include-requestor    show them your email
    --answerable-by anyone|users|emails   users: signed-in users only; emails: with --email A
    --email A              may answer (repeatable, at most 5; a one-time code is mailed to them)
    --notify A,B           email the link to these addresses (where the server sends email)
    --notify-locale L  --notify-owner (email me when it is answered)
    --[no-]retrieval-step  --[no-]deletable-by-viewer    for the answer push
  request list           your requests (--state active|open|answered|ready|closed; active by default)
  request show|preview|audit|close LINK|TOKEN   one of your requests: details, its link, its log, close it
  request answer LINK|TOKEN   print the answer (uses a view of the answer push); --out DIR saves its files
  respond LINK [-] [FILE…]    answer a request once: the text from --text TEXT or stdin (read when no
                         FILE is given, or with -), files uploaded with a progress bar
    --url | --qr           the answer is a URL / a QR payload
    --passphrase-file PATH the request's passphrase (or --passphrase TEXT)
    --email A [--code C]   for a request answerable by addresses: a code is mailed to A, then read
                           from stdin (or given as --code)
    --show                 print the request instead (spends nothing); --save-attachments DIR saves
                           the files the requester attached (each download counts)
  token                  print an access token (for scripts)
  login                  save the server and your credentials:
    --client-id ID  (secret from stdin or --client-secret-file PATH)  or  --token-file PATH
  version                the versions of this client and of the server

Options of every command:
  --server URL           the push service (env SECRET_PUSH_URL, or the saved config)
  --auth-url URL         the auth service (env SECRET_PUSH_AUTH_URL); its token endpoint is URL/connect/token
  --insecure             allow plain http:// URLs that are not on this machine (refused by default:
                         secrets would cross the network unencrypted; localhost is always allowed)
  --json                 machine-readable output
  -h, --help

Environment: SECRET_PUSH_CLIENT_ID + SECRET_PUSH_CLIENT_SECRET, or SECRET_PUSH_TOKEN, override
the saved credentials. Config: $XDG_CONFIG_HOME/secret-push/config.json (~/.config/…).
Exit codes: 0 ok, 1 error, 2 usage, 3 authentication, 4 not found or expired, 5 rate limited or unavailable.
`;
