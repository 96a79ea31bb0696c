import type { NoticeKind } from './email-rules';
import type { EventKind, OutboxConsumer, OutboxEvent } from './outbox';
import type { EmailStore, NewNotice } from './ports/email-store';

/** At most one `failed_passphrase` notice per push in this many seconds (guesses come in bursts). */
export const FAILED_PASSPHRASE_QUIET_SECONDS = 600;

const EXPIRIES: readonly EventKind[] = ['expire', 'expire_by_time', 'expire_by_views', 'expire_by_receipt'];

/**
 * The notice an event is worth for a push that asked for these notices, if any: `view` → viewed;
 * `failed_passphrase` → failed_passphrase; an expiry (by hand, time or views) with no view counted →
 * expired_unseen.
 */
export function noticeFor(
  kind: EventKind,
  push: { noticeOn: readonly NoticeKind[]; views: number },
): NewNotice['purpose'] | null {
  const asked = (k: NoticeKind) => push.noticeOn.includes(k);
  if (kind === 'view' && asked('view')) return 'notice_viewed';
  if (kind === 'failed_passphrase' && asked('failed_passphrase')) return 'notice_failed_passphrase';
  if (EXPIRIES.includes(kind) && asked('expired_unseen') && push.views === 0) return 'notice_expired_unseen';
  return null;
}

/**
 * Owner notices, an outbox consumer: for each event a push's owner asked to hear about, one email
 * queued to the owner's verified address (none when the address is missing or unverified:
 * `onSkipped`). Idempotent by event id: the queue's key (event, purpose, recipient) takes an event
 * seen twice once.
 */
export function ownerNoticesConsumer(deps: {
  store: EmailStore;
  onSkipped?(count: number): void;
}): OutboxConsumer {
  return {
    name: 'owner-notices',
    async accept(events: readonly OutboxEvent[]) {
      const targets = await deps.store.noticeTargets([
        ...new Set(events.flatMap((e) => (e.pushId ? [e.pushId] : []))),
      ]);
      const byPush = new Map(targets.map((t) => [t.pushId, t]));
      const notices: NewNotice[] = [];
      for (const e of events) {
        const push = e.pushId ? byPush.get(e.pushId) : undefined;
        const purpose = push && noticeFor(e.kind, push);
        if (push && purpose) {
          notices.push({ eventId: e.id, pushId: push.pushId, auditId: e.auditId, purpose });
        }
      }
      if (notices.length === 0) return;
      const { skipped } = await deps.store.queueNotices(notices, {
        failedPassphraseQuietSeconds: FAILED_PASSPHRASE_QUIET_SECONDS,
      });
      if (skipped > 0) deps.onSkipped?.(skipped);
    },
  };
}
