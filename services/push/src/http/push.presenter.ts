import type { AuditEntryWithEmail } from '../domain/push-emails';
import type { EmailDelivery } from '../domain/ports/email-store';
import type { NewPush, PushSnapshot } from '../domain/push';
import { pushLink } from '../domain/push-link';
import { daysRemaining, isEffectivelyExpired, viewsRemaining } from '../domain/view-policy';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The `html_url` (domain/push-link.ts: the emailed link is the same). */
export const htmlUrl = pushLink;

/**
 * The push object (the 17 keys Password Pusher's clients read). `expired` is true for a push past its window even before any
 * statement flagged it; counters use the database's clock of the same read.
 */
export function presentPush({ push, now }: PushSnapshot, urlToken: string, publicUrl: string) {
  return {
    url_token: urlToken,
    kind: push.kind,
    expire_after_days: push.expireAfterDays,
    expire_after_views: push.expireAfterViews,
    expired: isEffectivelyExpired(push, now),
    expired_on: iso(push.expiredOn),
    expires_at: push.expiresAt.toISOString(),
    deleted: push.deleted,
    deletable_by_viewer: push.deletableByViewer,
    retrieval_step: push.retrievalStep,
    passphrase_protected: push.passphraseProtected,
    days_remaining: daysRemaining(push, now),
    views_remaining: viewsRemaining(push),
    created_at: push.createdAt.toISOString(),
    updated_at: push.updatedAt.toISOString(),
    json_url: `${publicUrl}/api/v2/pushes/${urlToken}`,
    html_url: htmlUrl(publicUrl, urlToken, push.retrievalStep),
  };
}

/** Owner contexts (create response, lists) add name and note. */
export function presentOwnedPush(
  snapshot: PushSnapshot,
  urlToken: string,
  note: string | null,
  publicUrl: string,
) {
  const { noticeOn } = snapshot.push;
  return {
    ...presentPush(snapshot, urlToken, publicUrl),
    name: snapshot.push.name ?? '',
    note: note ?? '',
    // Only for a push that sends owner notices: the others keep Password Pusher's keys.
    ...(noticeOn.length > 0 ? { notify_owner_on: noticeOn } : {}),
  };
}

/** A create's email fields, echoed in its 201 when supplied (as Password Pusher does). */
export function presentEmailEcho(input: NewPush) {
  const send = input.email?.send;
  if (!send) return {};
  return {
    notify_emails_to: send.recipients.join(', '),
    ...(send.locale ? { notify_emails_to_locale: send.locale } : {}),
  };
}

export const presentDelivery = (d: EmailDelivery) => ({
  recipient: d.recipient,
  ...(d.purpose === 'push_link' ? {} : { purpose: d.purpose }),
  status: d.status,
  attempts: d.attempts,
  detail: d.detail,
  updated_at: d.updatedAt.toISOString(),
});

export function presentAuditEntry(e: AuditEntryWithEmail) {
  const n = e.notifyByEmail;
  return {
    kind: e.kind,
    ip: e.ip,
    user_agent: e.userAgent,
    referrer: e.referrer,
    created_at: e.createdAt.toISOString(),
    ...(n
      ? {
          notify_by_email: {
            recipients: n.recipients.join(','),
            locale: n.locale,
            status: n.status,
            successful_sends: n.successfulSends.join(','),
            error_message: n.errorMessage,
            proceed_at: n.proceedAt.toISOString(),
            recipients_count: n.recipientsCount,
          },
        }
      : {}),
    ...(e.emailDeliveries ? { email_deliveries: e.emailDeliveries.map(presentDelivery) } : {}),
  };
}
