import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { createKysely } from '@secret-push/db-kit';
import { KeyRing } from '@secret-push/key-ring';
import { freshDatabase, type TestDatabase } from '@secret-push/testing';
import { TooManyAttempts } from '../domain/errors';
import type { AuditContext } from '../domain/push';
import type { NewRequest } from '../domain/request';
import { type RequestService, createRequestService } from '../domain/request-service';
import type { PushDatabase } from './database';
import { pushMigrations } from './migrations';
import { createRequestRepository } from './request.repository';

// The request service over createRequestRepository and a real PostgreSQL: what is stored, the
// answer's transaction (exactly one of parallel answers), close, audit, lists and the outbox.

let database: TestDatabase<PushDatabase>;
let db: Kysely<PushDatabase>;
let wide: Kysely<PushDatabase>;
let service: RequestService;
let wideService: RequestService;
let attempts = 0;

const DURATIONS = [900, 1800];
const keyRing = new KeyRing([{ id: 'k', key: randomBytes(32) }]);
const serviceOver = (d: Kysely<PushDatabase>) =>
  createRequestService({
    store: createRequestRepository(d),
    keyRing,
    passphraseLimiter: {
      consume: () => (++attempts > 3 ? Promise.reject(new TooManyAttempts(60)) : Promise.resolve()),
    },
    maxAuditEntries: 10,
    durations: DURATIONS,
    emailEnabled: true,
  });

beforeAll(async () => {
  database = await freshDatabase<PushDatabase>('requestrepo', pushMigrations);
  db = database.db;
  wide = createKysely<PushDatabase>({ url: database.url, poolSize: 12 });
  service = serviceOver(db);
  wideService = serviceOver(wide);
});
afterAll(async () => {
  await wide.destroy();
  await database.drop();
});
beforeEach(async () => {
  attempts = 0;
  await sql`truncate push, audit_entry, push_event, push_file, webhook_endpoint, request, request_audit_entry, request_file, request_answer_code cascade`.execute(
    db,
  );
});

const ctx: AuditContext = { ip: '192.0.2.9', userAgent: 'rq-test/1.0', referrer: '' };
const OWNER = 'user:00000000-0000-4000-8000-000000000001';

function input(over: Partial<NewRequest> = {}): NewRequest {
  return {
    message: 'Please send the staging database password',
    name: 'db',
    note: 'ticket 42',
    passphrase: null,
    window: {
      closeAfterDuration: null,
      expireAfterDays: 3,
      expireAfterDuration: null,
      ttlSeconds: 3 * 86_400,
    },
    answer: {
      expireAfterViews: 1,
      expireAfterDays: 3,
      expireAfterDuration: null,
      retrievalStep: false,
      deletableByViewer: true,
    },
    responseFileAttachments: false,
    includeRequestor: false,
    answerableBy: 'anyone',
    answerableEmails: [],
    notifyOwnerOnAnswer: false,
    attachmentDownloads: 3,
    emailLocale: null,
    ...over,
  };
}

const create = (over: Partial<NewRequest> = {}) =>
  service.create(input(over), { owner: OWNER, requestorEmail: 'owner@example.test', audit: ctx });

describe('request repository', () => {
  test('stores the message, note and token sealed; reads them back for the owner only', async () => {
    const made = await create();
    const row = await db.selectFrom('request').selectAll().executeTakeFirstOrThrow();
    expect(row.message_sealed.toString('utf8')).not.toContain('staging');
    expect(row.token_sealed.toString('utf8')).not.toContain(made.urlToken);
    expect(row.state).toBe('open');
    expect(row.close_after_at.getTime() - row.created_at.getTime()).toBe(3 * 86_400_000);
    const view = await service.view(made.urlToken, OWNER);
    expect(view.message).toBe('Please send the staging database password');
    expect(view.note).toBe('ticket 42');
    await expect(service.view(made.urlToken, 'user:other')).rejects.toMatchObject({ name: 'NotOwner' });
    await expect(service.view('unknownTokenXYZ', OWNER)).rejects.toMatchObject({ name: 'RequestNotFound' });
  });

  test('an answer is a push owned by the requester; the owner gets its link; a second answer is refused', async () => {
    const made = await create({ includeRequestor: true });
    expect(made.snapshot.request.requestorEmail).toBe('owner@example.test');
    await service.respond(
      made.urlToken,
      { kind: 'text', payload: 'hunter2' },
      { kind: 'anonymous' },
      null,
      ctx,
    );
    const view = await service.view(made.urlToken, OWNER);
    expect(view.snapshot.request.state).toBe('answered');
    expect(view.answer?.urlToken).toMatch(/^[\w-]{20,}$/);
    const push = await db.selectFrom('push').selectAll().executeTakeFirstOrThrow();
    expect(push.owner).toBe(OWNER);
    expect(push.expire_after_views).toBe(1);
    expect(push.payload_sealed?.toString('utf8')).not.toContain('hunter2');
    await expect(
      service.respond(made.urlToken, { kind: 'text', payload: 'again' }, { kind: 'anonymous' }, null, ctx),
    ).rejects.toMatchObject({ name: 'RequestAlreadyAnswered' });
    expect(await db.selectFrom('push').select('id').execute()).toHaveLength(1);
  });

  test('parallel answers: exactly one is stored', async () => {
    const made = await create();
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        wideService.respond(
          made.urlToken,
          { kind: 'text', payload: `p${i}` },
          { kind: 'anonymous' },
          null,
          ctx,
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await db.selectFrom('push').select('id').execute()).toHaveLength(1);
  });

  test('close: closed_reason owner, audited, idempotent; a closed request is not found by responders', async () => {
    const made = await create();
    const closed = await service.close(made.urlToken, OWNER, ctx);
    expect(closed.snapshot.request).toMatchObject({ state: 'closed', closedReason: 'owner' });
    const again = await service.close(made.urlToken, OWNER, ctx);
    expect(again.snapshot.request.closedAt).toEqual(closed.snapshot.request.closedAt);
    await expect(service.responderView(made.urlToken, ctx)).rejects.toMatchObject({
      name: 'RequestNotFound',
    });
    const { entries } = await service.auditLog(made.urlToken, OWNER, 1);
    expect(entries.map((e) => e.kind)).toEqual(['creation', 'close']);
  });

  test('a request past its window is gone for the responder before the worker closes it', async () => {
    const made = await create();
    await sql`update request set close_after_at = now() - interval '1 second'`.execute(db);
    await expect(service.responderView(made.urlToken, ctx)).rejects.toMatchObject({
      name: 'RequestNotFound',
    });
    await expect(
      service.respond(made.urlToken, { kind: 'text', payload: 'x' }, { kind: 'anonymous' }, null, ctx),
    ).rejects.toMatchObject({ name: 'RequestNotFound' });
  });

  test('passphrase: wrong ones audited and limited, the right one answers', async () => {
    const made = await create({ passphrase: 'open sesame' });
    const respond = (p: string | null) =>
      service.respond(made.urlToken, { kind: 'text', payload: 's' }, { kind: 'anonymous' }, p, ctx);
    await expect(respond(null)).rejects.toMatchObject({ name: 'PassphraseRejected' });
    await expect(respond('wrong')).rejects.toMatchObject({ name: 'PassphraseRejected' });
    await expect(respond('open sesame')).resolves.toMatchObject({ request: { state: 'answered' } });
    const kinds = (await service.auditLog(made.urlToken, OWNER, 1)).entries.map((e) => e.kind);
    expect(kinds).toEqual(['creation', 'failed_passphrase', 'answer']);
  });

  test('users only: nobody and clients are refused (audited), people answer', async () => {
    const made = await create({ answerableBy: 'users' });
    const respond = (who: Parameters<RequestService['respond']>[2]) =>
      service.respond(made.urlToken, { kind: 'text', payload: 's' }, who, null, ctx);
    await expect(respond({ kind: 'anonymous' })).rejects.toMatchObject({ reason: 'user_required' });
    await expect(respond({ kind: 'client', id: 'client:x' })).rejects.toMatchObject({ reason: 'not_a_user' });
    await expect(respond({ kind: 'user', id: 'user:y', email: null })).resolves.toBeDefined();
  });

  test('lists by state, newest first; audit entries past the cap are counted', async () => {
    const a = await create({ name: 'a' });
    const b = await create({ name: 'b' });
    await service.close(a.urlToken, OWNER, ctx);
    expect((await service.list(OWNER, 'active', 1)).map((r) => r.snapshot.request.name)).toEqual(['b']);
    expect((await service.list(OWNER, 'closed', 1)).map((r) => r.snapshot.request.name)).toEqual(['a']);
    expect(await service.list('user:nobody', 'active', 1)).toEqual([]);
    for (let i = 0; i < 12; i++) await service.responderView(b.urlToken, ctx);
    const log = await service.auditLog(b.urlToken, OWNER, 1);
    expect(log.entries).toHaveLength(10);
    expect(log.dropped).toBe(3);
  });

  test('events only when listened to: an owner webhook endpoint for a request type, or notices with email', async () => {
    const quiet = await create();
    await service.close(quiet.urlToken, OWNER, ctx);
    expect(await db.selectFrom('push_event').selectAll().execute()).toHaveLength(0);
    const noticed = await create({ notifyOwnerOnAnswer: true });
    await service.respond(noticed.urlToken, { kind: 'text', payload: 's' }, { kind: 'anonymous' }, null, ctx);
    await sql`insert into webhook_endpoint (owner, url, event_types, key_id, secret_sealed)
      values (${OWNER}, 'https://hooks.example.test/', ${['request.closed']}::text[], 'k', '\\x00')`.execute(
      db,
    );
    const hooked = await create();
    await service.close(hooked.urlToken, OWNER, ctx);
    const events = await db.selectFrom('push_event').select(['kind', 'request_id', 'push_id']).execute();
    expect(
      events
        .filter((e) => e.request_id !== null)
        .map((e) => e.kind)
        .sort(),
    ).toEqual(['request_answered', 'request_closed']);
    expect(events.filter((e) => e.request_id !== null).every((e) => e.push_id === null)).toBe(true);
  });
});
