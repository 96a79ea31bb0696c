import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { sql } from 'kysely';
import { KeyRing } from '@secret-push/key-ring';
import { type PushDatabase, pushMigrations } from '@secret-push/push';
import {
  REDIS_URL,
  deleteRedisKeys,
  freePort,
  freshDatabase,
  startMailCatcher,
  uniquePrefix,
} from '@secret-push/testing';
import { NODE_FLAGS } from './processes';
import type { BenchResult, Figure } from './report';

const N = Number(process.env.BENCH_EMAILS ?? 2000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (x: number) => Math.round(x * 100) / 100;

/**
 * One real worker process (`main-worker.js`, email on) sending `N` queued links (one push each:
 * the worker unseals each link's token and composes the email) to the local in-process SMTP
 * catcher: emails per second from the first accepted to the last, and all sent.
 */
export async function emailBenchmark(root: string): Promise<BenchResult> {
  const database = await freshDatabase<PushDatabase>('bench_email', pushMigrations);
  const catcher = await startMailCatcher();
  const prefix = uniquePrefix('bench');
  const keys = `bench:${randomBytes(32).toString('base64')}`;
  const ring = new KeyRing([{ id: 'bench', key: Buffer.from(keys.slice(6), 'base64') }]);
  let child: ChildProcess | undefined;
  try {
    console.log(`email: queueing ${N} links`);
    const ids = Array.from({ length: N }, () => crypto.randomUUID());
    for (let i = 0; i < N; i += 500) {
      const batch = ids.slice(i, i + 500);
      const sealed = batch.map((id) => ring.seal(randomBytes(16).toString('base64url'), `${id}|url_token`));
      await sql`
        insert into push (id, token_hash, token_sealed, key_id, kind, owner, payload_sealed, expire_after_days,
                          expire_after_views, expires_at, retrieval_step, audit_entries, email_locale)
        select u.id, sha256(convert_to(u.id::text, 'UTF8')), u.sealed, 'bench', 'text', 'client:bench', '\\x01',
               7, 5, now() + interval '7 days', true, 0, 'en'
        from unnest(${batch}::uuid[], ${sealed}::bytea[]) as u(id, sealed)`.execute(database.db);
    }
    await sql`
      insert into push_email_batch (id, push_id, owner, recipients, locale)
      select id, id, 'client:bench', array['r@example.org'], 'en' from push`.execute(database.db);
    await sql`
      insert into push_email (recipient, push_id, owner, purpose, locale, batch_id)
      select 'r' || row_number() over () || '@example.org', id, 'client:bench', 'push_link', 'en', id
      from push`.execute(database.db);
    await sql`analyze`.execute(database.db);
    const started = Date.now();
    child = spawn(process.execPath, [...NODE_FLAGS.worker, join(root, 'services/push/dist/main-worker.js')], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        PUSH_DATABASE_URL: database.url,
        PUSH_REDIS_URL: REDIS_URL,
        PUSH_REDIS_PREFIX: prefix,
        PUSH_WORKER_PORT: String(await freePort()),
        PUSH_SMTP_URL: catcher.url,
        PUSH_MAIL_FROM: 'bench <no-reply@example.org>',
        PUSH_ENCRYPTION_KEYS: keys,
        PUSH_PUBLIC_URL: 'https://push.example.org',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    while (catcher.messages.length < N && Date.now() - started < 300_000) await sleep(100);
    const first = catcher.messages[0]?.receivedAt.getTime() ?? started;
    const last = catcher.messages.at(-1)?.receivedAt.getTime() ?? Date.now();
    const { rows } = await sql<{ sent: number }>`
      select count(*) filter (where status = 'sent')::int as sent from push_email`.execute(database.db);
    const rate = catcher.messages.length / Math.max(0.001, (last - first) / 1000);
    const figures: Figure[] = [
      { name: 'emails sent per second (one worker, local SMTP)', value: round(rate), unit: '/s' },
      { name: 'first email after the worker started', value: round((first - started) / 1000), unit: 's' },
      {
        name: 'emails accepted by SMTP',
        value: catcher.messages.length,
        unit: `of ${N}`,
        pass: catcher.messages.length === N,
      },
      { name: 'rows recorded sent', value: rows[0]!.sent, unit: `of ${N}`, pass: rows[0]!.sent >= N - 50 },
    ];
    return {
      benchmark: 'Email sending',
      description: `${N} queued links, one real worker process (send-email job, default interval and batch of 50, 4 sends at a time) against the in-process SMTP catcher of packages/testing (no TLS, no network latency: an upper bound); worker Node flags \`${NODE_FLAGS.worker.join(' ')}\` (the pod's).`,
      figures,
    };
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await catcher.close();
    await database.drop();
    await deleteRedisKeys(REDIS_URL, prefix);
  }
}
