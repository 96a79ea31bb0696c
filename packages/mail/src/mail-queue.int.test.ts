import { type Kysely, sql } from 'kysely';
import { type MailCatcher, type TestDatabase, freshDatabase, startMailCatcher } from '@secret-push/testing';
import { createSmtpMailer } from './mailer';
import { type MailQueueRow, deliverDue, leaseDue, mailQueueColumns, mailQueueIndex } from './mail-queue';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;
interface Row extends MailQueueRow {
  body: string;
}

let t: TestDatabase<unknown>;
let db: AnyDb;
let catcher: MailCatcher;
const TABLE = 'test_mail';

beforeAll(async () => {
  t = await freshDatabase('mailqueue', {
    '0001': {
      up: async (d: AnyDb) => {
        await sql.raw(`create table ${TABLE} (${mailQueueColumns}, body text not null)`).execute(d);
        await sql.raw(mailQueueIndex(TABLE)).execute(d);
      },
    },
  });
  db = t.db as AnyDb;
  catcher = await startMailCatcher();
});
afterAll(async () => {
  await catcher.close();
  await t.drop();
});
beforeEach(async () => {
  catcher.clear();
  await sql`truncate ${sql.table(TABLE)}`.execute(db);
});

const enqueue = async (recipient: string, body = 'hello') => {
  const row = await db
    .insertInto(TABLE)
    .values({ recipient, body })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id as string;
};
const rowOf = async (id: string) =>
  (await db.selectFrom(TABLE).selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as Row;

function round(options: { schedule?: number[]; leaseSeconds?: number } = {}) {
  const mailer = createSmtpMailer({
    url: catcher.url,
    from: 'x <no-reply@example.org>',
    replyTo: null,
    timeoutMs: 5000,
  });
  return deliverDue<Row>({
    db,
    table: TABLE,
    mailer,
    messageIdDomain: 'example.org',
    compose: (r) =>
      Promise.resolve(
        r.body === 'cancel'
          ? { cancel: 'no longer wanted' }
          : { mail: { to: r.recipient, subject: 's', text: r.body, html: `<p>${r.body}</p>` } },
      ),
    limit: 10,
    leaseSeconds: options.leaseSeconds ?? 60,
    schedule: options.schedule,
  }).finally(() => mailer.close());
}

test('sent: the server reply is kept, the Message-ID is the row id', async () => {
  const id = await enqueue('a@example.org');
  expect(await round()).toEqual({ sent: 1, deferred: 0, failed: 0 });
  const row = await rowOf(id);
  expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
  expect(row.smtp_response).toContain('250');
  expect(catcher.messages[0]!.messageId).toBe(`<${id}@example.org>`);
});

test('a temporary failure is deferred, retried with the same Message-ID, then sent', async () => {
  const id = await enqueue('b@example.org');
  catcher.fail({ code: 451, message: 'greylisted' });
  expect(await round({ schedule: [1] })).toEqual({ sent: 0, deferred: 1, failed: 0 });
  expect(await rowOf(id)).toMatchObject({
    status: 'deferred',
    attempts: 1,
    last_error: expect.stringContaining('greylisted'),
  });
  expect(await round({ schedule: [1] })).toEqual({ sent: 0, deferred: 0, failed: 0 }); // not due yet
  await sql`update ${sql.table(TABLE)} set next_attempt_at = now()`.execute(db);
  expect(await round({ schedule: [1] })).toEqual({ sent: 1, deferred: 0, failed: 0 });
  expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 2 });
});

test('a permanent failure, a spent schedule and a cancelled message are final', async () => {
  const perm = await enqueue('c@example.org');
  catcher.fail({ code: 550, message: 'no such user' });
  await round();
  expect(await rowOf(perm)).toMatchObject({
    status: 'failed',
    last_error: expect.stringContaining('no such user'),
  });

  const spent = await enqueue('d@example.org');
  catcher.fail({ code: 421, message: 'busy' });
  await round({ schedule: [] });
  expect(await rowOf(spent)).toMatchObject({
    status: 'failed',
    last_error: expect.stringContaining('gave up after 1'),
  });

  const cancelled = await enqueue('e@example.org', 'cancel');
  await round();
  expect(await rowOf(cancelled)).toMatchObject({ status: 'failed', last_error: 'no longer wanted' });
  expect(catcher.messages).toHaveLength(0);
});

test('a sender that dies holding a lease loses nothing: the lease runs out and the message is due again', async () => {
  const id = await enqueue('f@example.org');
  const leased = await leaseDue<Row>(db, TABLE, { limit: 10, leaseSeconds: 60 });
  expect(leased.map((r) => r.id)).toEqual([id]);
  expect(await leaseDue(db, TABLE, { limit: 10, leaseSeconds: 60 })).toEqual([]); // held
  await sql`update ${sql.table(TABLE)} set next_attempt_at = now() - interval '1 second'`.execute(db);
  expect(await round()).toEqual({ sent: 1, deferred: 0, failed: 0 });
  expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 2 });
});

test('concurrent senders never take the same message twice', async () => {
  const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => enqueue(`g${i}@example.org`)));
  const rounds = await Promise.all(
    Array.from({ length: 4 }, () => leaseDue<Row>(db, TABLE, { limit: 15, leaseSeconds: 60 })),
  );
  const taken = rounds.flat().map((r) => r.id);
  expect(new Set(taken).size).toBe(taken.length);
  expect(taken.sort()).toEqual([...ids].sort());
});
