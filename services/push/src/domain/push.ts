import type { CreateEmailInput, EmailLocale, NoticeKind } from './email-rules';

export const PUSH_KINDS = ['text', 'url', 'qr', 'file'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

/** What the view rule looks at (see view-policy.ts). */
export interface ViewState {
  views: number;
  expireAfterViews: number;
  expiresAt: Date;
  expired: boolean;
  deleted: boolean;
}

export interface Push extends ViewState {
  id: string;
  kind: PushKind;
  /** `client:<id>` or `user:<id>`; null for anonymous pushes. */
  owner: string | null;
  name: string | null;
  expireAfterDays: number;
  expiredOn: Date | null;
  deletableByViewer: boolean | null;
  retrievalStep: boolean;
  passphraseProtected: boolean;
  /** Audit entries not recorded because the push reached its cap. */
  auditDropped: number;
  /** File pushes: when the files are due for purging (set when the push expires). */
  filesPurgeAfter: Date | null;
  /** The owner notices it sends (`notify_owner_on`); empty for most. */
  noticeOn: NoticeKind[];
  /** The language of its emails; null when it never involved email. */
  emailLocale: EmailLocale | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A push as read, with the database's clock at the time of the read: the only clock. */
export interface PushSnapshot {
  push: Push;
  now: Date;
}

export const AUDIT_KINDS = [
  'creation',
  'view',
  'failed_view',
  'failed_passphrase',
  'expire',
  'expire_by_views',
  'expire_by_time',
  'link_opened',
  'file_download',
  'view_refunded',
  'creation_email_send',
  /** Expired by the anonymous sender through the push's receipt (its private status link). */
  'expire_by_receipt',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** Who did it, as recorded in the audit log. */
export interface AuditContext {
  ip: string | null;
  userAgent: string;
  referrer: string;
}

export interface AuditEntry {
  /** The entry's id (its order in the log). */
  id: string;
  kind: AuditKind;
  ip: string | null;
  userAgent: string;
  referrer: string;
  createdAt: Date;
}

/** Validated input of a create (see http/push.schemas.ts). */
export interface NewPush {
  kind: PushKind;
  payload: string | null;
  ttlSeconds: number;
  expireAfterDays: number;
  expireAfterViews: number;
  deletableByViewer: boolean | null;
  retrievalStep: boolean;
  passphrase: string | null;
  name: string | null;
  note: string | null;
  /** Email fields (`notify_emails_to`, `notify_owner_on`, …); absent when none was sent. */
  email?: CreateEmailInput;
}

/** Lists (own pushes, audit entries) are paged by this many, newest push first. */
export const PAGE_SIZE = 50;
