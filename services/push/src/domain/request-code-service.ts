import type { KeyRing } from '@secret-push/key-ring';
import { DEFAULT_LOCALE, type EmailLocale, isSupportedLocale } from './email-rules';
import { AnswerNotAllowed } from './errors';
import type { NewEmailSend } from './ports/email-store';
import type { AuditContext } from './push';
import {
  type CodeSubject,
  generateAnswerCode,
  hashAnswerCode,
  mayReceiveCode,
  normalizeAddress,
  parseAnswerCode,
  sameCodeHash,
} from './request-codes';
import { answerCodeAad } from './request-email-delivery';
import { isWellFormedUrlToken } from '../security/url-token';

/** A code to store (its hash to check answers against, its sealed copy for the email). */
export interface NewAnswerCode {
  requestId: string;
  /** Normalized (lower-cased). */
  address: string;
  codeHash: Buffer;
  codeSealed: Buffer;
  keyId: string;
}

/** What the code use cases need from the database (storage/request-code.repository.ts). */
export interface RequestCodeStore {
  /** Stores the code, audits `code_sent` and queues its email, while the request is open; whether it did. */
  issue(code: NewAnswerCode, ctx: AuditContext): Promise<boolean>;
  /**
   * Counts one attempt at the address's code, if it can still be tried (unused, unexpired, attempts
   * left), and returns its hash; null when it cannot.
   */
  takeAttempt(requestId: string, address: string): Promise<Buffer | null>;
  /** Audits an `answer_refused`. */
  refused(requestId: string, ctx: AuditContext): Promise<void>;
}

/** A checked code, to be marked used by the answer's transaction. */
export interface CodeUse {
  address: string;
  codeHash: Buffer;
}

/** The responder's proof of a listed address: an email and the code sent to it. */
export interface CodeProof {
  email?: unknown;
  code?: unknown;
}

/**
 * The one-time codes of requests answerable by listed addresses (domain/request-codes.ts holds the
 * rules): sending one, and checking one before an answer.
 */
export function createRequestCodes(deps: {
  store: RequestCodeStore;
  keyRing: KeyRing;
  /** The request of a url_token (the request store's lookup); undefined when unknown. */
  findByToken?: (urlToken: string) => Promise<(CodeSubject & { id: string }) | undefined>;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const send = async (request: CodeSubject & { id: string }, email: string, ctx: AuditContext) => {
    const address = normalizeAddress(email);
    if (!mayReceiveCode(request, address, now())) return false;
    const code = generateAnswerCode();
    return deps.store.issue(
      {
        requestId: request.id,
        address,
        codeHash: hashAnswerCode(request.id, address, code),
        codeSealed: deps.keyRing.seal(code, answerCodeAad(request.id, address)),
        keyId: deps.keyRing.activeKeyId,
      },
      ctx,
    );
  };
  return {
    /**
     * `POST /requests/:t/code`: a code for a listed address of an open request (else nothing, and the
     * caller answers the same). Whether one was issued (never told to the caller).
     */
    send,

    /** The same from the responder's link: an unknown or malformed token sends nothing (and says so to nobody). */
    async sendFor(urlToken: string, email: string, ctx: AuditContext): Promise<boolean> {
      if (!isWellFormedUrlToken(urlToken) || !deps.findByToken) return false;
      const request = await deps.findByToken(urlToken);
      return request ? send(request, email, ctx) : false;
    },

    /**
     * Before an answer to a request answerable by listed addresses: the email must be listed and the
     * code the one sent to it (each try counts against its attempts). Returns what the answer's
     * transaction marks used (null when the request needs no code); refused: `answer_refused` is
     * audited and the caller answers 403 `code_required`.
     */
    async check(
      request: Pick<CodeSubject, 'answerableBy' | 'answerableEmails'> & { id: string },
      proof: CodeProof,
      ctx: AuditContext,
    ): Promise<{ ok: true; use: CodeUse | null } | { ok: false }> {
      if (request.answerableBy !== 'emails') return { ok: true, use: null };
      const code = parseAnswerCode(proof.code);
      const address = typeof proof.email === 'string' ? normalizeAddress(proof.email) : '';
      const listed = address !== '' && request.answerableEmails.includes(address);
      const stored = listed && code ? await deps.store.takeAttempt(request.id, address) : null;
      const given = code ? hashAnswerCode(request.id, address, code) : null;
      if (stored && given && sameCodeHash(stored, given)) {
        return { ok: true, use: { address, codeHash: given } };
      }
      await deps.store.refused(request.id, ctx);
      return { ok: false };
    },
  };
}

export type RequestCodes = ReturnType<typeof createRequestCodes>;

/**
 * The respond hook (request-service.ts): for a request answerable by listed addresses, the code
 * must check out, else `answer_refused` is audited and AnswerNotAllowed('code_required') thrown;
 * returns what the answer's transaction marks used (null: the request needs no code).
 */
export async function checkAnswerCode(
  codes: RequestCodes | undefined,
  request: Pick<CodeSubject, 'answerableBy' | 'answerableEmails'> & { id: string },
  proof: CodeProof,
  ctx: AuditContext,
): Promise<CodeUse | null> {
  if (request.answerableBy !== 'emails' || !codes) return null;
  const checked = await codes.check(request, proof, ctx);
  if (!checked.ok) throw new AnswerNotAllowed('code_required');
  return checked.use;
}

/**
 * The create hook (request-service.ts): `notify_emails_to` (validated by the schema: 1–5 addresses,
 * email on) becomes the send queued with the request, in its language (`notify_emails_to_locale`,
 * else the requester's: request-service.ts fills it in, else the default), never naming the requester
 * (the email names them only through `include_requestor`), charged to the owner's daily cap.
 */
export function requestLinkSend(
  input: { notifyEmailsTo: readonly string[]; emailLocale: string | null },
  settings: { emailDailyLimit?: number },
): NewEmailSend | null {
  if (input.notifyEmailsTo.length === 0) return null;
  const locale: EmailLocale =
    input.emailLocale && isSupportedLocale(input.emailLocale) ? input.emailLocale : DEFAULT_LOCALE;
  return {
    recipients: [...input.notifyEmailsTo],
    locale,
    senderAddress: null,
    dailyLimit: settings.emailDailyLimit ?? 0,
  };
}
