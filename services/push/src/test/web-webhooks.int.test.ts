import type { TestAuth } from '@secret-push/auth/testing';
import { type TestPush, type TestWebStack, startTestWorker, startWebStack } from '../testing';
import type { WorkerService } from '../worker-server';
import { Browser } from './support/browser';
import { type Receiver, startReceiver } from './support/webhook-receiver';

/*
 * The web app's Webhooks pages (issue 27) against the real services: the auth service signs people
 * in, the push service serves /users/webhooks, its worker delivers to a real receiver on
 * 127.0.0.1 (allowed as `make up` allows it). The secret shown once, validation next to the field,
 * another person's endpoint not found and untouched, CSRF and same-origin, disable/enable, rotate,
 * delete after its confirmation, and the delivery log with a test event and its replay.
 */
let stack: TestWebStack;
let auth: TestAuth;
let push: TestPush;
let worker: WorkerService;
let receiver: Receiver;
let user: { email: string; password: string };

beforeAll(async () => {
  stack = await startWebStack({ pushEnv: { PUSH_WEBHOOK_ALLOW_HTTP: 'true' } });
  ({ auth, push, user } = stack);
  worker = await startTestWorker(push, {
    PUSH_WEBHOOK_ALLOW_HTTP: 'true',
    PUSH_WEBHOOK_ALLOWED_DESTINATIONS: '127.0.0.1',
    PUSH_WEBHOOK_INTERVAL_MS: '100',
  });
  receiver = await startReceiver();
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await worker?.close();
  await stack?.stop();
});

const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };
const csrfOf = (body: string) => /name="csrf" value="([^"]+)"/.exec(body)![1]!;
const secretOf = (body: string) => /id="new-secret"[^>]*value="(whsec_[^"]+)"/.exec(body)?.[1];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let hooks = 0;
/** A URL no other test uses. */
const uniqueUrl = () => `https://hooks.example/web-${++hooks}-${Math.random().toString(36).slice(2)}`;

/** A form body; an array value is the field sent once per item (checkboxes). */
const body = (fields: Record<string, string | string[]>) =>
  new URLSearchParams(
    Object.entries(fields).flatMap(([k, v]) =>
      (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x]),
    ),
  ).toString();

interface Person {
  b: Browser;
  csrf: string;
}

async function newUser(email: string): Promise<{ email: string; password: string }> {
  const made = await auth.cli('users', 'create', '--email', email, '--json');
  expect(made.code).toBe(0);
  return JSON.parse(made.out) as { email: string; password: string };
}

async function signedIn(who: { email: string; password: string }): Promise<Person> {
  const b = new Browser();
  const landed = await b.signIn(push.url, auth.issuer, who);
  expect(landed.body).toContain('Signed in as');
  return { b, csrf: csrfOf(landed.body) };
}

const post = (p: Person, path: string, fields: Record<string, string | string[]> = {}) =>
  p.b.fetch(`${push.url}${path}`, {
    method: 'POST',
    headers: FORM_TYPE,
    body: body({ csrf: p.csrf, ...fields }),
  });

const get = (p: Person, path: string) => p.b.follow(`${push.url}${path}`);

/** Adds an endpoint through the page: its id (from the database) and the secret shown. */
async function addEndpoint(p: Person, url: string, types: string[] = ['push.viewed']) {
  const res = await post(p, '/users/webhooks', { url, event_types: types });
  expect(res.status).toBe(201);
  const page = await res.text();
  const row = await push.db
    .selectFrom('webhook_endpoint')
    .selectAll()
    .where('url', '=', url)
    .executeTakeFirstOrThrow();
  return { id: row.id, row, page, secret: secretOf(page)! };
}

const endpointRow = (id: string) =>
  push.db.selectFrom('webhook_endpoint').selectAll().where('id', '=', id).executeTakeFirst();
const countEndpoints = async () =>
  Number(
    (
      await push.db
        .selectFrom('webhook_endpoint')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the list and adding an endpoint', () => {
  it('nobody signed in is sent to sign in; the header links the page; none yet', async () => {
    const anonymous = await new Browser().fetch(`${push.url}/users/webhooks`);
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe('/sign-in');

    const p = await signedIn(await newUser('webhooks-empty@example.org'));
    const page = await get(p, '/users/webhooks');
    expect(page.res.status).toBe(200);
    expect(page.res.headers.get('cache-control')).toContain('no-store');
    expect(page.body).toContain('<a href="/users/webhooks" aria-current="page">Webhooks</a>');
    expect(page.body).toContain('You have no webhook endpoints yet.');
    for (const t of ['push.created', 'push.viewed', 'push.expired', 'push.failed_passphrase']) {
      expect(page.body).toMatch(new RegExp(`name="event_types"\\s+value="${t}"`));
    }
    expect(page.body).toMatch(/name="all_types"\s+value="true"/);
    // Linked from every signed-in page's header, e.g. the create form.
    expect((await get(p, '/')).body).toContain('<a href="/users/webhooks">Webhooks</a>');
  });

  it('creating answers 201 with the whsec_ secret once; the list afterwards never shows it', async () => {
    const p = await signedIn(user);
    const url = uniqueUrl();
    const made = await post(p, '/users/webhooks', { url, event_types: ['push.viewed', 'push.expired'] });
    expect(made.status).toBe(201);
    expect(made.headers.get('cache-control')).toContain('no-store');
    const page = await made.text();
    const secret = secretOf(page);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(page).toContain('it is shown only once');
    expect(page).toContain('data-copy="new-secret"');

    const row = await push.db
      .selectFrom('webhook_endpoint')
      .selectAll()
      .where('url', '=', url)
      .executeTakeFirstOrThrow();
    expect(row.owner).toMatch(/^user:/);
    expect(row.event_types).toEqual(['push.viewed', 'push.expired']);
    expect(row.enabled).toBe(true);

    const list = await get(p, '/users/webhooks');
    expect(list.body).toContain(`<code>${url}</code>`);
    expect(list.body).toContain('Receives push.viewed, push.expired.');
    expect(list.body).not.toContain(secret);
    expect(list.body).not.toContain('whsec_');
    expect(list.body).not.toContain('id="new-secret"');

    const all = await post(p, '/users/webhooks', { url: uniqueUrl(), all_types: 'true' });
    expect(all.status).toBe(201);
    expect(await all.text()).toContain('Receives all event types.');
  });

  it.each<[string, Record<string, string | string[]>, string, string]>([
    ['not a URL', { url: 'not a url', event_types: 'push.viewed' }, 'url', 'Not an absolute URL.'],
    ['ftp', { url: 'ftp://hooks.example/x', event_types: 'push.viewed' }, 'url', 'The URL must be http(s).'],
    [
      'credentials',
      { url: 'https://me:pw@hooks.example/x', event_types: 'push.viewed' },
      'url',
      'The URL must not carry credentials.',
    ],
    ['no URL', { url: ' ', event_types: 'push.viewed' }, 'url', 'Give the URL your receiver listens on.'],
    [
      'no event type',
      { url: 'https://hooks.example/typed-<kept>' },
      'event_types',
      'Choose at least one event type',
    ],
    [
      'only unknown types',
      { url: 'https://hooks.example/typed-<kept>', event_types: 'push.eaten' },
      'event_types',
      'Choose at least one event type',
    ],
  ])(
    'refuses %s: 422, the problem next to its field, what was typed kept, nothing made',
    async (_n, fields, field, message) => {
      const p = await signedIn(user);
      const before = await countEndpoints();
      const res = await post(p, '/users/webhooks', fields);
      expect(res.status).toBe(422);
      const page = await res.text();
      expect(page).toMatch(
        new RegExp(`<p class="error" id="${field}-error">[^<]*${message.replace(/[.()]/g, '\\$&')}`),
      );
      const typed = (fields.url as string).trim().replaceAll('<', '&lt;').replaceAll('>', '&gt;');
      expect(page).toMatch(new RegExp(`id="url"[^>]*value="${typed.replace(/[.()?*+]/g, '\\$&')}"`));
      expect(page).not.toContain('<kept>');
      if (fields.event_types === 'push.viewed') {
        expect(page).toMatch(/value="push\.viewed"\s+checked/);
        expect(page).not.toMatch(/value="push\.created"\s+checked/);
      }
      expect(secretOf(page)).toBeUndefined();
      expect(await countEndpoints()).toBe(before);
    },
  );

  it('at most 10 endpoints: the 11th is refused with 422, the form keeping its URL', async () => {
    const p = await signedIn(await newUser('webhooks-many@example.org'));
    for (let i = 0; i < 10; i++) await addEndpoint(p, uniqueUrl());
    const before = await countEndpoints();
    const url = uniqueUrl();
    const over = await post(p, '/users/webhooks', { url, event_types: 'push.viewed' });
    expect(over.status).toBe(422);
    const page = await over.text();
    expect(page).toContain('You have 10 endpoints, the most allowed: delete one first.');
    expect(page).toMatch(new RegExp(`id="url"[^>]*value="${url.replace(/[.]/g, '\\.')}"`));
    expect(await countEndpoints()).toBe(before);
  });
});

describe('ownership and forgery', () => {
  it("another person's endpoint is the 404 page for every action, and stays as it was", async () => {
    const owner = await signedIn(await newUser('webhooks-owner@example.org'));
    const theirs = await addEndpoint(owner, uniqueUrl());
    const other = await signedIn(await newUser('webhooks-other@example.org'));
    const base = `/users/webhooks/${theirs.id}`;

    const shown = await get(other, base);
    expect(shown.res.status).toBe(404);
    expect(shown.body).toContain('No such webhook');
    expect(shown.body).not.toContain(theirs.row.url);
    for (const action of [
      'disable',
      'enable',
      'rotate',
      'test',
      'delete',
      `deliveries/msg_${'0'.repeat(32)}/replay`,
    ]) {
      const res = await post(other, `${base}/${action}`);
      expect([action, res.status]).toEqual([action, 404]);
      expect(await res.text()).toContain('No such webhook');
    }
    const ask = await get(other, `${base}/delete`);
    expect([ask.res.status, ask.body.includes(theirs.row.url)]).toEqual([404, false]);
    expect((await get(other, '/users/webhooks/not-an-id')).res.status).toBe(404);
    expect((await get(other, '/users/webhooks')).body).not.toContain(theirs.row.url);

    const after = await endpointRow(theirs.id);
    expect(after).toMatchObject({ enabled: true, previous_until: null, url: theirs.row.url });
    expect(after!.secret_sealed.equals(theirs.row.secret_sealed)).toBe(true);
    const sent = await push.db
      .selectFrom('webhook_delivery')
      .select('id')
      .where('endpoint_id', '=', theirs.id)
      .execute();
    expect(sent).toHaveLength(0);
  });

  it('a cross-site POST or one without the CSRF token is refused (403) and changes nothing', async () => {
    const p = await signedIn(user);
    const mine = await addEndpoint(p, uniqueUrl());
    const before = await countEndpoints();
    const crossSite = await fetch(`${push.url}/users/webhooks`, {
      method: 'POST',
      headers: {
        cookie: [...p.b.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'sec-fetch-site': 'cross-site',
        ...FORM_TYPE,
      },
      body: body({ csrf: p.csrf, url: uniqueUrl(), event_types: 'push.viewed' }),
      redirect: 'manual',
    });
    expect(crossSite.status).toBe(403);
    const forged = await p.b.fetch(`${push.url}/users/webhooks/${mine.id}/delete`, {
      method: 'POST',
      headers: FORM_TYPE,
      body: 'csrf=forged',
    });
    expect(forged.status).toBe(403);
    expect(await countEndpoints()).toBe(before);
    expect(await endpointRow(mine.id)).toBeDefined();
  });
});

describe('actions on an endpoint', () => {
  it('disable and enable, each confirmed after the redirect; a made-up flash key shows nothing', async () => {
    const p = await signedIn(user);
    const { id } = await addEndpoint(p, uniqueUrl());
    const off = await post(p, `/users/webhooks/${id}/disable`);
    expect([off.status, off.headers.get('location')]).toEqual([303, '/users/webhooks?done=disabled']);
    expect(await endpointRow(id)).toMatchObject({ enabled: false, disabled_reason: 'disabled by its owner' });
    const shown = await get(p, off.headers.get('location')!);
    expect(shown.body).toContain(
      '<p role="status" class="notice">The endpoint was disabled: nothing is sent to it until you enable it again.</p>',
    );
    expect(shown.body).toContain('<strong>Disabled</strong>: disabled by its owner.');
    expect(shown.body).toContain(`action="/users/webhooks/${id}/enable"`);

    const on = await post(p, `/users/webhooks/${id}/enable`);
    expect(on.headers.get('location')).toBe('/users/webhooks?done=enabled');
    expect(await endpointRow(id)).toMatchObject({ enabled: true, disabled_reason: null });
    expect((await get(p, on.headers.get('location')!)).body).toContain('The endpoint was enabled.');

    const madeUp = await get(p, '/users/webhooks?done=%3Cscript%3Ex');
    expect(madeUp.res.status).toBe(200);
    expect(madeUp.body).not.toContain('role="status" class="notice"');
    expect(madeUp.body).not.toContain('<script>x');
  });

  it('rotating shows the new secret once and how long the old one keeps signing', async () => {
    const p = await signedIn(user);
    const { id, secret } = await addEndpoint(p, uniqueUrl());
    const rotated = await post(p, `/users/webhooks/${id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toContain('no-store');
    const page = await rotated.text();
    const fresh = secretOf(page);
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    expect(page).toContain('Its new signing secret');
    expect(page).toMatch(
      /The previous secret keeps signing too until <span class="when"\s*>in 24 hours[\s\S]*?<time datetime="[^"]+"/,
    );
    const row = await endpointRow(id);
    const overlap = row!.previous_until!.getTime() - Date.now();
    expect(overlap).toBeGreaterThan(23.9 * 3600_000);
    expect((await get(p, '/users/webhooks')).body).not.toContain(fresh!);
  });

  it('delete is behind a confirmation on the page, then gone with a message', async () => {
    const p = await signedIn(user);
    const url = uniqueUrl();
    const { id } = await addEndpoint(p, url);
    const list = await get(p, '/users/webhooks');
    // Delete asks first: a link to its confirmation page (works without JavaScript), which names the
    // endpoint and changes nothing; its form POSTs.
    expect(list.body).toContain(`href="/users/webhooks/${id}/delete"`);
    expect(list.body).not.toContain(`action="/users/webhooks/${id}/delete"`);
    const ask = await get(p, `/users/webhooks/${id}/delete`);
    expect(ask.res.status).toBe(200);
    expect(ask.body).toContain(`<h1 class="question">Delete the endpoint ${url}?</h1>`);
    expect(ask.body).toContain(`action="/users/webhooks/${id}/delete"`);
    expect(await endpointRow(id)).toBeDefined();
    const deleted = await post(p, `/users/webhooks/${id}/delete`);
    expect([deleted.status, deleted.headers.get('location')]).toEqual([303, '/users/webhooks?done=deleted']);
    expect(await endpointRow(id)).toBeUndefined();
    const after = await get(p, deleted.headers.get('location')!);
    expect(after.body).toContain('The endpoint was deleted, with its delivery log.');
    expect(after.body).not.toContain(url);
    expect((await get(p, `/users/webhooks/${id}`)).res.status).toBe(404);
  });
});

describe('the delivery log', () => {
  it('lists a test event once delivered (escaped answer), and Replay sends the same message again', async () => {
    receiver.answer(() => ({ status: 200, body: '<b>thanks</b> from the receiver' }));
    const p = await signedIn(user);
    const path = `/web-log-${Math.random().toString(36).slice(2)}`;
    const { id } = await addEndpoint(p, receiver.url(path), ['push.created']);
    const mine = () => receiver.received.filter((r) => r.path === path);

    const empty = await get(p, `/users/webhooks/${id}`);
    expect(empty.res.status).toBe(200);
    expect(empty.body).toContain('No deliveries yet.');

    const tested = await post(p, `/users/webhooks/${id}/test`);
    expect([tested.status, tested.headers.get('location')]).toEqual([303, `/users/webhooks/${id}?done=test`]);
    const queued = await get(p, tested.headers.get('location')!);
    expect(queued.body).toContain('A test event was queued: it shows below.');
    expect(queued.body).toContain('<code>webhook.test</code>');

    for (let i = 0; i < 100 && mine().length === 0; i++) await sleep(100);
    expect(mine()).toHaveLength(1);
    const webhookId = mine()[0]!.headers['webhook-id'] as string;
    let log = await get(p, `/users/webhooks/${id}`);
    for (let i = 0; i < 50 && !log.body.includes('Delivered'); i++) {
      await sleep(100);
      log = await get(p, `/users/webhooks/${id}`);
    }
    expect(log.body).toContain('<strong>Delivered</strong><br />1 attempt');
    expect(log.body).toMatch(/<br \/>HTTP 200, \d+ ms/);
    expect(log.body).toContain('&lt;b&gt;thanks&lt;/b&gt; from the receiver');
    expect(log.body).not.toContain('<b>thanks</b>');
    expect(log.body).toContain(`action="/users/webhooks/${id}/deliveries/${webhookId}/replay"`);

    const replayed = await post(p, `/users/webhooks/${id}/deliveries/${webhookId}/replay`, { page: '1' });
    expect([replayed.status, replayed.headers.get('location')]).toEqual([
      303,
      `/users/webhooks/${id}?done=replayed`,
    ]);
    const again = await get(p, replayed.headers.get('location')!);
    expect(again.body).toContain('The delivery was queued again');

    for (let i = 0; i < 100 && mine().length < 2; i++) await sleep(100);
    expect(mine().map((r) => r.headers['webhook-id'])).toEqual([webhookId, webhookId]);
    const rows = await push.db
      .selectFrom('webhook_delivery')
      .selectAll()
      .where('endpoint_id', '=', id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: webhookId, type: 'webhook.test' });

    const unknown = await post(p, `/users/webhooks/${id}/deliveries/msg_${'f'.repeat(32)}/replay`);
    expect(unknown.status).toBe(404);
    expect((await get(p, `/users/webhooks/${id}?page=0`)).res.status).toBe(400);
  }, 30_000);
});
