import request from 'supertest';
import { sql } from 'kysely';
import { hashUrlToken } from '../security/url-token';
import { maskUrlToken } from '../server';
import { type Harness, harness } from './support/helpers';

// An anonymous sender's receipt (issue 29): the private status link shown with the secret link
// after an anonymous create on the web form; `/receipt/:receipt` shows the push's state (never the
// secret) and expires it after a confirmation, audited `expire_by_receipt`.
let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h?.stop();
});

const PAYLOAD = 'receipt-test secret 7f3a';
const cookiesOf = (res: request.Response) =>
  ((res.headers['set-cookie'] as unknown as string[] | undefined) ?? [])
    .map((c) => c.split(';')[0])
    .join('; ');

/** An anonymous create on the web form, and its created page (with the create's cookies). */
async function createAnonymously(name = 'Vendor key') {
  const made = await request(h.push.url)
    .post('/')
    .set('Sec-Fetch-Site', 'same-origin')
    .type('form')
    .send({ kind: 'text', payload: PAYLOAD, name, expire_after_days: '2', expire_after_views: '3' });
  expect(made.status).toBe(303);
  const cookie = cookiesOf(made);
  const created = await request(h.push.url).get('/created').set('Cookie', cookie);
  expect(created.status).toBe(200);
  const link = /id="link"[^>]*?value="([^"]+)"/.exec(created.text)![1]!;
  const receiptUrl = /id="receipt"[^>]*?value="([^"]+)"/.exec(created.text)?.[1];
  return { created, cookie, link, token: /\/p\/([\w-]{22})/.exec(link)![1]!, receiptUrl };
}

const pushRow = async (token: string) =>
  (
    await sql<{ id: string; receipt_hash: Buffer | null; expired: boolean }>`
      select id, receipt_hash, expired from push where token_hash = ${hashUrlToken(token)}`.execute(h.push.db)
  ).rows[0]!;

const auditKinds = async (pushId: string) =>
  (
    await sql<{ kind: string }>`select kind from audit_entry where push_id = ${pushId} order by id`.execute(
      h.push.db,
    )
  ).rows.map((r) => r.kind);

function expectPageHeaders(res: request.Response) {
  expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['content-security-policy']).toContain("script-src 'self'");
}

describe('the receipt', () => {
  it('is shown with the link after an anonymous create, stored only hashed, and shows the state, never the secret', async () => {
    const { created, cookie, token, receiptUrl } = await createAnonymously();
    expect(receiptUrl).toMatch(new RegExp(`^${h.push.url}/receipt/[\\w-]{22}$`));
    const receipt = receiptUrl!.split('/receipt/')[1]!;
    expect(receipt).not.toBe(token);
    expect(created.text).toContain('<label for="receipt">Status link</label>');
    // Expire now on the created page asks first, through the receipt.
    expect(created.text).toContain(`href="/receipt/${receipt}/expire"`);
    // A reload of the created page shows the same receipt.
    const again = await request(h.push.url).get('/created').set('Cookie', cookie);
    expect(again.text).toContain(`value="${receiptUrl}"`);

    const row = await pushRow(token);
    expect(row.receipt_hash?.equals(hashUrlToken(receipt))).toBe(true);

    await request(h.push.url).get(`/api/v2/pushes/${token}`).expect(200); // one view
    const status = await request(h.push.url).get(`/receipt/${receipt}`);
    expect(status.status).toBe(200);
    expectPageHeaders(status);
    expect(status.text).toContain('<strong>Active</strong>');
    expect(status.text).toMatch(/1 of 3\s+used, 2 views left/);
    expect(status.text).toContain('Vendor key');
    expect(status.text).toContain(`href="/receipt/${receipt}/expire"`);
    expect(status.text).not.toContain(PAYLOAD);
    expect(status.text).not.toContain(token);
    // Opening the receipt is no view and no audit entry of the push.
    expect(await auditKinds(row.id)).toEqual(['creation', 'view']);
  });

  it('expires the push after a confirmation, audited expire_by_receipt, and says so', async () => {
    const { token, receiptUrl } = await createAnonymously('Wifi password');
    const receipt = receiptUrl!.split('/receipt/')[1]!;
    const row = await pushRow(token);

    const ask = await request(h.push.url).get(`/receipt/${receipt}/expire`);
    expect(ask.status).toBe(200);
    expectPageHeaders(ask);
    expect(ask.text).toContain('<h1 class="question">Expire “Wifi password”?</h1>');
    expect(ask.text).toContain(`action="/receipt/${receipt}/expire"`);
    expect((await pushRow(token)).expired).toBe(false);

    // From another site: refused, nothing changes.
    const forged = await request(h.push.url)
      .post(`/receipt/${receipt}/expire`)
      .set('Sec-Fetch-Site', 'cross-site')
      .type('form')
      .send({});
    expect(forged.status).toBe(403);
    expect((await pushRow(token)).expired).toBe(false);

    const done = await request(h.push.url)
      .post(`/receipt/${receipt}/expire`)
      .set('Sec-Fetch-Site', 'same-origin')
      .type('form')
      .send({});
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe(`/receipt/${receipt}`);
    const told = await request(h.push.url).get(done.headers.location!).set('Cookie', cookiesOf(done));
    expect(told.text).toContain(
      '<p role="status" class="notice flash">Secret “Wifi password” expired: nobody can open it any more.</p>',
    );
    expect(told.text).toContain('<strong>Expired</strong>');
    expect(told.text).not.toContain(`/receipt/${receipt}/expire`);
    expect((await pushRow(token)).expired).toBe(true);
    expect(await auditKinds(row.id)).toEqual(['creation', 'expire_by_receipt']);
    // Again: already expired, unchanged, no second entry.
    await request(h.push.url)
      .post(`/receipt/${receipt}/expire`)
      .set('Sec-Fetch-Site', 'same-origin')
      .type('form')
      .send({});
    expect(await auditKinds(row.id)).toEqual(['creation', 'expire_by_receipt']);
    const api = await request(h.push.url).get(`/api/v2/pushes/${token}`);
    expect(api.body).toMatchObject({ expired: true, payload: null });
  });

  it('an unknown or malformed receipt is the 404 page (HTML); the url_token is no receipt', async () => {
    const { token } = await createAnonymously();
    for (const path of [
      '/receipt/AAAAAAAAAAAAAAAAAAAAAA',
      `/receipt/${token}`,
      '/receipt/a.b',
      '/receipt/AAAAAAAAAAAAAAAAAAAAAA/expire',
    ]) {
      const res = await request(h.push.url).get(path);
      expect([path, res.status]).toEqual([path, 404]);
      expectPageHeaders(res);
      expect(res.text).toContain('No such status link');
    }
    const post = await request(h.push.url)
      .post(`/receipt/${token}/expire`)
      .set('Sec-Fetch-Site', 'same-origin')
      .type('form')
      .send({});
    expect(post.status).toBe(404);
    expect((await pushRow(token)).expired).toBe(false);
  });

  it('never reaches the logs: its path segment is masked', () => {
    expect(maskUrlToken('/receipt/ZzhjSXTFzdCegVXb9ICpYQ')).toBe('/receipt/…');
    expect(maskUrlToken('/receipt/ZzhjSXTFzdCegVXb9ICpYQ/expire')).toBe('/receipt/…/expire');
  });
});
