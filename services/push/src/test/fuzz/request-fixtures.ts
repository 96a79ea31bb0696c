import { multipartBody } from './bodies.arbitraries';
import type { HttpRequest, Sender } from './http-send';

/*
 * The requests (issue 28) the generators mix in, made through the API at set-up, one pool per
 * group of endpoints so that one group's answers and closes cannot take away what another needs:
 *
 * - `respond`: open requests for the responder's routes (GET/POST/PATCH …/respond, the code):
 *   answerable by anyone mostly, every fourth with the passphrase, every fifth by users only;
 *   each 201 answers one (later inputs to it get 409, the handler's verdict too);
 * - `read`: the owners' reads (view, preview, audit): mostly the main client's, some another
 *   client's and the personal token's user's; some answered, some closed;
 * - `close`: DELETE; some not the caller's;
 * - `code`: open requests answerable by listed addresses (`LISTED_EMAIL` among them), for
 *   `POST …/code` (its 202 may issue a code: state the answer is allowed to change);
 * - `files`: open requests with two attachments each, downloadable `attachment_downloads` (10)
 *   times each, for `GET …/files/:id` (then 410 `gone`, a refusal that must change nothing); every
 *   fifth answerable by users only (an anonymous download: 401).
 */

/** The address a fixture request answerable by `emails` lists. */
export const LISTED_EMAIL = 'listed@example.test';

/** A request with attachments: its token and its files' ids. */
export interface AttachmentRequest {
  token: string;
  fileIds: string[];
}

export interface RequestPools {
  respond: string[];
  read: string[];
  close: string[];
  code: string[];
  files: AttachmentRequest[];
}

export interface RequestPoolSizes {
  respond: number;
  read: number;
  close: number;
  code: number;
  files: number;
}

export interface RequestOwners {
  main: string;
  other: string;
  personal: string;
}

const json = (o: unknown): Buffer => Buffer.from(JSON.stringify(o));

export async function makeRequestPools(
  send: Sender,
  owners: RequestOwners,
  sizes: RequestPoolSizes,
  passphrase: string,
): Promise<RequestPools> {
  const ok = async (req: HttpRequest, expected: number) => {
    const res = await send.send(req);
    if (res.status !== expected) {
      throw new Error(
        `set-up ${req.method} ${req.target}: ${res.status} ${res.body.toString().slice(0, 300)}`,
      );
    }
    return JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
  };
  const ownerOf = (i: number) => (i % 10 === 8 ? owners.personal : i % 5 === 3 ? owners.other : owners.main);
  const create = async (i: number, fields: Record<string, unknown>): Promise<string> => {
    const made = await ok(
      {
        method: 'POST',
        target: '/api/v2/requests',
        headers: [
          ['Content-Type', 'application/json'],
          ['Authorization', `Bearer ${ownerOf(i)}`],
        ],
        body: json({
          request: {
            request: `pool request ${i}`,
            name: `request ${i}`,
            note: `note ${i}`,
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
  const pool = async (n: number, fields: (i: number) => Record<string, unknown>) => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(await create(i, fields(i)));
    return out;
  };
  const respond = await pool(sizes.respond, (i) => ({
    ...(i % 4 === 1 ? { passphrase } : {}),
    ...(i % 5 === 3 ? { answerable_by: 'users' } : {}),
  }));
  const read = await pool(sizes.read, (i) => (i % 4 === 1 ? { passphrase } : {}));
  // Some of the read pool answered (the owner's view shows the answer's link), some closed.
  for (let i = 0; i < read.length; i++) {
    const t = read[i]!;
    if (i % 3 === 2) {
      await ok(
        {
          method: 'POST',
          target: `/api/v2/requests/${t}/respond`,
          headers: [['Content-Type', 'application/json']],
          body: json({ response: { payload: `answer ${i}`, ...(i % 4 === 1 ? { passphrase } : {}) } }),
        },
        201,
      );
    } else if (i % 7 === 6) {
      await ok(
        {
          method: 'DELETE',
          target: `/api/v2/requests/${t}`,
          headers: [['Authorization', `Bearer ${ownerOf(i)}`]],
        },
        200,
      );
    }
  }
  const close = await pool(sizes.close, () => ({}));
  const code = await pool(sizes.code, (i) => ({
    answerable_by: 'emails',
    answerable_emails: i % 2 === 0 ? LISTED_EMAIL : ['a@example.test', LISTED_EMAIL],
  }));
  const files: AttachmentRequest[] = [];
  for (let i = 0; i < sizes.files; i++) {
    const boundary = `fuzzpool${i}x${Date.now()}`;
    const fields: [string, string][] = [
      ['request[request]', `files request ${i}`],
      ['request[expire_after_days]', '90'],
      ['request[attachment_downloads]', '10'],
      ...(i % 5 === 3 ? ([['request[answerable_by]', 'users']] as [string, string][]) : []),
    ];
    const made = await ok(
      {
        method: 'POST',
        target: '/api/v2/requests',
        headers: [
          ['Content-Type', `multipart/form-data; boundary=${boundary}`],
          ['Authorization', `Bearer ${ownerOf(i)}`],
        ],
        body: multipartBody(
          [
            ...fields.map(([name, v]) => ({ name, data: Buffer.from(v) })),
            ...['one.txt', 'two.bin'].map((filename, k) => ({
              name: 'request[files][]',
              filename,
              contentType: 'application/octet-stream',
              data: Buffer.alloc(64 + k * 100, 0x41 + (i % 26)),
            })),
          ],
          boundary,
        ),
      },
      201,
    );
    files.push({
      token: made.url_token as string,
      fileIds: (made.files as { id: string }[]).map((f) => f.id),
    });
  }
  return { respond, read, close, code, files };
}
