import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { createLogger } from './index';

// A real ioredis reply error: the local Redis (127.0.0.1:6379), under this file's own key prefix.
// The package cannot depend on @secret-push/testing: its helpers are repeated here.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `t:logger:${randomBytes(5).toString('hex')}:`;

const TOKENS = {
  refresh_token: `rt-${randomBytes(12).toString('hex')}`,
  id_token: `eyJ.${randomBytes(12).toString('hex')}.sig`,
  access_token: `at-${randomBytes(12).toString('hex')}`,
  csrf: `csrf-${randomBytes(12).toString('hex')}`,
};
const SESSION = JSON.stringify({ userId: 'u1', ...TOKENS, checkedAt: 1 });

function capture() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString('utf8'));
      cb();
    },
  });
  return {
    stream,
    text: () => chunks.join(''),
    records: () =>
      chunks
        .join('')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

let redis: Redis;
beforeAll(() => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  await redis.del(`${PREFIX}session`);
  redis.disconnect();
});

/** A session write that Redis refuses (WRONGTYPE): ioredis hangs the command's args on the error. */
async function replyErrorOfASessionWrite(): Promise<Error> {
  await redis.sadd(`${PREFIX}session`, 'a set, not a string');
  const err = await redis.append(`${PREFIX}session`, SESSION).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  if (!err) throw new Error('Redis accepted the write');
  return err;
}

it('logs a real ioredis reply error, bare and wrapped, without the session it carried', async () => {
  const replyError = await replyErrorOfASessionWrite();
  // What the driver does, so that the test fails if it ever stops leaking on its own:
  expect(replyError.name).toBe('ReplyError');
  expect(JSON.stringify((replyError as { command?: unknown }).command)).toContain(TOKENS.refresh_token);

  const wrapped = new Error('the session store did not answer', { cause: replyError });
  const dependency = Object.assign(new Error('dependency unavailable: redis', { cause: wrapped }), {
    code: 'dependency_unavailable',
  });
  const out = capture();
  const logger = createLogger({ name: 'push', level: 'info' }, out.stream);
  logger.warn({ err: replyError }, 'web session not saved');
  logger.error({ err: dependency, request_id: 'r1' }, 'unhandled error');
  logger.error(new AggregateError([replyError], 'every replica failed'));

  const [bare, chain, aggregate] = out.records() as {
    err: {
      type: string;
      message: string;
      stack: string;
      cause?: { cause?: { type: string; message: string } };
    };
    errors?: unknown;
  }[];
  expect(bare!.err).toMatchObject({ type: 'ReplyError', message: expect.stringContaining('WRONGTYPE') });
  expect(bare!.err.stack).toContain('WRONGTYPE');
  expect(chain!.err).toMatchObject({
    message: 'dependency unavailable: redis',
    code: 'dependency_unavailable',
    cause: {
      message: 'the session store did not answer',
      cause: { type: 'ReplyError', message: expect.stringContaining('WRONGTYPE') },
    },
  });
  expect(aggregate!.err).toMatchObject({ type: 'AggregateError', errors: [{ type: 'ReplyError' }] });
  const text = out.text();
  for (const token of Object.values(TOKENS)) expect(text).not.toContain(token);
  expect(text).not.toContain('checkedAt');
});
