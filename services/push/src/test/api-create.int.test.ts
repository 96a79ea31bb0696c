import request from 'supertest';
import { sql } from 'kysely';
import { BASE_KEYS, ISO_MS, type Harness, bearer, createPush, harness } from './support/helpers';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.stop());

const countPushes = async () =>
  Number((await sql<{ n: string }>`select count(*) as n from push`.execute(h.push.db)).rows[0]!.n);

describe('POST /api/v2/pushes', () => {
  it('creates an anonymous text push with the instance defaults', async () => {
    const res = await createPush(h.push.url, { payload: 'hunter2' });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(Object.keys(res.body).sort()).toEqual([...BASE_KEYS, 'name', 'note'].sort());
    const t = res.body.url_token as string;
    expect(t).toMatch(/^[\w-]{22}$/);
    expect(res.body).toMatchObject({
      kind: 'text',
      expire_after_days: 7,
      expire_after_views: 5,
      expired: false,
      expired_on: null,
      deleted: false,
      deletable_by_viewer: true,
      retrieval_step: true,
      passphrase_protected: false,
      days_remaining: 7,
      views_remaining: 5,
      json_url: `${h.push.url}/api/v2/pushes/${t}`,
      html_url: `${h.push.url}/p/${t}/r`,
      name: '',
      note: '',
    });
    expect(res.body.created_at).toMatch(ISO_MS);
    expect(Date.parse(res.body.expires_at) - Date.parse(res.body.created_at)).toBe(7 * 86_400_000);
  });

  it('coerces numbers and booleans sent as strings, in JSON and in forms', async () => {
    const json = await createPush(h.push.url, {
      payload: 'x',
      expire_after_days: '3',
      expire_after_views: '2',
      retrieval_step: 'no',
      deletable_by_viewer: 'OFF',
      name: 'db password',
      note: 'for the ops team',
    });
    expect(json.status).toBe(201);
    expect(json.body).toMatchObject({
      expire_after_days: 3,
      expire_after_views: 2,
      retrieval_step: false,
      deletable_by_viewer: false,
      name: 'db password',
      note: 'for the ops team',
    });
    expect(json.body.html_url).toBe(`${h.push.url}/p/${json.body.url_token}`);

    const form = await request(h.push.url)
      .post('/api/v2/pushes')
      .type('form')
      .send(
        'push[payload]=y&push[expire_after_views]=1&push[retrieval_step]=checked&push[deletable_by_viewer]=0',
      );
    expect(form.status).toBe(201);
    expect(form.body).toMatchObject({
      expire_after_views: 1,
      retrieval_step: true,
      deletable_by_viewer: false,
    });

    const jsonBools = await createPush(h.push.url, {
      payload: 'z',
      retrieval_step: false,
      deletable_by_viewer: 1,
    });
    expect(jsonBools.body).toMatchObject({ retrieval_step: false, deletable_by_viewer: true });
  });

  it('accepts expire_after_duration; a window under a day reports one day', async () => {
    const res = await createPush(h.push.url, { payload: 'x', expire_after_duration: '3' });
    expect(res.status).toBe(201);
    expect(res.body.expire_after_days).toBe(1);
    expect(Date.parse(res.body.expires_at) - Date.parse(res.body.created_at)).toBe(3600_000);
    const week = await createPush(h.push.url, { payload: 'x', expire_after_duration: 12 });
    expect(week.body.expire_after_days).toBe(7);
  });

  it('makes URL and QR pushes; URL pushes are never viewer-deletable', async () => {
    const url = await createPush(h.push.url, {
      kind: 'url',
      payload: 'https://example.com/a?b=c',
      deletable_by_viewer: true,
    });
    expect(url.status).toBe(201);
    expect(url.body).toMatchObject({ kind: 'url', deletable_by_viewer: null });
    const qr = await createPush(h.push.url, { kind: 'qr', payload: 'WIFI:S:home;T:WPA;P:secret;;' });
    expect(qr.status).toBe(201);
    expect(qr.body.kind).toBe('qr');
  });

  it('counts the payload in code points', async () => {
    const emoji = '🔐'.repeat(1024);
    expect((await createPush(h.push.url, { kind: 'qr', payload: emoji })).status).toBe(201);
    expect((await createPush(h.push.url, { kind: 'qr', payload: `${emoji}x` })).status).toBe(422);
  });

  it('owns pushes created with a token', async () => {
    const res = await createPush(h.push.url, { payload: 'x', name: 'mine' }, h.token);
    expect(res.status).toBe(201);
    const { rows } = await sql<{ owner: string }>`select owner from push where name = 'mine'`.execute(
      h.push.db,
    );
    expect(rows[0]!.owner).toBe(`client:${h.client.client_id}`);
  });

  it.each<[string, Record<string, unknown>, string, RegExp]>([
    ['payload missing', {}, 'payload', /^Payload is required\.$/],
    ['payload blank', { payload: '   ' }, 'payload', /^Payload is required\.$/],
    ['payload not a string', { payload: 42 }, 'payload', /must be a string/],
    ['text payload over 1,048,576 characters', { payload: 'a'.repeat(1_048_577) }, 'payload', /too large/],
    ['QR payload over 1024 characters', { kind: 'qr', payload: 'a'.repeat(1025) }, 'payload', /too large/],
    [
      'URL payload not http(s)',
      { kind: 'url', payload: 'ftp://example.com' },
      'payload',
      /valid HTTP or HTTPS URL/,
    ],
    ['URL payload not a URL', { kind: 'url', payload: 'not a url' }, 'payload', /valid HTTP or HTTPS URL/],
    ['unknown kind', { kind: 'bogus', payload: 'x' }, 'kind', /must be one of text, url, qr, file/],
    [
      'file kind while file pushes are disabled',
      { kind: 'file', payload: 'x' },
      'kind',
      /File pushes are disabled/,
    ],
    [
      'files attached while file pushes are disabled',
      { files: [], payload: 'x' },
      'kind',
      /File pushes are disabled/,
    ],
    ['days below the range', { payload: 'x', expire_after_days: 0 }, 'expire_after_days', /from 1 to 90/],
    ['days above the range', { payload: 'x', expire_after_days: 91 }, 'expire_after_days', /from 1 to 90/],
    ['days not an integer', { payload: 'x', expire_after_days: '2.5' }, 'expire_after_days', /integer/],
    ['days a word', { payload: 'x', expire_after_days: 'seven' }, 'expire_after_days', /integer/],
    [
      'views above the range',
      { payload: 'x', expire_after_views: 101 },
      'expire_after_views',
      /from 1 to 100/,
    ],
    ['views zero', { payload: 'x', expire_after_views: 0 }, 'expire_after_views', /from 1 to 100/],
    [
      'duration out of the enum',
      { payload: 'x', expire_after_duration: 18 },
      'expire_after_duration',
      /from 0 to 17/,
    ],
    [
      'duration and days together',
      { payload: 'x', expire_after_duration: 1, expire_after_days: 2 },
      'expire_after_duration',
      /not both/,
    ],
    [
      'boolean not a boolean',
      { payload: 'x', retrieval_step: 'maybe' },
      'retrieval_step',
      /must be a boolean/,
    ],
    ['name too long', { payload: 'x', name: 'n'.repeat(1025) }, 'name', /at most 1024/],
    ['note too long', { payload: 'x', note: 'n'.repeat(1025) }, 'note', /at most 1024/],
  ])('422 when %s, naming the field and changing nothing', async (_case, fields, field, message) => {
    const before = await countPushes();
    const res = await createPush(h.push.url, fields);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'validation_failed', request_id: expect.any(String) });
    expect(res.body.error).toEqual(expect.any(String));
    expect(res.body.fields[field]).toEqual(expect.arrayContaining([expect.stringMatching(message)]));
    expect(await countPushes()).toBe(before);
  });

  it('reports every bad field at once', async () => {
    const res = await createPush(h.push.url, {
      kind: 'bogus',
      expire_after_days: 500,
      expire_after_views: -1,
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.fields).sort()).toEqual(['expire_after_days', 'expire_after_views', 'kind']);
  });

  it.each<[string, () => request.Test, number, string]>([
    ['body without push', () => request(h.push.url).post('/api/v2/pushes').send({}), 400, 'bad_request'],
    [
      'push not an object',
      () => request(h.push.url).post('/api/v2/pushes').send({ push: 'x' }),
      400,
      'bad_request',
    ],
    [
      'push an array',
      () => request(h.push.url).post('/api/v2/pushes').send({ push: [] }),
      400,
      'bad_request',
    ],
    [
      'malformed JSON',
      () =>
        request(h.push.url).post('/api/v2/pushes').set('content-type', 'application/json').send('{"push":'),
      400,
      'bad_request',
    ],
    [
      'body over 16 MiB',
      () =>
        request(h.push.url)
          .post('/api/v2/pushes')
          .send({ push: { payload: 'a'.repeat(17 * 1024 * 1024) } }),
      413,
      'payload_too_large',
    ],
    [
      'unsupported content type',
      () => request(h.push.url).post('/api/v2/pushes').set('content-type', 'text/plain').send('payload=x'),
      415,
      'unsupported_media_type',
    ],
    [
      'invalid token',
      () =>
        request(h.push.url)
          .post('/api/v2/pushes')
          .set(bearer('nope'))
          .send({ push: { payload: 'x' } }),
      401,
      'invalid_token',
    ],
  ])('%s', async (_case, send, status, code) => {
    const before = await countPushes();
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code, error: expect.any(String), request_id: expect.any(String) });
    expect(await countPushes()).toBe(before);
  });

  it('needs pushes:write when a token is used', async () => {
    const reader = await h.auth.createClient('pushes:read');
    const res = await createPush(h.push.url, { payload: 'x' }, await h.auth.token(reader));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('insufficient_scope');
    expect(res.headers['www-authenticate']).toBe(
      'Bearer realm="secret-push", error="insufficient_scope", scope="pushes:write"',
    );
  });

  it('refuses a token in the query string', async () => {
    const res = await request(h.push.url)
      .post(`/api/v2/pushes?access_token=${h.token}`)
      .send({ push: { payload: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('bad_request');
  });

  it('answers on the .json suffix too', async () => {
    const res = await request(h.push.url)
      .post('/api/v2/pushes.json')
      .set(bearer(h.token))
      .send({ push: { payload: 'x' } });
    expect(res.status).toBe(201);
  });
});

describe('GET /api/v2/version', () => {
  it('reports the instance configuration and ignores invalid tokens', async () => {
    for (const path of ['/api/v2/version', '/api/v2/version.json']) {
      const res = await request(h.push.url).get(path).set(bearer('garbage'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        application_version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
        api_version: '2.1',
        edition: 'commercial',
        features: {
          anonymous_access: true,
          api_token_authentication: true,
          accounts: { enabled: false },
          pushes: {
            enabled: true,
            email_auto_dispatch: false,
            file_attachments: { enabled: false, requires_authentication: true },
            url_pushes: { enabled: true },
            qr_code_pushes: { enabled: true },
          },
          requests: { enabled: true, email_auto_dispatch: false },
        },
      });
    }
  });
});
