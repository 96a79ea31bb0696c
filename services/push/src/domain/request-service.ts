import { randomUUID } from 'node:crypto';
import type { KeyRing } from '@secret-push/key-ring';
import { hashPassphrase, verifyPassphrase } from '../security/passphrase';
import { generateUrlToken, hashUrlToken, isWellFormedUrlToken } from '../security/url-token';
import {
  AnswerNotAllowed,
  NotOwner,
  PassphraseRejected,
  RequestAlreadyAnswered,
  RequestNotFound,
  UserInputRejected,
} from './errors';
import type { AttemptLimiter } from './ports/attempt-limiter';
import type { NewRequestRecord, RequestFileInfo, RequestStore, StoredRequest } from './ports/request-store';
import type { NewPush } from './push';
import type { PushEvents } from './push-events';
import { type CodeProof, type RequestCodes, checkAnswerCode, requestLinkSend } from './request-code-service';
import { aad, openerOf, sealPushRecord } from './push-sealing';
import { filenameAad } from './file-service';
import type { PreparedFiles } from './push-create';
import type { EmailLocale } from './email-rules';
import type { RequestFiles } from './request-files';
import { safeFilename } from './file-names';
import {
  type AuditContext,
  type NewAnswer,
  type NewRequest,
  type RequestAuditEntry,
  type RequestList,
  type RequestSnapshot,
  type Responder,
  type SecretRequest,
  answerPushInput,
  isGoneForResponder,
  mayAnswer,
  statesOf,
} from './request';

export interface RequestServiceDeps {
  store: RequestStore;
  keyRing: KeyRing;
  /** The push passphrase limits, shared: a request's attempts are counted under its own key. */
  passphraseLimiter: AttemptLimiter;
  maxAuditEntries: number;
  /** `expire_after_duration` index → seconds (the push API's enum). */
  durations: readonly number[];
  /** Email on (SMTP configured): `notify_owner_on_answer` then makes the request listened to. */
  emailEnabled: boolean;
  /** Observes the answer pushes (metrics), as creates are observed. */
  events?: PushEvents;
  /** The one-time codes of requests answerable by listed addresses (absent: such answers are refused). */
  codes?: RequestCodes;
  /** Files in requests (domain/request-files.ts): absent without an object store. */
  requestFiles?: Pick<RequestFiles, 'attachmentRecords' | 'purgeOnClose'>;
  /** PUSH_EMAIL_DAILY_LIMIT: the responder links count against the owner's daily cap (default 0: none sent). */
  emailDailyLimit?: number;
}

/** A requester's attachment, its name opened. */
export interface RequestFile {
  id: string;
  filename: string;
  contentType: string;
  size: number;
  downloads: number;
}

/** A request as its owner sees it: its secrets opened, its answer push's link, its files. */
export interface OwnedRequest {
  snapshot: RequestSnapshot;
  urlToken: string;
  message: string;
  note: string | null;
  answer: { urlToken: string; retrievalStep: boolean; files: number } | null;
  files: RequestFile[];
}

/** What the responder's page shows. */
export interface ResponderView {
  snapshot: RequestSnapshot;
  message: string;
  files: RequestFile[];
}

export interface CreateRequestOptions {
  owner: string;
  /** The owner's address, captured when `include_requestor` (a person's verified one; else null). */
  requestorEmail: string | null;
  audit: AuditContext;
  /** The requester's attachments, stored under the request's id before its row exists. */
  attachments?: PreparedFiles;
  /**
   * The requester's language (negotiated for their request), for the request's emails when
   * `notify_emails_to_locale` names none; absent or null: the default.
   */
  senderLocale?: EmailLocale | null;
}

/** A new request as the store inserts it: its token, message and note sealed like a push's. */
async function sealRequestRecord(
  keyRing: KeyRing,
  input: NewRequest,
  urlToken: string,
  options: CreateRequestOptions,
  emailEnabled: boolean,
): Promise<NewRequestRecord> {
  const id = options.attachments?.pushId ?? randomUUID();
  const keyId = keyRing.activeKeyId;
  const seal = (v: string, field: 'url_token' | 'message' | 'note') => keyRing.seal(v, aad(id, field), keyId);
  return {
    id,
    tokenHash: hashUrlToken(urlToken),
    tokenSealed: seal(urlToken, 'url_token'),
    keyId,
    owner: options.owner,
    messageSealed: seal(input.message, 'message'),
    name: input.name,
    noteSealed: input.note === null ? null : seal(input.note, 'note'),
    passphraseHash: input.passphrase ? await hashPassphrase(input.passphrase) : null,
    responseFileAttachments: input.responseFileAttachments,
    includeRequestor: input.includeRequestor,
    requestorEmail: input.includeRequestor ? options.requestorEmail : null,
    answerableBy: input.answerableBy,
    answerableEmails: input.answerableEmails,
    window: input.window,
    answer: input.answer,
    notifyOwnerOnAnswer: input.notifyOwnerOnAnswer,
    emailLocale: input.emailLocale,
    attachmentDownloads: input.attachmentDownloads,
    // The owner's notice by email is a reason to listen (the statement adds webhook endpoints).
    outbox: input.notifyOwnerOnAnswer && emailEnabled,
  };
}

/**
 * Finding a request by its url_token and opening what its owner and its responder see (the
 * request service's reads; nothing here writes).
 */
export function requestLookup(deps: Pick<RequestServiceDeps, 'store' | 'keyRing'>) {
  const { store, keyRing } = deps;
  const openPush = openerOf(keyRing);
  const open = (r: StoredRequest, field: 'url_token' | 'message' | 'note', data: Buffer | null) =>
    data ? keyRing.open({ keyId: r.secrets.keyId, data }, aad(r.request.id, field)) : null;
  const openFile = (f: RequestFileInfo): RequestFile => ({
    id: f.id,
    filename: safeFilename(keyRing.open({ keyId: f.keyId, data: f.filenameSealed }, filenameAad(f.id))),
    contentType: f.contentType,
    size: f.size,
    downloads: f.downloads,
  });
  const filesOf = async (requestId: string) => (await store.filesOf(requestId)).map(openFile);

  async function find(urlToken: string): Promise<StoredRequest> {
    if (!isWellFormedUrlToken(urlToken)) throw new RequestNotFound();
    const found = await store.findByTokenHash(hashUrlToken(urlToken));
    if (!found) throw new RequestNotFound();
    return found;
  }

  async function owned(r: StoredRequest, urlToken: string): Promise<OwnedRequest> {
    const a = r.answerPush;
    return {
      snapshot: { request: r.request, now: r.now },
      urlToken,
      message: open(r, 'message', r.secrets.messageSealed)!,
      note: open(r, 'note', r.secrets.noteSealed),
      answer: a
        ? {
            urlToken: openPush(a.id, a.keyId, 'url_token', a.tokenSealed)!,
            retrievalStep: a.retrievalStep,
            files: a.files,
          }
        : null,
      files: await filesOf(r.request.id),
    };
  }

  async function findOwned(urlToken: string, principal: string): Promise<StoredRequest> {
    const found = await find(urlToken);
    if (found.request.owner !== principal) throw new NotOwner();
    return found;
  }

  /** A responder's request: one that is gone (closed, past its window) is not found; an answered one is refused. */
  async function findForResponder(urlToken: string): Promise<StoredRequest> {
    const found = await find(urlToken);
    if (isGoneForResponder(found.request, found.now)) throw new RequestNotFound();
    if (found.request.state === 'answered') throw new RequestAlreadyAnswered();
    return found;
  }

  return { find, owned, findOwned, findForResponder, filesOf, open };
}

/**
 * The answer push's input: with files (stored already, under the answer push's id) a `file`
 * push whose text is optional; files only where the request asked for them.
 */
function answerWithFiles(
  deps: Pick<RequestServiceDeps, 'durations' | 'requestFiles'>,
  request: SecretRequest,
  answer: NewAnswer,
  files: PreparedFiles | undefined,
) {
  const input = answerPushInput(request, answer, deps.durations);
  const uploads = files?.uploads ?? [];
  if (uploads.length === 0 || !deps.requestFiles) return { input, fileRecords: () => undefined };
  if (!request.responseFileAttachments) {
    throw new UserInputRejected({ files: ['This request does not accept files: answer with text.'] });
  }
  const withFiles: NewPush = {
    ...input,
    kind: 'file',
    payload: answer.payload === '' ? null : answer.payload,
  };
  const records = deps.requestFiles;
  return { input: withFiles, fileRecords: (keyId: string) => records.attachmentRecords(uploads, keyId) };
}

/** The passphrase, counted by the limiter before it is verified; a wrong one is audited. */
async function checkPassphrase(
  deps: Pick<RequestServiceDeps, 'store' | 'passphraseLimiter' | 'maxAuditEntries'>,
  found: StoredRequest,
  given: string | null,
  ctx: AuditContext,
) {
  const hash = found.secrets.passphraseHash;
  if (hash === null) return;
  if (given === null) throw new PassphraseRejected();
  await deps.passphraseLimiter.consume(`request:${found.request.id}`, ctx.ip);
  if (!(await verifyPassphrase(hash, given))) {
    await deps.store.recordAudit(found.request.id, 'failed_passphrase', ctx, deps.maxAuditEntries);
    throw new PassphraseRejected();
  }
}

/**
 * The request use cases: create, the owner's reads (view, list, audit) and close, and the
 * responder's view and answer. The answer push is sealed by the push's own sealing
 * (`sealPushRecord`) and stored with the request's change in one transaction.
 */
export function createRequestService(deps: RequestServiceDeps) {
  const { store, keyRing } = deps;
  const { find, owned, findOwned, findForResponder, filesOf, open } = requestLookup(deps);

  return {
    async create(given: NewRequest, options: CreateRequestOptions): Promise<OwnedRequest> {
      const urlToken = generateUrlToken();
      // The emails' language: the one asked for, else the requester's (kept for the code emails and
      // the owner's notice too), else the default.
      const input = { ...given, emailLocale: given.emailLocale ?? options.senderLocale ?? null };
      const record = {
        ...(await sealRequestRecord(keyRing, input, urlToken, options, deps.emailEnabled)),
        emailSend: requestLinkSend(input, deps),
      };
      const uploads = options.attachments?.uploads ?? [];
      const files =
        uploads.length > 0 && deps.requestFiles
          ? deps.requestFiles.attachmentRecords(uploads, record.keyId)
          : undefined;
      const snapshot = await store.insert(record, options.audit, files);
      return {
        snapshot,
        urlToken,
        message: input.message,
        note: input.note,
        answer: null,
        files: files ? await filesOf(record.id) : [],
      };
    },

    async view(urlToken: string, principal: string): Promise<OwnedRequest> {
      return owned(await findOwned(urlToken, principal), urlToken);
    },

    async list(owner: string, list: RequestList, page: number): Promise<OwnedRequest[]> {
      const { requests } = await store.listOwned(owner, statesOf(list), page);
      const out: OwnedRequest[] = [];
      for (const r of requests) out.push(await owned(r, open(r, 'url_token', r.secrets.tokenSealed)!));
      return out;
    },

    async auditLog(
      urlToken: string,
      principal: string,
      page: number,
    ): Promise<{ entries: RequestAuditEntry[]; dropped: number }> {
      const found = await findOwned(urlToken, principal);
      const entries = await store.listAuditEntries(found.request.id, page);
      return { entries, dropped: found.request.auditDropped };
    },

    /** The owner closes it (a closed one stays as it is: the same answer, nothing audited). */
    async close(urlToken: string, principal: string, ctx: AuditContext): Promise<OwnedRequest> {
      const found = await findOwned(urlToken, principal);
      if (found.request.state !== 'closed' && (await store.close(found.request.id, ctx))) {
        // Its attachments are due from the close on: purged now, else by the worker.
        await deps.requestFiles?.purgeOnClose(found.request.id);
      }
      return owned(await find(urlToken), urlToken);
    },

    /**
     * The request a responder's step is about, read only (nothing audited): not found when gone,
     * refused when answered (the download of an attachment, the check before an answer's files).
     */
    forResponder: findForResponder,

    /** The responder's page: audited `link_opened`, nothing spent. */
    async responderView(urlToken: string, ctx: AuditContext): Promise<ResponderView> {
      const found = await findForResponder(urlToken);
      await store.recordAudit(found.request.id, 'link_opened', ctx, deps.maxAuditEntries);
      return {
        snapshot: { request: found.request, now: found.now },
        message: open(found, 'message', found.secrets.messageSealed)!,
        files: await filesOf(found.request.id),
      };
    },

    /**
     * The answer: who may answer and the passphrase are checked first (a refusal is audited and
     * changes nothing else), then the answer push is sealed like any push and stored with the
     * request's change under its row lock (a parallel answer finds it answered).
     */
    async respond(
      urlToken: string,
      answer: NewAnswer,
      who: Responder,
      passphrase: string | null,
      ctx: AuditContext,
      { files, proof = {} }: { files?: PreparedFiles; proof?: CodeProof } = {},
    ): Promise<RequestSnapshot> {
      const found = await findForResponder(urlToken);
      const { request } = found;
      // Listed addresses only: the code is checked (and counted) first; refused → 403 code_required.
      const code = await checkAnswerCode(deps.codes, request, proof, ctx);
      const decision = mayAnswer(request, who, code !== null);
      if (!decision.ok) {
        await store.recordAudit(request.id, 'answer_refused', ctx, deps.maxAuditEntries);
        throw new AnswerNotAllowed(decision.reason);
      }
      await checkPassphrase(deps, found, passphrase, ctx);
      const { input, fileRecords } = answerWithFiles(deps, request, answer, files);
      const { record } = await sealPushRecord(keyRing, input, {
        id: files?.pushId ?? randomUUID(),
        owner: request.owner,
        outbox: false,
      });
      const result = await store.answer(request.id, record, ctx, {
        code,
        files: fileRecords(record.keyId),
      });
      if (result.outcome === 'gone') throw new RequestNotFound();
      if (result.outcome === 'already_answered') throw new RequestAlreadyAnswered();
      await deps.events?.created(result.push.push);
      return result.snapshot;
    },
  };
}

export type RequestService = ReturnType<typeof createRequestService>;
