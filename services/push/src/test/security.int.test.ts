import request from 'supertest';
import { sql } from 'kysely';
import { createLogger } from '@secret-push/logger';
import { captureLogs } from '@secret-push/testing';
import { type Harness, bearer, createdToken, harness } from './support/helpers';

const logs = captureLogs();
let h: Harness;
beforeAll(async () => {
  h = await harness({ logger: createLogger({ name: 'push', level: 'trace' }, logs.stream) });
});
afterAll(() => h.stop());

const PAYLOAD = 'PAYLOAD-c0ffee-Ünïcødé';
const NOTE = 'NOTE-for-the-owner-only';
const PASSPHRASE = 'PASSPHRASE-correct-horse';

const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');

describe('secrets at rest and in logs', () => {
  let urlToken: string;
  beforeAll(async () => {
    urlToken = await createdToken(
      h.push.url,
      { payload: PAYLOAD, note: NOTE, passphrase: PASSPHRASE, expire_after_views: 3 },
      h.token,
    );
    await request(h.push.url).get(`/api/v2/pushes/${urlToken}?passphrase=${PASSPHRASE}`);
    await request(h.push.url).get(`/api/v2/pushes/${urlToken}`).set('X-Passphrase', PASSPHRASE);
    await request(h.push.url).get(`/api/v2/pushes/${urlToken}?passphrase=wrong-${PASSPHRASE}`);
    await request(h.push.url).get(`/api/v2/pushes/active`).set(bearer(h.token));
    await request(h.push.url).get(`/api/v2/pushes/${urlToken}/audit`).set(bearer(h.token));
  });

  it('keeps no plaintext payload, note, passphrase or url_token in the database', async () => {
    const { rows } = await sql<{ dump: string }>`
      select (select string_agg(p::text, ' ') from push p) || (select string_agg(a::text, ' ') from audit_entry a) as dump`.execute(
      h.push.db,
    );
    const dump = rows[0]!.dump;
    for (const secret of [PAYLOAD, NOTE, PASSPHRASE, urlToken]) {
      expect(dump).not.toContain(secret);
      expect(dump).not.toContain(hex(secret)); // bytea columns print as hex
    }
    expect(dump).toContain('scrypt$');
  });

  it('binds each ciphertext to its row: a payload moved to another row does not open', async () => {
    const other = await createdToken(h.push.url, { payload: 'other' });
    await sql`update push set payload_sealed = (select payload_sealed from push where token_hash = sha256(convert_to(${urlToken}, 'UTF8'))),
                              passphrase_hash = null, passphrase_protected = false
              where token_hash = sha256(convert_to(${other}, 'UTF8'))`.execute(h.push.db);
    const res = await request(h.push.url).get(`/api/v2/pushes/${other}`);
    // Nothing is served, and nothing is spent: the view is refunded (a retryable 503).
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'dependency_unavailable', request_id: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toContain(PAYLOAD);
    const { rows } = await sql<{ views: number }>`
      select views from push where token_hash = sha256(convert_to(${other}, 'UTF8'))`.execute(h.push.db);
    expect(rows[0]!.views).toBe(0);
  });

  it('never logs a payload, note, passphrase, bearer token or url_token', () => {
    const text = logs.text();
    expect(text).toContain('"path":"/api/v2/pushes/…"');
    expect(text).toContain('"path":"/api/v2/pushes/active"');
    for (const secret of [PAYLOAD, NOTE, PASSPHRASE, h.token, urlToken]) expect(text).not.toContain(secret);
  });
});
