/* eslint-disable @typescript-eslint/require-await -- an in-memory port answers at once; `async` keeps a throw a rejection, as with the real stores. */
import { randomBytes } from 'node:crypto';
import { TooManyAttempts } from '../../domain/errors';
import type { AttemptLimiter } from '../../domain/ports/attempt-limiter';
import type { AuditContext, NewPush, Push } from '../../domain/push';
import type { ExpiryReason, PushEvents } from '../../domain/push-events';
import { type FileService, createFileService } from '../../domain/file-service';
import { createPushService } from '../../domain/push-service';
import { createUserTokenService } from '../../domain/user-tokens';
import { DownloadLinkSigner } from '../../security/download-link';
import { KeyRing } from '@secret-push/key-ring';
import { type TestClock, createTestClock } from './in-memory-clock';
import { createInMemoryFileStore } from './in-memory-file-store';
import { type InMemoryObjectStore, createInMemoryObjectStore } from './in-memory-object-store';
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
  /** File pushes (FileStore over the same tables, an in-memory object store). */
  files: FileService;
  fileStore: ReturnType<typeof createInMemoryFileStore>;
  objects: InMemoryObjectStore;
}

/** File links stay valid this long after a file push's last view (PUSH_FILE_GRACE_SECONDS). */
export const FILE_GRACE_SECONDS = 300;
/** Downloads of one file under one view (PUSH_FILE_DOWNLOADS_PER_VIEW). */
export const DOWNLOADS_PER_VIEW = 2;

export function createInMemoryDomain(
  options: { maxAuditEntries?: number; passphraseAttempts?: number; idempotencyTtlSeconds?: number } = {},
): InMemoryDomain {
  // Starts at the wall clock's now: download links are checked against Date.now() (security/download-link.ts).
  const clock = createTestClock(new Date());
  const store = createInMemoryPushStore(clock);
  const userStore = createInMemoryUserStore(clock);
  const events = recordEvents();
  const limiter = countingLimiter(options.passphraseAttempts);
  const ringKeys = [{ id: 'k1', key: randomBytes(32) }];
  const keyRing = new KeyRing(ringKeys);
  const maxAuditEntries = options.maxAuditEntries ?? 100;
  const fileStore = createInMemoryFileStore(clock, store.tables);
  const objects = createInMemoryObjectStore();
  const files = createFileService({
    files: fileStore,
    pushes: store,
    keyRing,
    store: objects,
    signer: new DownloadLinkSigner(ringKeys),
    publicUrl: 'https://push.example',
    graceSeconds: FILE_GRACE_SECONDS,
    downloadsPerView: DOWNLOADS_PER_VIEW,
    maxAuditEntries,
  });
  const pushes = createPushService({
    store,
    keyRing,
    passphraseLimiter: limiter,
    events,
    maxAuditEntries,
    files,
    fileGraceSeconds: FILE_GRACE_SECONDS,
    ...(options.idempotencyTtlSeconds === undefined
      ? {}
      : { idempotencyTtlSeconds: options.idempotencyTtlSeconds }),
  });
  const users = createUserTokenService({ store: userStore });
  return { clock, store, userStore, events, limiter, keyRing, pushes, users, files, fileStore, objects };
}
