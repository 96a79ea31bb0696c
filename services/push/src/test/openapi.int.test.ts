import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ClientCredentials, TestAuth } from '@secret-push/auth/testing';
import { startAuth } from '@secret-push/auth/testing';
import { loadPushConfig } from '../config';
import {
  BOOLEAN_WORDS,
  type HttpMethod,
  type OpenApiDocument,
  type OperationObject,
  integerRangePattern,
} from '../http/openapi';
import { pushInputSchema } from '../http/push.schemas';
import { type TestPush, startPush } from '../testing';

// A real auth service and a real push API: the document is checked against what the API does,
// response by response, and against the routes the Express app registers.

const DOC_ID = 'https://secret-push.test/openapi.json';
const OPENAPI_ROOT_KEYS = ['openapi', 'info', 'servers', 'tags', 'paths', 'components', 'security'];
const DOCS_CSP = "default-src 'none'; style-src 'unsafe-inline'";
const UNKNOWN_TOKEN = 'AAAAAAAAAAAAAAAAAAAAAA';

interface Call {
  method: HttpMethod;
  /** Under /api/v2, with any query string. */
  path: string;
  token?: string;
  headers?: Record<string, string>;
  json?: unknown;
  /** A raw body with its content type (forms, malformed JSON, odd charsets). */
  raw?: { type: string; body: string };
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

/** Keys of a JSON pointer, escaped for a URI fragment. */
const pointer = (...parts: (string | number)[]): string =>
  '#/' + parts.map((p) => encodeURIComponent(String(p).replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

let auth: TestAuth;
let push: TestPush;
let doc: OpenApiDocument;
let ajv: Ajv2020;
let owner: ClientCredentials;
let stranger: ClientCredentials;
let ownerToken: string;
let readToken: string;
let writeOnlyToken: string;
let strangerToken: string;
/** "METHOD /template" → statuses seen, for the coverage check. */
const exercised = new Map<string, Set<number>>();
/** Create bodies the API accepted (201). */
const acceptedBodies: { type: 'json' | 'form'; body: unknown }[] = [];

beforeAll(async () => {
  auth = await startAuth();
  push = await startPush(auth);
  owner = await auth.createClient('pushes:read pushes:write', 'owner');
  stranger = await auth.createClient('pushes:read pushes:write', 'stranger');
  [ownerToken, readToken, writeOnlyToken, strangerToken] = await Promise.all([
    auth.token(owner),
    auth.token(owner, 'pushes:read'),
    auth.token(owner, 'pushes:write'),
    auth.token(stranger),
  ]);
  doc = (await (await fetch(`${push.url}/api/v2/openapi.json`)).json()) as OpenApiDocument;
  ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats(ajv);
  ajv.addVocabulary(OPENAPI_ROOT_KEYS);
  ajv.addSchema(doc, DOC_ID);
});

afterAll(async () => {
  await push?.stop();
  await auth?.stop();
});

/** Errors of `value` against the schema at `ref` in the document ([] when valid). */
function schemaErrors(ref: string, value: unknown): string[] {
  const validate = ajv.getSchema(`${DOC_ID}${ref}`) ?? ajv.compile({ $ref: `${DOC_ID}${ref}` });
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

function operations(): { method: HttpMethod; template: string; op: OperationObject }[] {
  return Object.entries(doc.paths).flatMap(([template, item]) =>
    (Object.entries(item) as [HttpMethod, OperationObject][]).map(([method, op]) => ({
      method,
      template,
      op,
    })),
  );
}

/** The documented path a concrete path matches; literal segments win over `{parameters}`. */
function templateOf(method: HttpMethod, path: string): string | undefined {
  const bare = path.split('?')[0]!.replace(/\.json$/, '');
  const matching = Object.keys(doc.paths).filter(
    (t) => doc.paths[t]?.[method] && new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare),
  );
  return matching.sort((a, b) => a.split('{').length - b.split('{').length)[0];
}

async function send(call: Call): Promise<Answer> {
  const headers: Record<string, string> = { ...call.headers };
  if (call.token) headers.authorization = `Bearer ${call.token}`;
  let body: string | undefined;
  if (call.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(call.json);
  } else if (call.raw) {
    headers['content-type'] = call.raw.type;
    body = call.raw.body;
  }
  const res = await fetch(`${push.url}/api/v2${call.path}`, {
    method: call.method.toUpperCase(),
    headers,
    body,
  });
  const text = await res.text();
  const isJson = res.headers.get('content-type')?.startsWith('application/json') ?? false;
  return {
    status: res.status,
    headers: res.headers,
    text,
    body: isJson ? (JSON.parse(text) as unknown) : text,
  };
}

/** Checks an answer against the document: status listed, body and headers as documented. */
function checkAgainstDocument(call: Call, answer: Answer): void {
  const template = templateOf(call.method, call.path);
  expect({ call: `${call.method} ${call.path}`, template }).toEqual(
    expect.objectContaining({ template: expect.any(String) }),
  );
  const base = ['paths', template!, call.method, 'responses', String(answer.status)];
  const response = doc.paths[template!]![call.method]!.responses[String(answer.status)];
  expect({
    [`${call.method} ${template} → ${answer.status}`]: response ? 'documented' : answer.body,
  }).toEqual({
    [`${call.method} ${template} → ${answer.status}`]: 'documented',
  });
  const mediaType = answer.headers.get('content-type')?.split(';')[0] ?? '';
  expect(Object.keys(response!.content ?? {})).toContain(mediaType);
  expect(schemaErrors(pointer(...base, 'content', mediaType, 'schema'), answer.body)).toEqual([]);
  for (const [name, header] of Object.entries(response!.headers ?? {})) {
    const value = answer.headers.get(name);
    if (header.required) expect({ [name]: value }).toEqual({ [name]: expect.any(String) });
    if (value !== null) expect(schemaErrors(pointer(...base, 'headers', name, 'schema'), value)).toEqual([]);
  }
  const key = `${call.method.toUpperCase()} ${template}`;
  exercised.set(key, (exercised.get(key) ?? new Set()).add(answer.status));
}

/** Sends a call, expects `status`, and checks the answer against the document. */
async function expectAnswer(call: Call, status: number): Promise<Answer> {
  const answer = await send(call);
  expect({ call: `${call.method} ${call.path}`, status: answer.status, body: answer.body }).toEqual(
    expect.objectContaining({ status }),
  );
  checkAgainstDocument(call, answer);
  return answer;
}

/** Creates a push as JSON (with a token, or anonymously) and returns its url_token. */
async function createPush(fields: Record<string, unknown>, token?: string): Promise<string> {
  const body = { push: fields };
  const answer = await expectAnswer({ method: 'post', path: '/pushes', token, json: body }, 201);
  acceptedBodies.push({ type: 'json', body });
  return (answer.body as { url_token: string }).url_token;
}

/** A form body as Express's extended urlencoded parser reads `push[field]=value`. */
function parsedForm(form: string): { push: Record<string, string> } {
  const fields: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(form)) {
    const field = /^push\[(\w+)\]$/.exec(key)?.[1];
    if (field) fields[field] = value;
  }
  return { push: fields };
}

const createBodyRef = (type: string) =>
  pointer('paths', '/pushes', 'post', 'requestBody', 'content', type, 'schema');

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1.0, at /openapi and /openapi.json, for this instance', async () => {
    const plain = await expectAnswer({ method: 'get', path: '/openapi' }, 200);
    expect(plain.body).toEqual(doc);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: `${push.url}/api/v2` }]);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.bearer?.description).toMatch(/30 s/);
    expect(doc.components.securitySchemes.personalToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.personalToken?.description).toMatch(/10 s/);
    expect(doc.components.securitySchemes.legacyUserEmail).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-User-Email',
    });
    expect(doc.components.securitySchemes.legacyUserToken).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-User-Token',
    });
    // The lists take any of the three, with the scope: the legacy pair as one requirement.
    expect(doc.paths['/pushes/active']?.get?.security).toEqual([
      { bearer: ['pushes:read'] },
      { personalToken: ['pushes:read'] },
      { legacyUserEmail: ['pushes:read'], legacyUserToken: ['pushes:read'] },
    ]);
  });

  it('has only schemas that compile (strict Ajv 2020 with formats) and references that resolve', () => {
    const refs = Object.keys(doc.components.schemas).map((name) => pointer('components', 'schemas', name));
    for (const { method, template, op } of operations()) {
      const base = ['paths', template, method];
      op.parameters?.forEach((_p, i) => refs.push(pointer(...base, 'parameters', i, 'schema')));
      for (const type of Object.keys(op.requestBody?.content ?? {})) {
        refs.push(pointer(...base, 'requestBody', 'content', type, 'schema'));
      }
      for (const [status, response] of Object.entries(op.responses)) {
        for (const type of Object.keys(response.content ?? {})) {
          refs.push(pointer(...base, 'responses', status, 'content', type, 'schema'));
        }
        for (const name of Object.keys(response.headers ?? {})) {
          refs.push(pointer(...base, 'responses', status, 'headers', name, 'schema'));
        }
      }
    }
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of refs) expect(() => ajv.compile({ $ref: `${DOC_ID}${ref}` })).not.toThrow();
  });

  it('describes every operation: id, summary, description, security, responses with content', () => {
    const ids = operations().map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { op } of operations()) {
      expect(op.summary.length).toBeGreaterThan(5);
      expect(op.description.length).toBeGreaterThan(20);
      expect(Array.isArray(op.security)).toBe(true);
      for (const response of Object.values(op.responses)) {
        expect(response.description.length).toBeGreaterThan(0);
        expect(Object.keys(response.content ?? {}).length).toBeGreaterThan(0);
      }
      for (const p of op.parameters ?? []) expect(p.description.length).toBeGreaterThan(0);
    }
  });

  it('documents every route the Express app registers under /api/v2, and nothing else', () => {
    const registered = apiRoutes().map(({ method, path }) => `${method} ${path}`);
    const documented = operations().map(
      ({ method, template }) => `${method} /api/v2${expressPath(template)}`,
    );
    expect(registered.length).toBeGreaterThan(5);
    expect([...new Set(registered)].sort()).toEqual([...documented].sort());
  });
});

interface RouterLayer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
}

const expressPath = (template: string) => template.replace(/\{(\w+)\}/g, ':$1');

/** Walks the Express 5 router stack (nested routers included) into method + full path. */
function routesOf(stack: RouterLayer[], prefix: string): { method: string; path: string }[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      const path = `${prefix}${String(layer.route.path)}`;
      return Object.keys(layer.route.methods).map((method) => ({ method, path }));
    }
    const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
    return layer.handle?.stack ? routesOf(layer.handle.stack, `${prefix}${mount}`) : [];
  });
}

/**
 * The app is the listener of the running server (`app.listen` → `http.createServer(app)`).
 * /healthz and /readyz are operational endpoints outside the API, not part of it, and so are the
 * web app's create form (`GET /`, `POST /`), the "How it works" page (`/about`), the favicon and the recipient, responder and receipt pages (HTML, services/push/src/pages/).
 * /metrics is on the metrics port only.
 */
function apiRoutes(): { method: string; path: string }[] {
  const [app] = push.server.server.listeners('request') as unknown as { router: { stack: RouterLayer[] } }[];
  const all = routesOf(app!.router.stack, '');
  const outside = all.filter((r) => !r.path.startsWith('/api/v2/'));
  const pages = (path: string) => /^\/(p|f|r|respond|receipt|static)\//.test(path);
  expect(
    outside
      .filter((r) => !pages(r.path))
      .map((r) => `${r.method} ${r.path}`)
      .sort(),
  ).toEqual([
    'get /',
    'get /about',
    'get /created',
    'get /favicon.svg',
    'get /healthz',
    'get /readyz',
    'post /',
    'post /language',
  ]);
  return all.filter((r) => r.path.startsWith('/api/v2/'));
}

describe('answers match the document', () => {
  it('GET /version: 200, also with an invalid token and with the .json suffix', async () => {
    await expectAnswer({ method: 'get', path: '/version' }, 200);
    await expectAnswer({ method: 'get', path: '/version', token: 'not-a-token' }, 200);
    await expectAnswer({ method: 'get', path: '/version.json' }, 200);
  });

  it('POST /pushes: 201 as JSON with a token and as an anonymous form', async () => {
    await createPush(
      { payload: 'json secret', expire_after_days: '3', retrieval_step: 'no', name: 'n', note: 'x' },
      ownerToken,
    );
    const form = 'push[payload]=form+secret&push[expire_after_views]=2&push[deletable_by_viewer]=off';
    const answer = await expectAnswer(
      { method: 'post', path: '/pushes', raw: { type: 'application/x-www-form-urlencoded', body: form } },
      201,
    );
    acceptedBodies.push({ type: 'form', body: parsedForm(form) });
    expect(answer.body).toMatchObject({
      expire_after_views: 2,
      deletable_by_viewer: false,
      name: '',
      note: '',
    });
  });

  it('POST /pushes: 400, 401, 403, 413, 415, 422', async () => {
    const path = '/pushes';
    await expectAnswer({ method: 'post', path, json: { payload: 'no push key' } }, 400);
    await expectAnswer({ method: 'post', path, raw: { type: 'application/json', body: '{"push":' } }, 400);
    await expectAnswer(
      { method: 'post', path: '/pushes?access_token=abc', json: { push: { payload: 'x' } } },
      400,
    );
    await expectAnswer({ method: 'post', path, token: 'not-a-token', json: { push: { payload: 'x' } } }, 401);
    await expectAnswer({ method: 'post', path, token: readToken, json: { push: { payload: 'x' } } }, 403);
    await expectAnswer(
      { method: 'post', path, json: { push: { payload: 'x', expire_after_views: 0 } } },
      422,
    );
    const charset = { type: 'application/json; charset=latin1', body: '{"push":{"payload":"x"}}' };
    await expectAnswer({ method: 'post', path, raw: charset }, 415);
    const huge = JSON.stringify({ push: { payload: 'x'.repeat(16 * 1024 * 1024) } });
    await expectAnswer({ method: 'post', path, raw: { type: 'application/json', body: huge } }, 413);
  });

  it('GET /pushes/{url_token}: 200 with the payload, then 200 expired; 404; 401 invalid token', async () => {
    const token = await createPush({ payload: 'one view', expire_after_views: 1 });
    const first = await expectAnswer({ method: 'get', path: `/pushes/${token}` }, 200);
    expect(first.body).toMatchObject({ payload: 'one view', expired: true, views_remaining: 0 });
    const again = await expectAnswer({ method: 'get', path: `/pushes/${token}.json` }, 200);
    expect(again.body).toMatchObject({ payload: null, expired: true, files: [] });
    await expectAnswer({ method: 'get', path: `/pushes/${UNKNOWN_TOKEN}` }, 404);
    await expectAnswer({ method: 'get', path: `/pushes/${token}`, token: 'not-a-token' }, 401);
  });

  it('passphrases: 401 without, 200 by header, query and reveal body; 422 non-string; 429 beyond the limit', async () => {
    const token = await createPush({ payload: 'guarded', passphrase: 'open sesame', expire_after_views: 10 });
    const unlocked = await expectAnswer({ method: 'get', path: `/pushes/${token}` }, 401);
    expect(unlocked.body).toMatchObject({ code: 'passphrase_required', message: expect.any(String) });
    await expectAnswer(
      { method: 'get', path: `/pushes/${token}`, headers: { 'x-passphrase': 'open sesame' } },
      200,
    );
    await expectAnswer({ method: 'get', path: `/pushes/${token}?passphrase=open%20sesame` }, 200);
    await expectAnswer(
      { method: 'post', path: `/pushes/${token}/reveal`, json: { passphrase: 'open sesame' } },
      200,
    );
    await expectAnswer({ method: 'post', path: `/pushes/${token}/reveal`, json: { passphrase: 42 } }, 422);
    await expectAnswer(
      { method: 'post', path: `/pushes/${token}/reveal`, json: { passphrase: 'wrong' } },
      401,
    );
    await expectAnswer({ method: 'post', path: `/pushes/${UNKNOWN_TOKEN}/reveal`, json: {} }, 404);
    await expectAnswer({ method: 'get', path: `/pushes/${token}?passphrase=wrong` }, 401);
    const limited = await expectAnswer({ method: 'get', path: `/pushes/${token}?passphrase=wrong` }, 429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('GET /pushes/{url_token}/preview: 200, 404, 401 invalid token', async () => {
    const token = await createPush({ payload: 'preview me' });
    const answer = await expectAnswer({ method: 'get', path: `/pushes/${token}/preview` }, 200);
    expect(answer.body).toEqual({ url: `${push.url}/p/${token}/r` });
    await expectAnswer({ method: 'get', path: `/pushes/${UNKNOWN_TOKEN}/preview` }, 404);
    await expectAnswer({ method: 'get', path: `/pushes/${token}/preview`, token: 'not-a-token' }, 401);
  });

  it('GET /pushes/{url_token}/audit: 200 owner, 400 page, 401, 403 scope and stranger, 404', async () => {
    const token = await createPush({ payload: 'audited' }, ownerToken);
    await expectAnswer({ method: 'get', path: `/pushes/${token}` }, 200);
    const log = await expectAnswer({ method: 'get', path: `/pushes/${token}/audit`, token: readToken }, 200);
    expect((log.body as { logs: { kind: string }[] }).logs.map((l) => l.kind)).toEqual(['creation', 'view']);
    await expectAnswer({ method: 'get', path: `/pushes/${token}/audit?page=0`, token: readToken }, 400);
    await expectAnswer({ method: 'get', path: `/pushes/${token}/audit` }, 401);
    await expectAnswer({ method: 'get', path: `/pushes/${token}/audit`, token: writeOnlyToken }, 403);
    await expectAnswer({ method: 'get', path: `/pushes/${token}/audit`, token: strangerToken }, 403);
    await expectAnswer({ method: 'get', path: `/pushes/${UNKNOWN_TOKEN}/audit`, token: readToken }, 404);
  });

  it('DELETE /pushes/{url_token}: 200 owner and viewer, 401 anonymous, 403 stranger, 404', async () => {
    const guarded = await createPush({ payload: 'owner only', deletable_by_viewer: false }, ownerToken);
    await expectAnswer({ method: 'delete', path: `/pushes/${guarded}` }, 401);
    await expectAnswer({ method: 'delete', path: `/pushes/${guarded}`, token: strangerToken }, 403);
    const expired = await expectAnswer(
      { method: 'delete', path: `/pushes/${guarded}`, token: ownerToken },
      200,
    );
    expect(expired.body).toMatchObject({ expired: true, deleted: true });
    const open = await createPush({ payload: 'anyone may delete' });
    await expectAnswer({ method: 'delete', path: `/pushes/${open}` }, 200);
    await expectAnswer({ method: 'delete', path: `/pushes/${UNKNOWN_TOKEN}` }, 404);
  });

  it('GET /pushes/active and /pushes/expired: 200 with Link, 400 page, 401, 403 scope', async () => {
    for (const state of ['active', 'expired']) {
      const path = `/pushes/${state}`;
      const list = await expectAnswer({ method: 'get', path, token: readToken }, 200);
      expect((list.body as unknown[]).length).toBeGreaterThan(0);
      const second = await expectAnswer({ method: 'get', path: `${path}?page=2`, token: readToken }, 200);
      expect(second.headers.get('link')).toMatch(/rel="prev"/);
      await expectAnswer({ method: 'get', path: `${path}?page=201`, token: readToken }, 400);
      await expectAnswer({ method: 'get', path }, 401);
      await expectAnswer({ method: 'get', path, token: 'not-a-token' }, 401);
      await expectAnswer({ method: 'get', path, token: writeOnlyToken }, 403);
    }
  });

  it('GET /docs: 200 HTML under a strict CSP, naming every path, with no scripts or external assets', async () => {
    const answer = await expectAnswer({ method: 'get', path: '/docs' }, 200);
    expect(answer.headers.get('content-security-policy')).toBe(DOCS_CSP);
    for (const { method, template } of operations()) {
      expect(answer.text).toContain(`${method.toUpperCase()} ${template}`);
    }
    expect(answer.text).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|@import|url\(/i);
    expect(answer.text).toMatch(/<html lang="en">/);
    expect(answer.text).toMatch(/<meta name="viewport"/);
    expect(answer.text).toMatch(/<th scope="col">/);
    expect(answer.text).toContain(
      'Required: an access token, a personal API token or <code>X-User-Email</code> + <code>X-User-Token</code>, with scope <code>pushes:read</code>.',
    );
  });

  it('503 when the auth service is down (a token not yet cached)', async () => {
    const fresh = await auth.token(owner);
    await auth.stopServer();
    try {
      await expectAnswer({ method: 'get', path: '/pushes/active', token: fresh }, 503);
    } finally {
      await auth.startServer();
    }
  });

  it('webhooks: every operation, its success and its refusals, as documented', async () => {
    const made = await expectAnswer(
      {
        method: 'post',
        path: '/webhooks',
        token: ownerToken,
        json: { url: 'https://hooks.example/h', event_types: ['push.viewed'] },
      },
      201,
    );
    const id = (made.body as { id: string }).id;
    const base = `/webhooks/${id}`;
    await expectAnswer(
      { method: 'post', path: '/webhooks', token: ownerToken, json: { url: 'ftp://x' } },
      422,
    );
    await expectAnswer(
      { method: 'post', path: '/webhooks', token: ownerToken, raw: { type: 'text/plain', body: 'x' } },
      415,
    );
    await expectAnswer({ method: 'post', path: '/webhooks', token: readToken, json: {} }, 403);
    await expectAnswer({ method: 'get', path: '/webhooks.json', token: readToken }, 200);
    await expectAnswer({ method: 'get', path: '/webhooks' }, 401);
    await expectAnswer({ method: 'get', path: base, token: readToken }, 200);
    await expectAnswer({ method: 'get', path: base, token: strangerToken }, 404);
    await expectAnswer({ method: 'patch', path: base, token: ownerToken, json: { enabled: true } }, 200);
    await expectAnswer({ method: 'patch', path: base, token: ownerToken, json: { enabled: 'yes' } }, 422);
    await expectAnswer({ method: 'post', path: `${base}/rotate`, token: ownerToken }, 200);
    const test = await expectAnswer({ method: 'post', path: `${base}/test`, token: ownerToken }, 202);
    const msg = (test.body as { id: string }).id;
    await expectAnswer({ method: 'get', path: `${base}/deliveries`, token: readToken }, 200);
    await expectAnswer({ method: 'get', path: `${base}/deliveries?page=0`, token: readToken }, 400);
    await expectAnswer({ method: 'get', path: `${base}/deliveries/${msg}`, token: readToken }, 200);
    await expectAnswer({ method: 'post', path: `${base}/deliveries/${msg}/replay`, token: ownerToken }, 202);
    await expectAnswer(
      { method: 'post', path: `${base}/deliveries/msg_${'0'.repeat(32)}/replay`, token: ownerToken },
      404,
    );
    await expectAnswer({ method: 'delete', path: base, token: ownerToken }, 200);
    await expectAnswer({ method: 'delete', path: base, token: ownerToken }, 404);
  });

  it('requests: every operation, its success and its refusals, as documented', async () => {
    const create = (json: unknown, token?: string) =>
      expectAnswer({ method: 'post', path: '/requests', token: token ?? ownerToken, json }, 201);
    const made = await create({ request: { request: 'Send me the key', name: 'n', expire_after_days: '2' } });
    const t = (made.body as { url_token: string }).url_token;
    const form =
      'request[request]=form+message&request[include_requestor]=on&request[attachment_downloads]=2';
    const formMade = await expectAnswer(
      {
        method: 'post',
        path: '/requests',
        token: ownerToken,
        raw: { type: 'application/x-www-form-urlencoded', body: form },
      },
      201,
    );
    const t2 = (formMade.body as { url_token: string }).url_token;
    await expectAnswer({ method: 'post', path: '/requests', json: { request: { request: 'x' } } }, 401);
    await expectAnswer(
      { method: 'post', path: '/requests', token: readToken, json: { request: { request: 'x' } } },
      403,
    );
    await expectAnswer(
      { method: 'post', path: '/requests', token: ownerToken, json: { request: { request: '' } } },
      422,
    );
    await expectAnswer({ method: 'post', path: '/requests', token: ownerToken, json: { nope: 1 } }, 400);
    for (const list of ['', '/active', '/open', '/answered', '/ready', '/closed']) {
      await expectAnswer({ method: 'get', path: `/requests${list}`, token: readToken }, 200);
    }
    await expectAnswer({ method: 'get', path: '/requests' }, 401);
    await expectAnswer({ method: 'get', path: '/requests/open?page=0', token: readToken }, 400);
    await expectAnswer({ method: 'get', path: `/requests/${t}.json`, token: readToken }, 200);
    await expectAnswer({ method: 'get', path: `/requests/${t}`, token: strangerToken }, 403);
    await expectAnswer({ method: 'get', path: `/requests/${UNKNOWN_TOKEN}`, token: readToken }, 404);
    await expectAnswer({ method: 'get', path: `/requests/${t}/preview`, token: readToken }, 200);
    await expectAnswer({ method: 'get', path: `/requests/${t}/respond` }, 200);
    await expectAnswer({ method: 'get', path: `/requests/${UNKNOWN_TOKEN}/respond` }, 404);
    const respond = (method: 'post' | 'patch', token: string, json: unknown, status: number) =>
      expectAnswer({ method, path: `/requests/${token}/respond`, json }, status);
    await respond('post', t, { response: { payload: '' } }, 422);
    await respond('post', t, { response: { payload: 'the key' } }, 201);
    await respond('post', t, { response: { payload: 'again' } }, 409);
    await respond('patch', t2, { response: { payload: 'by patch', kind: 'text' } }, 201);
    await expectAnswer({ method: 'get', path: `/requests/${t}/respond` }, 409);
    const read = await expectAnswer({ method: 'get', path: `/requests/${t}`, token: readToken }, 200);
    expect(read.body).toMatchObject({ state: 'answered', answer: { files: 0 } });
    await expectAnswer({ method: 'get', path: `/requests/${t}/audit`, token: readToken }, 200);
    await expectAnswer({ method: 'delete', path: `/requests/${t}`, token: readToken }, 403);
    await expectAnswer({ method: 'delete', path: `/requests/${t}`, token: ownerToken }, 200);
    await expectAnswer({ method: 'delete', path: `/requests/${t}`, token: ownerToken }, 200);
    await respond('post', t, { response: { payload: 'closed' } }, 404);
  });

  it('exercised every documented operation for its success status', () => {
    for (const { method, template, op } of operations()) {
      const success = Object.keys(op.responses).find((s) => s.startsWith('2'));
      expect({
        [`${method} ${template}`]: [...(exercised.get(`${method.toUpperCase()} ${template}`) ?? [])],
      }).toEqual({
        [`${method} ${template}`]: expect.arrayContaining([Number(success)]),
      });
    }
  });
});

describe('the create body schema', () => {
  it('accepts every body the API accepted', () => {
    expect(acceptedBodies.length).toBeGreaterThan(5);
    for (const { type, body } of acceptedBodies) {
      const mediaType = type === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
      expect({ body, errors: schemaErrors(createBodyRef(mediaType), body) }).toEqual({ body, errors: [] });
    }
  });

  it.each([
    ['views 0', { expire_after_views: 0 }],
    ['views "101"', { expire_after_views: '101' }],
    ['days 91', { expire_after_days: 91 }],
    ['days 1.5', { expire_after_days: 1.5 }],
    ['duration 18', { expire_after_duration: 18 }],
    ['retrieval_step "maybe"', { retrieval_step: 'maybe' }],
    ['kind "image"', { kind: 'image' }],
    ['name over 1024', { name: 'n'.repeat(1025) }],
  ])('rejects a body the API answers 422 for: %s', async (_label, fields) => {
    const body = { push: { payload: 'x', ...fields } };
    await expectAnswer({ method: 'post', path: '/pushes', json: body }, 422);
    expect(schemaErrors(createBodyRef('application/json'), body)).not.toEqual([]);
  });

  it('agrees with the zod schema on integers, integer strings and boolean words', () => {
    const rules = loadPushConfig(push.env).limits;
    const zod = pushInputSchema(rules);
    const ref = pointer('components', 'schemas', 'PushInput');
    const numbers = [-1, 0, 1, 2, 17, 18, 89, 90, 91, 99, 100, 101, 1.5];
    const strings = [...numbers.map(String), '007', '-0', '', ' 5', '5 ', '1e1', '0x10'];
    const words = [...BOOLEAN_WORDS, 'TRUE', 'Yes', 'ofF', 'CHECKED', 'maybe', 'y', 'truee', ''];
    const cases = [
      ...['expire_after_days', 'expire_after_views', 'expire_after_duration'].flatMap((field) =>
        [...numbers, ...strings].map((value) => ({ [field]: value })),
      ),
      ...['retrieval_step', 'deletable_by_viewer'].flatMap((field) =>
        [...words, 0, 1, 2, true, false].map((value) => ({ [field]: value })),
      ),
    ];
    for (const fields of cases) {
      const documented = schemaErrors(ref, fields).length === 0;
      expect({ fields, documented }).toEqual({ fields, documented: zod.safeParse(fields).success });
    }
  });

  it('describes integer ranges exactly (integerRangePattern)', () => {
    for (const [min, max] of [
      [1, 90],
      [1, 100],
      [0, 17],
      [1, 3650],
      [5, 5],
      [7, 1234],
    ] as const) {
      const pattern = new RegExp(integerRangePattern(min, max), 'u');
      for (let n = 0; n <= max + 20; n += 1) {
        expect({ min, max, n, matches: pattern.test(String(n)) }).toEqual({
          min,
          max,
          n,
          matches: n >= min && n <= max,
        });
      }
    }
  });
});
