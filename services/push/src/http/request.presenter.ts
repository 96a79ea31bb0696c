import { pushLink } from '../domain/push-link';
import { answerDays, daysRemaining, type RequestAuditEntry, type RequestSnapshot } from '../domain/request';
import type { OwnedRequest, RequestFile, ResponderView } from '../domain/request-service';
import { DURATIONS } from './push.schemas';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The responder's page. */
export const requestHtmlUrl = (publicUrl: string, urlToken: string) => `${publicUrl}/respond/${urlToken}`;
export const requestJsonUrl = (publicUrl: string, urlToken: string) =>
  `${publicUrl}/api/v2/requests/${urlToken}.json`;

const presentFile = (f: RequestFile) => ({
  id: f.id,
  filename: f.filename,
  content_type: f.contentType,
  size: f.size,
});

/** RequestView: a request as its owner sees it (never the passphrase; the answer only as its push's link). */
export function presentRequest(owned: OwnedRequest, publicUrl: string) {
  const { request: r, now } = owned.snapshot;
  const a = owned.answer;
  return {
    url_token: owned.urlToken,
    html_url: requestHtmlUrl(publicUrl, owned.urlToken),
    json_url: requestJsonUrl(publicUrl, owned.urlToken),
    state: r.state,
    request: owned.message,
    name: r.name ?? '',
    note: owned.note ?? '',
    passphrase: r.passphraseProtected,
    response_file_attachments: r.responseFileAttachments,
    include_requestor: r.includeRequestor,
    answerable_by: r.answerableBy,
    answerable_emails: r.answerableEmails,
    close_after_duration: r.window.closeAfterDuration,
    expire_after_days: r.window.expireAfterDays,
    expire_after_duration: r.window.expireAfterDuration,
    close_after_at: r.closeAfterAt.toISOString(),
    days_remaining: daysRemaining(r, now),
    expire_after_views: r.answer.expireAfterViews,
    retrieval_step: r.answer.retrievalStep,
    deletable_by_viewer: r.answer.deletableByViewer,
    answer_expire_after_days: answerDays(r.answer, DURATIONS),
    notify_owner_on_answer: r.notifyOwnerOnAnswer,
    files: owned.files.map(presentFile),
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
    answered_at: iso(r.answeredAt),
    closed_at: iso(r.closedAt),
    closed_reason: r.closedReason,
    answer: a
      ? {
          url_token: a.urlToken,
          html_url: pushLink(publicUrl, a.urlToken, a.retrievalStep),
          json_url: `${publicUrl}/api/v2/pushes/${a.urlToken}.json`,
          answered_at: iso(r.answeredAt),
          files: a.files,
        }
      : null,
  };
}

/** Upload limits the responder's client may check before sending. */
export interface AnswerLimitsView {
  max_payload_bytes: number;
  max_files: number;
  max_file_bytes: number;
  max_total_bytes: number;
}

/** ResponderView: what the responder sees (the message, who asks when they chose to say, the limits). */
export function presentResponderView(view: ResponderView, limits: AnswerLimitsView) {
  const { request: r } = view.snapshot;
  return {
    request: view.message,
    requestor: r.includeRequestor ? r.requestorEmail : null,
    passphrase_required: r.passphraseProtected,
    response_file_attachments: r.responseFileAttachments,
    answerable_by: r.answerableBy,
    close_after_at: r.closeAfterAt.toISOString(),
    files: view.files.map((f) => ({
      ...presentFile(f),
      downloads_left: Math.max(0, r.attachmentDownloads - f.downloads),
    })),
    limits,
  };
}

export const presentAnswered = ({ request }: RequestSnapshot) => ({
  state: request.state,
  answered_at: iso(request.answeredAt),
});

export const presentRequestAuditEntry = (e: RequestAuditEntry) => ({
  kind: e.kind,
  ip: e.ip,
  user_agent: e.userAgent,
  referrer: e.referrer,
  created_at: e.createdAt.toISOString(),
});
