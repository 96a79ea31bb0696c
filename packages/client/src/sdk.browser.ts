import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { type Server, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import type { ClientCredentials, TestAuth } from '@secret-push/auth/testing';
import { type TestPush, type TestStack, startStack } from '@secret-push/push/testing';
import { freePort } from '@secret-push/testing';

// The SDK in a real browser (Debian's Chromium, headless, driven by playwright-core): a page of
// another origin, allowed by PUSH_CORS_ORIGINS, imports the built SDK as an ES module and calls the
// push API with a bearer token; a page of an origin not in the list cannot read any answer.
const TIMEOUT = 90_000;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DIST = join(import.meta.dirname, '..', 'dist');

let stack: TestStack;
let auth: TestAuth;
let push: TestPush;
let credentials: ClientCredentials;
let allowed: { server: Server; url: string };
let foreign: { server: Server; url: string };
let context: BrowserContext;
let profile: string;

/** A web server of its own origin: an empty page at `/`, the built SDK under `/sdk/`. */
async function pageServer(): Promise<{ server: Server; url: string }> {
  const port = await freePort();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end('<!doctype html><title>A page that uses the SDK</title>');
      return;
    }
    const file = normalize(join(DIST, path.replace(/^\/sdk\//, '')));
    if (!path.startsWith('/sdk/') || !file.startsWith(DIST) || !existsSync(file)) {
      res.statusCode = 404;
      res.end();
      return;
    }
    res.setHeader('content-type', 'text/javascript; charset=utf-8');
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${port}` };
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}. Install Debian's package (apt-get install -y chromium; ` +
        'scripts/ensure-chromium.sh does this) or point CHROMIUM_PATH at a Chromium binary.',
    );
  }
  allowed = await pageServer();
  foreign = await pageServer();
  stack = await startStack({ pushEnv: { PUSH_CORS_ORIGINS: allowed.url } });
  ({ auth, push, credentials } = stack);
  profile = await mkdtemp(join(tmpdir(), 'sptest-sdk-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
}, TIMEOUT);
afterAll(async () => {
  await context?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
  for (const s of [allowed, foreign]) if (s) await new Promise((r) => s.server.close(r));
  await stack?.stop();
}, TIMEOUT);

/** What the page's script reports back. */
interface Outcome {
  version?: string;
  text?: string | null;
  views?: number;
  fileName?: string;
  fileText?: string;
  progress?: number[];
  listed?: boolean;
  expired?: boolean;
  error?: { name: string; kind: string; status: number };
}

/** Runs the SDK calls in a page of `origin` (in the browser: every name below is the page's own). */
async function inPage(origin: string, token: string): Promise<Outcome> {
  const page = await context.newPage();
  try {
    await page.goto(`${origin}/`);
    return await page.evaluate(
      async ({ pushUrl, token, sdkUrl }) => {
        // The built SDK, as the page's own module (served by pageServer).
        const sdk = (await import(sdkUrl)) as typeof import('./index.ts');
        const client = sdk.createClient({ baseUrl: pushUrl, auth: { token }, retries: 0 });
        const out: Outcome = {};
        try {
          out.version = (await client.version()).api_version;
          const text = await client.create({ payload: 'from a browser', expire_after_views: 2 });
          const got = await client.retrieve(text.url_token);
          out.text = got.payload;
          out.views = got.views_remaining;
          const progress: number[] = [];
          const file = new File(['file bytes from a page'], 'page.txt', { type: 'text/plain' });
          const withFile = await client.create({ files: [file] }, { onProgress: (n) => progress.push(n) });
          out.progress = progress;
          const retrieved = await client.retrieve(withFile.url_token);
          const download = await client.download(retrieved.files[0]!);
          out.fileName = download.filename;
          out.fileText = await new Response(download.body).text();
          for await (const p of client.active()) if (p.url_token === text.url_token) out.listed = true;
          out.expired = (await client.expire(text.url_token)).expired;
        } catch (err) {
          const e = err as { name: string; kind: string; status: number };
          out.error = { name: e.name, kind: e.kind, status: e.status };
        }
        return out;
      },
      { pushUrl: push.url, token, sdkUrl: '/sdk/index.js' },
    );
  } finally {
    await page.close();
  }
}

test(
  'a page of an allowed origin creates, retrieves, uploads, downloads, lists and expires through the SDK',
  async () => {
    const outcome = await inPage(allowed.url, await auth.token(credentials));
    const { progress, ...rest } = outcome;
    // The file went as one Blob (no streamed upload over HTTP/1.1): progress once, the whole body.
    expect(progress).toHaveLength(1);
    expect(progress![0]).toBeGreaterThan(Buffer.byteLength('file bytes from a page'));
    expect(rest).toEqual({
      version: expect.any(String),
      text: 'from a browser',
      views: 1,
      fileName: 'page.txt',
      fileText: 'file bytes from a page',
      listed: true,
      expired: true,
    });
  },
  TIMEOUT,
);

test(
  'a page of an origin not in PUSH_CORS_ORIGINS reads no answer: the SDK sees no response at all',
  async () => {
    const outcome = await inPage(foreign.url, await auth.token(credentials));
    // `version` is read first; the browser withholds its answer, so the call fails as unanswered.
    expect(outcome).toEqual({ error: { name: 'ConnectionError', kind: 'network', status: 0 } });
  },
  TIMEOUT,
);
