import type { IncomingHttpHeaders } from 'node:http';
import { type Part, multipartBody } from './bodies.arbitraries';
import type { HttpRequest, HttpResult, Sender } from './http-send';
import { type AttachmentRequest, makeRequestPools } from './request-fixtures';

/*
 * What the generators of the anonymous pages added with issue 29 (page-endpoints.ts) mix in, made
 * at set-up through the API and the web form, one pool per group of endpoints:
 *
 * - `archives`: "Download all" links (`/api/v2/files/archive?push=…&view=…&expires=…&file=…`) of
 *   file pushes of their own (two files each, 100 downloads per file and view), so that the
 *   archive's downloads and the single-file links' downloads (GET /files/:id) do not share a budget;
 * - `receipts`: anonymous creates on the web form (`POST /`), each receipt read from the created
 *   page as a browser gets it; every fifth expired at set-up (an expire of an expired push changes
 *   nothing);
 * - `respond`: requests for the responder's pages (GET and POST `/respond/:t`): open ones (every
 *   fourth with the passphrase, every fifth for users only, every third taking file answers),
 *   answered ones (409) and closed ones (404); each accepted answer answers one;
 * - `code`: open requests answerable by listed addresses, for `POST /respond/:t/code`;
 * - `files`: open requests with two attachments of 10 downloads each, for
 *   `GET /respond/:t/files/:id` (then 410, a refusal that must change nothing).
 */

export interface PagePools {
  archives: string[];
  receipts: string[];
  respond: string[];
  code: string[];
  files: AttachmentRequest[];
}

export interface PagePoolSizes {
  archives: number;
  receipts: number;
  respond: number;
  code: number;
  files: number;
}

export interface PageOwners {
  main: string;
  other: string;
  personal: string;
}

const json = (o: unknown): Buffer => Buffer.from(JSON.stringify(o));

const setCookies = (headers: IncomingHttpHeaders): string =>
  (headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');

export async function makePagePools(
  send: Sender,
  owners: PageOwners,
  sizes: PagePoolSizes,
  passphrase: string,
): Promise<PagePools> {
  const expect = async (req: HttpRequest, status: number): Promise<HttpResult> => {
    const res = await send.send(req);
    if (res.status !== status) {
      throw new Error(
        `set-up ${req.method} ${req.target}: ${res.status} ${res.body.toString().slice(0, 300)}`,
      );
    }
    return res;
  };
  const ok = async (req: HttpRequest, status: number) =>
    JSON.parse((await expect(req, status)).body.toString('utf8')) as Record<string, unknown>;
  const bearer = (token: string): [string, string] => ['Authorization', `Bearer ${token}`];

  // ---- "Download all" links: one retrieve (a view) of each two-file push.
  const archives: string[] = [];
  for (let i = 0; i < sizes.archives; i++) {
    const boundary = `archive${i}x${Date.now()}`;
    const parts: Part[] = [
      { name: 'push[payload]', data: Buffer.from(`archive ${i}`) },
      { name: 'push[expire_after_views]', data: Buffer.from('100') },
      ...['a.txt', i % 2 === 0 ? 'a.txt' : 'b.bin'].map((filename, k) => ({
        name: 'push[files][]',
        filename,
        contentType: 'application/octet-stream',
        data: Buffer.alloc(200 + 1000 * k, 0x61 + k),
      })),
    ];
    const made = await ok(
      {
        method: 'POST',
        target: '/api/v2/pushes',
        headers: [['Content-Type', `multipart/form-data; boundary=${boundary}`], bearer(owners.main)],
        body: multipartBody(parts, boundary),
      },
      201,
    );
    const seen = await ok(
      { method: 'GET', target: `/api/v2/pushes/${made.url_token as string}`, headers: [] },
      200,
    );
    const urls = (seen.files as { url: string }[]).map((f) => new URL(f.url));
    const query = new URLSearchParams();
    for (const k of ['push', 'view', 'expires']) query.set(k, urls[0]!.searchParams.get(k) ?? '');
    for (const u of urls) {
      query.append('file', `${u.pathname.split('/').pop()!}.${u.searchParams.get('sig')!}`);
    }
    archives.push(`/api/v2/files/archive?${query.toString()}`);
  }

  // ---- Receipts: an anonymous create on the web form, then its created page (with its cookies).
  const receipts: string[] = [];
  for (let i = 0; i < sizes.receipts; i++) {
    const form = new URLSearchParams({
      kind: 'text',
      payload: `receipt secret ${i}`,
      name: `receipt ${i}`,
      expire_after_days: '30',
      expire_after_views: '5',
    });
    const made = await expect(
      {
        method: 'POST',
        target: '/',
        headers: [
          ['Content-Type', 'application/x-www-form-urlencoded'],
          ['Sec-Fetch-Site', 'same-origin'],
        ],
        body: Buffer.from(form.toString()),
      },
      303,
    );
    const created = await expect(
      { method: 'GET', target: '/created', headers: [['Cookie', setCookies(made.headers)]] },
      200,
    );
    const receipt = /id="receipt"[^>]*?value="[^"]*\/receipt\/([\w-]+)"/.exec(created.body.toString())?.[1];
    if (!receipt) throw new Error(`set-up: no receipt on the created page of anonymous create ${i}`);
    receipts.push(receipt);
    if (i % 5 === 4) {
      await expect(
        {
          method: 'POST',
          target: `/receipt/${receipt}/expire`,
          headers: [
            ['Content-Type', 'application/x-www-form-urlencoded'],
            ['Sec-Fetch-Site', 'same-origin'],
          ],
          body: Buffer.alloc(0),
        },
        303,
      );
    }
  }

  // ---- Requests for the responder's page: open, answered, closed.
  const createRequest = async (i: number, fields: Record<string, unknown>): Promise<string> => {
    const made = await ok(
      {
        method: 'POST',
        target: '/api/v2/requests',
        headers: [['Content-Type', 'application/json'], bearer(i % 10 === 8 ? owners.personal : owners.main)],
        body: json({
          request: {
            request: `page request ${i}`,
            name: `page request ${i}`,
            expire_after_days: 90,
            expire_after_views: 3,
            ...fields,
          },
        }),
      },
      201,
    );
    return made.url_token as string;
  };
  const respond: string[] = [];
  for (let i = 0; i < sizes.respond; i++) {
    const protectedOne = i % 4 === 1;
    const usersOnly = i % 5 === 3;
    const t = await createRequest(i, {
      ...(protectedOne ? { passphrase } : {}),
      ...(usersOnly ? { answerable_by: 'users' } : {}),
      ...(i % 3 === 0 ? { response_file_attachments: true } : {}),
    });
    respond.push(t);
    if (i % 8 === 6 && !usersOnly) {
      await ok(
        {
          method: 'POST',
          target: `/api/v2/requests/${t}/respond`,
          headers: [['Content-Type', 'application/json']],
          body: json({ response: { payload: `answer ${i}`, ...(protectedOne ? { passphrase } : {}) } }),
        },
        201,
      );
    } else if (i % 8 === 7) {
      await ok(
        {
          method: 'DELETE',
          target: `/api/v2/requests/${t}`,
          headers: [bearer(i % 10 === 8 ? owners.personal : owners.main)],
        },
        200,
      );
    }
  }

  // Codes and attachments: the API's suites' requests (request-fixtures.ts), pools of their own.
  const made = await makeRequestPools(
    send,
    owners,
    { respond: 0, read: 0, close: 0, code: sizes.code, files: sizes.files },
    passphrase,
  );
  return { archives, receipts, respond, code: made.code, files: made.files };
}
