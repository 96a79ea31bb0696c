/* eslint-disable @typescript-eslint/require-await -- an in-memory port answers at once; `async` keeps a throw a rejection, as with the real stores. */
import { randomBytes } from 'node:crypto';
import { TooManyAttempts } from '../../domain/errors';
import type { AttemptLimiter } from '../../domain/ports';
import type { AuditContext, NewPush, Push } from '../../domain/push';
import type { ExpiryReason, PushEvents } from '../../domain/push-events';
import { createPushService } from '../../domain/push-service';
import { createUserTokenService } from '../../domain/user-tokens';
import { KeyRing } from '../../security/key-ring';
import { type TestClock, createTestClock } from './in-memory-clock';
import { type InMemoryPushStore, createInMemoryPushStore } from './in-memory-push-store';
import { type InMemoryUserStore, createInMemoryUserStore } from './in-memory-user-store';

/*
 * The push domain wired over in-memory ports, as server.ts wires it over PostgreSQL: for fast
 * unit tests of the domain services (no database, no Redis). One clock for every store.
 */

/** What the services announced (the API's metrics listen to the same events). */
export interface RecordedEvents extends PushEvents {
  created: (push: Push) => void;
  log: { event: 'created' | 'viewed' | 'expired'; id: string; reason?: ExpiryReason }[];
}

export function recordEvents(): RecordedEvents {
  const log: RecordedEvents['log'] = [];
  return {
    log,
    created: (push) => void log.push({ event: 'created', id: push.id }),
    viewed: (push) => void log.push({ event: 'viewed', id: push.id }),
    expired: (push, reason) => void log.push({ event: 'expired', id: push.id, reason }),
  };
}

/** Counts attempts per push; refuses (TooManyAttempts) past `max`, as the Redis limiter does. */
export function countingLimiter(max = 1000): AttemptLimiter & { attempts: Map<string, number> } {
  const attempts = new Map<string, number>();
  return {
    attempts,
    async consume(pushKey) {
      const n = (attempts.get(pushKey) ?? 0) + 1;
      attempts.set(pushKey, n);
      if (n > max) throw new TooManyAttempts(60);
    },
  };
}

export const testCtx: AuditContext = { ip: '192.0.2.1', userAgent: 'unit-test', referrer: '' };

/** A text push's input, with the defaults of the API (1 view, 7 days). */
export const textPush = (over: Partial<NewPush> = {}): NewPush => ({
  kind: 'text',
  payload: 's3cret',
  ttlSeconds: 7 * 86_400,
  expireAfterDays: 7,
  expireAfterViews: 1,
  deletableByViewer: null,
  retrievalStep: false,
  passphrase: null,
  name: null,
  note: null,
  ...over,
});

export interface InMemoryDomain {
  clock: TestClock;
  store: InMemoryPushStore;
  userStore: InMemoryUserStore;
  events: RecordedEvents;
  limiter: ReturnType<typeof countingLimiter>;
  keyRing: KeyRing;
  pushes: ReturnType<typeof createPushService>;
  users: ReturnType<typeof createUserTokenService>;
}

export function createInMemoryDomain(
  options: { maxAuditEntries?: number; passphraseAttempts?: number; idempotencyTtlSeconds?: number } = {},
): InMemoryDomain {
  const clock = createTestClock();
  const store = createInMemoryPushStore(clock);
  const userStore = createInMemoryUserStore(clock);
  const events = recordEvents();
  const limiter = countingLimiter(options.passphraseAttempts);
  const keyRing = new KeyRing([{ id: 'k1', key: randomBytes(32) }]);
  const pushes = createPushService({
    store,
    keyRing,
    passphraseLimiter: limiter,
    events,
    maxAuditEntries: options.maxAuditEntries ?? 100,
    fileGraceSeconds: 300,
    ...(options.idempotencyTtlSeconds === undefined
      ? {}
      : { idempotencyTtlSeconds: options.idempotencyTtlSeconds }),
  });
  const users = createUserTokenService({ store: userStore });
  return { clock, store, userStore, events, limiter, keyRing, pushes, users };
}
