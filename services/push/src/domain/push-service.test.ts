import { ANONYMOUS, type Actor } from './create-policy';
import {
  DomainError,
  IdempotencyKeyReused,
  MissingScope,
  NotDeletable,
  NotOwner,
  PassphraseRejected,
  PushNotFound,
  TooManyAttempts,
  ViewNotDelivered,
} from './errors';
import type { NewPush } from './push';
import type { CreateKey } from './push-service';
import {
  type InMemoryDomain,
  createInMemoryDomain,
  testCtx as ctx,
  textPush,
} from '../test/support/in-memory-domain';

// PushService over in-memory ports (test/support/in-memory-*.ts): the use cases' behaviour, fast.
// The same service over PostgreSQL is covered by the integration tier (test/api-*.int.test.ts).

let d: InMemoryDomain;
beforeEach(() => {
  d = createInMemoryDomain({ maxAuditEntries: 10, passphraseAttempts: 5 });
});

const DAY = 86_400_000;
const create = (input: NewPush = textPush(), owner: string | null = null, key?: CreateKey) =>
  d.pushes.create(input, { owner, audit: ctx, ...(key && { idempotency: key }) });
const kinds = (pushId: string) => d.store.auditOf(pushId).map((e) => e.kind);
const writer = (id: string): Actor => ({
  kind: 'token',
  id,
  scopes: new Set(['pushes:read', 'pushes:write']),
});
const session = (id: string): Actor => ({ kind: 'session', id });

describe('create', () => {
  it('stores the push with a fresh link, audited and announced', async () => {
    const created = await create(textPush({ note: 'for Ana', name: 'db' }), 'client:a');
    expect(created.urlToken).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(created.replayed).toBe(false);
    expect(created.note).toBe('for Ana');
    expect(created.snapshot.push).toMatchObject({ owner: 'client:a', name: 'db', views: 0, expired: false });
    expect(created.snapshot.push.expiresAt.getTime() - created.snapshot.now.getTime()).toBe(7 * DAY);
    expect(kinds(created.snapshot.push.id)).toEqual(['creation']);
    expect(d.events.log).toEqual([{ event: 'created', id: created.snapshot.push.id }]);
  });

  it('keeps secrets only sealed: the stored payload is not the plaintext', async () => {
    const { snapshot } = await create(textPush({ payload: 'plain-text-secret' }));
    const row = d.store.rowOf(snapshot.push.id)!;
    expect(row.payloadSealed!.toString('utf8')).not.toContain('plain-text-secret');
  });
});

describe('retrieve', () => {
  it('gives the payload for each allowed view, then refuses: the last view expires and wipes it', async () => {
    const { urlToken, snapshot } = await create(textPush({ expireAfterViews: 2 }));
    const id = snapshot.push.id;
    expect(await d.pushes.retrieve(urlToken, undefined, ctx)).toMatchObject({
      outcome: 'viewed',
      payload: 's3cret',
    });
    const last = await d.pushes.retrieve(urlToken, undefined, ctx);
    expect(last).toMatchObject({ outcome: 'viewed', payload: 's3cret' });
    expect(last.snapshot.push).toMatchObject({ views: 2, expired: true });
    expect(d.store.rowOf(id)).toMatchObject({ payloadSealed: null, noteSealed: null });
    const after = await d.pushes.retrieve(urlToken, undefined, ctx);
    expect(after).toEqual({ outcome: 'expired', snapshot: expect.anything() });
    expect(kinds(id)).toEqual(['creation', 'view', 'view', 'expire_by_views', 'failed_view']);
    expect(d.events.log.map((e) => e.reason ?? e.event)).toEqual(['created', 'viewed', 'viewed', 'views']);
  });

  it('refuses a push past its window (half-open: at the instant itself) and expires it by time', async () => {
    const { urlToken, snapshot } = await create(textPush({ expireAfterViews: 5, ttlSeconds: 3600 }));
    d.clock.advance(3600_000 - 1);
    expect((await d.pushes.retrieve(urlToken, undefined, ctx)).outcome).toBe('viewed');
    d.clock.advance(1);
    const refused = await d.pushes.retrieve(urlToken, undefined, ctx);
    expect(refused.outcome).toBe('expired');
    expect(refused.snapshot.push).toMatchObject({ expired: true, views: 1 });
    expect(kinds(snapshot.push.id)).toEqual(['creation', 'view', 'expire_by_time', 'failed_view']);
    expect(d.events.log.at(-1)).toEqual({ event: 'expired', id: snapshot.push.id, reason: 'time' });
  });

  it('knows no unknown or malformed link', async () => {
    await expect(d.pushes.retrieve('x'.repeat(43), undefined, ctx)).rejects.toBeInstanceOf(PushNotFound);
    await expect(d.pushes.retrieve('../etc', undefined, ctx)).rejects.toBeInstanceOf(PushNotFound);
  });

  it('refunds a view it could not deliver: nothing is spent unseen', async () => {
    const { urlToken, snapshot } = await create();
    const id = snapshot.push.id;
    d.store.rowOf(id)!.payloadSealed = Buffer.alloc(40); // cannot be opened
    await expect(d.pushes.retrieve(urlToken, undefined, ctx)).rejects.toBeInstanceOf(ViewNotDelivered);
    expect(d.store.rowOf(id)!.push).toMatchObject({ views: 0, expired: false, expiredOn: null });
    expect(d.store.rowOf(id)!.payloadSealed).toEqual(Buffer.alloc(40));
    expect(kinds(id)).toEqual(['creation', 'view_refunded']);
    expect(d.events.log.map((e) => e.event)).toEqual(['created']);
  });
});

describe('a passphrase', () => {
  const protectedPush = () => create(textPush({ passphrase: 'open sesame', expireAfterViews: 2 }));

  it('is needed: without it or with a wrong one, no view is counted and the attempt is audited', async () => {
    const { urlToken, snapshot } = await protectedPush();
    await expect(d.pushes.retrieve(urlToken, undefined, ctx)).rejects.toBeInstanceOf(PassphraseRejected);
    await expect(d.pushes.retrieve(urlToken, 'wrong', ctx)).rejects.toBeInstanceOf(PassphraseRejected);
    expect(d.store.rowOf(snapshot.push.id)!.push.views).toBe(0);
    expect(kinds(snapshot.push.id)).toEqual(['creation', 'failed_passphrase', 'failed_passphrase']);
    const viewed = await d.pushes.retrieve(urlToken, 'open sesame', ctx);
    expect(viewed).toMatchObject({ outcome: 'viewed', payload: 's3cret' });
  });

  it('is guessed a bounded number of times per push', async () => {
    const { urlToken } = await protectedPush();
    for (let i = 0; i < 5; i++) {
      await expect(d.pushes.retrieve(urlToken, `guess ${i}`, ctx)).rejects.toBeInstanceOf(PassphraseRejected);
    }
    await expect(d.pushes.retrieve(urlToken, 'open sesame', ctx)).rejects.toBeInstanceOf(TooManyAttempts);
  });

  it('does not matter once the push is expired: it is refused as expired', async () => {
    const { urlToken } = await protectedPush();
    d.clock.advance(8 * DAY);
    expect((await d.pushes.retrieve(urlToken, 'open sesame', ctx)).outcome).toBe('expired');
  });
});

describe('open and preview', () => {
  it('open counts no view and audits the opening; preview neither', async () => {
    const { urlToken, snapshot } = await create();
    expect((await d.pushes.open(urlToken, ctx)).push.views).toBe(0);
    expect((await d.pushes.preview(urlToken)).push.views).toBe(0);
    expect(kinds(snapshot.push.id)).toEqual(['creation', 'link_opened']);
    expect((await d.pushes.retrieve(urlToken, undefined, ctx)).outcome).toBe('viewed');
    expect((await d.pushes.preview(urlToken)).push.expired).toBe(true);
  });
});

describe('the audit log', () => {
  it('is its owner’s alone', async () => {
    const { urlToken } = await create(textPush(), 'client:a');
    expect((await d.pushes.auditLog(urlToken, 'client:a', 1)).entries.map((e) => e.kind)).toEqual([
      'creation',
    ]);
    await expect(d.pushes.auditLog(urlToken, 'client:b', 1)).rejects.toBeInstanceOf(NotOwner);
  });

  it('caps noise entries and counts what it drops; failed passphrases are always kept', async () => {
    d = createInMemoryDomain({ maxAuditEntries: 3 });
    const { urlToken, snapshot } = await create(
      textPush({ passphrase: 'pw', expireAfterViews: 9 }),
      'client:a',
    );
    for (let i = 0; i < 3; i++) await d.pushes.open(urlToken, ctx);
    await expect(d.pushes.retrieve(urlToken, 'bad', ctx)).rejects.toBeInstanceOf(PassphraseRejected);
    const log = await d.pushes.auditLog(urlToken, 'client:a', 1);
    expect(log.entries.map((e) => e.kind)).toEqual([
      'creation',
      'link_opened',
      'link_opened',
      'failed_passphrase',
    ]);
    expect(log.dropped).toBe(1);
    expect(d.store.rowOf(snapshot.push.id)!.push.auditDropped).toBe(1);
  });
});

describe('expire (DELETE)', () => {
  it('lets the owner with pushes:write expire and delete the push, once', async () => {
    const { urlToken, snapshot } = await create(textPush(), 'client:a');
    const expired = await d.pushes.expire(urlToken, writer('client:a'), ctx);
    expect(expired.push).toMatchObject({ expired: true, deleted: true });
    expect(d.store.rowOf(snapshot.push.id)!.payloadSealed).toBeNull();
    const again = await d.pushes.expire(urlToken, writer('client:a'), ctx);
    expect(again.push.expired).toBe(true);
    expect(kinds(snapshot.push.id)).toEqual(['creation', 'expire']);
    expect(d.events.log.at(-1)).toMatchObject({ event: 'expired', reason: 'manual' });
  });

  it('tells the owner without pushes:write which scope is missing, and refuses everybody else', async () => {
    const { urlToken } = await create(textPush(), 'client:a');
    const reader: Actor = { kind: 'token', id: 'client:a', scopes: new Set(['pushes:read']) };
    const refused = d.pushes.expire(urlToken, reader, ctx);
    await expect(refused).rejects.toBeInstanceOf(MissingScope);
    await expect(refused).rejects.toBeInstanceOf(DomainError);
    await expect(refused).rejects.toMatchObject({ scope: 'pushes:write' });
    await expect(d.pushes.expire(urlToken, writer('client:b'), ctx)).rejects.toMatchObject({
      authenticated: true,
    });
    await expect(d.pushes.expire(urlToken, session('user:b'), ctx)).rejects.toMatchObject({
      authenticated: true,
    });
    const nobody = d.pushes.expire(urlToken, ANONYMOUS, ctx);
    await expect(nobody).rejects.toBeInstanceOf(NotDeletable);
    await expect(nobody).rejects.toMatchObject({ authenticated: false });
    expect(d.store.all()[0]).toMatchObject({ expired: false, deleted: false });
  });

  it("lets the owner's session expire the push (a session holds every scope)", async () => {
    const { urlToken, snapshot } = await create(textPush(), 'user:u');
    const expired = await d.pushes.expire(urlToken, session('user:u'), ctx);
    expect(expired.push).toMatchObject({ expired: true, deleted: true });
    expect(kinds(snapshot.push.id)).toEqual(['creation', 'expire']);
  });

  it('lets anyone expire a push deletable by its viewer', async () => {
    const { urlToken } = await create(textPush({ deletableByViewer: true }), 'client:a');
    expect((await d.pushes.expire(urlToken, ANONYMOUS, ctx)).push.deleted).toBe(true);
  });
});

describe('lists', () => {
  it('show an owner’s active and expired pushes, newest first, with their links and notes', async () => {
    const first = await create(textPush({ note: 'one' }), 'user:u');
    d.clock.advance(1000);
    const second = await create(textPush({ note: 'two' }), 'user:u');
    await create(textPush(), 'user:other');
    await d.pushes.retrieve(first.urlToken, undefined, ctx);
    const active = await d.pushes.list('user:u', 'active', 1);
    expect(active.map((p) => [p.urlToken, p.note])).toEqual([[second.urlToken, 'two']]);
    const expired = await d.pushes.list('user:u', 'expired', 1);
    expect(expired.map((p) => p.snapshot.push.id)).toEqual([first.snapshot.push.id]);
    expect(expired[0]!.note).toBeNull(); // wiped by the last view
  });

  it('expireAllOwnedBy expires every active push of the owner and counts them', async () => {
    await create(textPush(), 'user:u');
    await create(textPush(), 'user:u');
    const other = await create(textPush(), 'user:v');
    expect(await d.pushes.expireAllOwnedBy('user:u', ctx)).toBe(2);
    expect(await d.pushes.expireAllOwnedBy('user:u', ctx)).toBe(0);
    expect(await d.pushes.list('user:u', 'active', 1)).toEqual([]);
    expect((await d.pushes.preview(other.urlToken)).push.expired).toBe(false);
  });
});

describe('an Idempotency-Key', () => {
  const key = (k = 'key-1', scope = 'client:a'): CreateKey => ({ scope, key: k });

  it('replays the same request: the same push, as it is now, nothing created', async () => {
    const first = await create(textPush(), 'client:a', key());
    await d.pushes.retrieve(first.urlToken, undefined, ctx);
    const again = await create(textPush(), 'client:a', key());
    expect(again).toMatchObject({ replayed: true, urlToken: first.urlToken });
    expect(again.snapshot.push).toMatchObject({ id: first.snapshot.push.id, expired: true });
    expect(d.store.all()).toHaveLength(1);
  });

  it('refuses another request under the same key, and keeps keys of different scopes apart', async () => {
    await create(textPush(), 'client:a', key());
    await expect(create(textPush({ payload: 'other' }), 'client:a', key())).rejects.toBeInstanceOf(
      IdempotencyKeyReused,
    );
    const elsewhere = await create(textPush(), 'client:b', key('key-1', 'client:b'));
    expect(elsewhere.replayed).toBe(false);
  });

  it('is forgotten after its lifetime: the next create with it makes a new push', async () => {
    d = createInMemoryDomain({ idempotencyTtlSeconds: 60 });
    const first = await create(textPush(), 'client:a', key());
    d.clock.advance(61_000);
    const later = await create(textPush(), 'client:a', key());
    expect(later.replayed).toBe(false);
    expect(later.snapshot.push.id).not.toBe(first.snapshot.push.id);
  });
});
