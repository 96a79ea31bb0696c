import { type Kysely, sql } from 'kysely';
import type { AnswerPushRef, StoredRequest } from '../../domain/ports/request-store';
import type { SecretRequest } from '../../domain/request';
import type { PushDatabase } from '../database';
import type { RequestRow } from '../request.table';

/** A request row with the database's clock of its read. */
export type RequestRowWithNow = RequestRow & { db_now: Date };

/** The answer push's columns, joined to a request row (null without an answer push). */
export interface AnswerColumns {
  answer_key_id: string | null;
  answer_token_sealed: Buffer | null;
  answer_retrieval_step_of_push: boolean | null;
  answer_files: string | number | null;
}

/** A row in the domain's terms. */
export function toRequest(row: RequestRow): SecretRequest {
  return {
    id: row.id,
    owner: row.owner,
    state: row.state,
    name: row.name,
    passphraseProtected: row.passphrase_hash !== null,
    responseFileAttachments: row.response_file_attachments,
    includeRequestor: row.include_requestor,
    requestorEmail: row.requestor_email,
    answerableBy: row.answerable_by,
    answerableEmails: row.answerable_emails,
    closeAfterAt: row.close_after_at,
    window: {
      closeAfterDuration: row.close_after_duration,
      expireAfterDays: row.expire_after_days,
      expireAfterDuration: row.expire_after_duration,
    },
    answer: {
      expireAfterViews: row.answer_expire_after_views,
      expireAfterDays: row.answer_expire_after_days,
      expireAfterDuration: row.answer_expire_after_duration,
      retrievalStep: row.answer_retrieval_step,
      deletableByViewer: row.answer_deletable_by_viewer,
    },
    answerPushId: row.answer_push_id,
    notifyOwnerOnAnswer: row.notify_owner_on_answer,
    emailLocale: row.email_locale,
    attachmentDownloads: row.attachment_downloads_allowed,
    auditDropped: row.audit_dropped,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    answeredAt: row.answered_at,
    closedAt: row.closed_at,
    closedReason: row.closed_reason,
  };
}

function answerPushOf(row: RequestRow & AnswerColumns): AnswerPushRef | null {
  if (!row.answer_push_id || !row.answer_key_id || !row.answer_token_sealed) return null;
  return {
    id: row.answer_push_id,
    keyId: row.answer_key_id,
    tokenSealed: row.answer_token_sealed,
    retrievalStep: row.answer_retrieval_step_of_push ?? false,
    files: Number(row.answer_files ?? 0),
  };
}

/** A row with its sealed secrets and its answer push, read at `now`. */
export const storedRequest = (row: RequestRow & AnswerColumns, now: Date): StoredRequest => ({
  request: toRequest(row),
  now,
  secrets: {
    keyId: row.key_id,
    tokenSealed: row.token_sealed,
    messageSealed: row.message_sealed,
    noteSealed: row.note_sealed,
    passphraseHash: row.passphrase_hash,
  },
  answerPush: answerPushOf(row),
});

/** `select r.*, <answer columns>, now() as db_now from request r …` (the caller adds the where). */
export const selectStored = (db: Kysely<PushDatabase>) =>
  db
    .selectFrom('request as r')
    .leftJoin('push as p', 'p.id', 'r.answer_push_id')
    .selectAll('r')
    .select([
      'p.key_id as answer_key_id',
      'p.token_sealed as answer_token_sealed',
      'p.retrieval_step as answer_retrieval_step_of_push',
      sql<string>`(select count(*) from push_file f where f.push_id = r.answer_push_id)`.as('answer_files'),
      sql<Date>`now()`.as('db_now'),
    ]);
