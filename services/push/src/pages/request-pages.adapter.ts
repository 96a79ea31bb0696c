import { translator } from '@secret-push/i18n';
import { DEFAULT_LOCALE, senderLocaleOf } from '../domain/email-rules';
import type { KeyRing } from '@secret-push/key-ring';
import { type Actor, ownerOf } from '../domain/create-policy';
import { AnswerNotAllowed, NotOwner, RequestNotFound } from '../domain/errors';
import { type NewAnswer, type NewRequest, type Responder, mayAnswer } from '../domain/request';
import type { RequestFiles } from '../domain/request-files';
import type { AuditContext } from '../domain/push';
import { type OwnedRequest as DomainOwned, type RequestService } from '../domain/request-service';
import type { PushConfig } from '../config';
import { type FormMemory, createFormMemory } from '../http/form-memory';
import type { Redis } from 'ioredis';
import { htmlUrl } from '../http/push.presenter';
import type { CreateRules } from '../http/push.schemas';
import { parseRequestCreate, parseResponse } from '../http/request.schemas';
import type { UploadLimits } from '../uploads/form';
import type { RequestPages } from './request-pages.port';
import type { OwnedRequest } from './requests.views';

/*
 * The request pages' port over the requests domain service (issue 28). The pages act as the
 * signed-in person (`user:<id>`) or as an anonymous responder; another person's request is "not
 * found" here (the API answers 403 for it; a page shows the same 404 as for none).
 */

export interface RequestPagesAdapterDeps {
  service: RequestService;
  /** The API's create schema: the `{request: …}` body as the domain's input (422 with `fields`). */
  parseCreate: (body: unknown) => NewRequest;
  /** The API's answer schema: the `{response: …}` body (422 with `fields`, e.g. a blank payload). */
  parseAnswer: (
    body: unknown,
    withFiles: boolean,
  ) => { answer: NewAnswer; passphrase: string | null; email: string | null; code: string | null };
  keyRing: KeyRing;
  /** What each form key made (Post/Redirect/Get): the requests domain keeps no Idempotency-Key. */
  forms: FormMemory;
  publicUrl: string;
  /** The requester's attachments (with an object store): downloaded from the responder's page. */
  requestFiles?: RequestFiles;
  /** One-time codes (with email): requests answerable by listed addresses. */
  sendCode?: (token: string, email: string, audit: AuditContext) => Promise<unknown>;
  /** The limits of a file answer (with an object store): shown beside the page's file input. */
  fileLimits?: UploadLimits;
}

/** How long a form key is remembered: the created page shows the link that long. */
const FORM_SECONDS = 600;

const principalOf = (actor: Actor): string => {
  const owner = ownerOf(actor);
  if (owner === null) throw new RequestNotFound(); // the pages' guard lets only the signed-in through
  return owner;
};

/** Another person's request is none, on a page. */
async function mine<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (err instanceof NotOwner) throw new RequestNotFound();
    throw err;
  }
}

export function requestPagesAdapter(deps: RequestPagesAdapterDeps): RequestPages {
  const { service, keyRing, forms, publicUrl } = deps;
  const formKey = (i: { scope: string; key: string }) => `${i.scope}\n${i.key}`;
  const aad = (i: { scope: string }) => `request-form|${i.scope}`;
  const seal = (i: { scope: string }, token: string) =>
    `${keyRing.activeKeyId}:${keyRing.seal(token, aad(i)).toString('base64')}`;
  const unseal = (i: { scope: string }, value: string) => {
    const at = value.indexOf(':');
    return keyRing.open(
      { keyId: value.slice(0, at), data: Buffer.from(value.slice(at + 1), 'base64') },
      aad(i),
    );
  };

  const shown = (o: DomainOwned) => shownOf(o, publicUrl);

  return {
    async create(body, ctx) {
      const input = deps.parseCreate(body);
      const key = formKey(ctx.idempotency);
      // The same form again (a resubmission): nothing is created, the created page shows the first.
      if (!(await forms.claim(key, FORM_SECONDS))) return;
      try {
        const made = await service.create(input, {
          owner: principalOf(ctx.actor),
          requestorEmail: ctx.ownerEmail,
          audit: ctx.audit,
          // The emails' language when the form names none: the page's.
          senderLocale: senderLocaleOf(translator().locale, DEFAULT_LOCALE),
        });
        await forms.remember(key, seal(ctx.idempotency, made.urlToken), FORM_SECONDS);
      } catch (err) {
        await forms.release(key);
        throw err;
      }
    },

    async createdWith(idempotency, _seconds) {
      const value = await forms.recall(formKey(idempotency));
      if (value === undefined) return undefined;
      const owner = idempotency.scope; // a signed-in person's scope is their principal (idempotencyScope)
      try {
        return shown(await service.view(unseal(idempotency, value), owner));
      } catch (err) {
        if (err instanceof RequestNotFound || err instanceof NotOwner) return undefined;
        throw err;
      }
    },

    async list(owner, state, page) {
      return (await service.list(principalOf(owner), state, page)).map(shown);
    },

    async detail(token, owner) {
      return mine(async () => {
        const principal = principalOf(owner);
        const request = shown(await service.view(token, principal));
        const { entries } = await service.auditLog(token, principal, 1);
        return {
          request,
          entries: entries.map((e) => ({
            kind: e.kind,
            createdAt: e.createdAt,
            ip: e.ip,
            userAgent: e.userAgent,
          })),
        };
      });
    },

    async close(token, owner, audit) {
      await mine(() => service.close(token, principalOf(owner), audit));
    },

    async open(token, audit) {
      const view = await service.responderView(token, audit);
      const r = view.snapshot.request;
      return {
        message: view.message,
        requestor: r.includeRequestor ? r.requestorEmail : null,
        passphraseRequired: r.passphraseProtected,
        fileAnswers: r.responseFileAttachments,
        answerableBy: r.answerableBy,
        closeAfterAt: r.closeAfterAt,
        ...(deps.fileLimits
          ? {
              limits: {
                maxFiles: deps.fileLimits.maxCount,
                maxFileBytes: deps.fileLimits.maxFileBytes,
                maxTotalBytes: deps.fileLimits.maxTotalBytes,
              },
            }
          : {}),
        files: view.files.map((f) => ({
          id: f.id,
          filename: f.filename,
          contentType: f.contentType,
          size: f.size,
          downloadsLeft: Math.max(0, r.attachmentDownloads - f.downloads),
        })),
      };
    },

    async respond(token, actor, answer, audit, files) {
      const parsed = deps.parseAnswer({ response: answer }, files !== undefined);
      await service.respond(token, parsed.answer, responderOf(actor), parsed.passphrase, audit, {
        ...(files ? { files } : {}),
        proof: { email: parsed.email, code: parsed.code },
      });
    },

    ...(deps.sendCode ? { sendCode: deps.sendCode } : {}),

    ...(deps.requestFiles ? { download: downloadOf(service, deps.requestFiles) } : {}),
  };
}

/**
 * A requester's file for the responder, under the rules of the responder's view (the API's
 * `GET /requests/:t/files/:id`): signed-in people only where only they may answer, at most the
 * request's number of downloads (counted, audited).
 */
function downloadOf(
  service: RequestService,
  requestFiles: RequestFiles,
): NonNullable<RequestPages['download']> {
  return async (token, fileId, actor, audit) => {
    const found = await service.forResponder(token);
    if (found.request.answerableBy === 'users') {
      const decision = mayAnswer(found.request, responderOf(actor));
      if (!decision.ok) throw new AnswerNotAllowed(decision.reason);
    }
    const opened = await requestFiles.openAttachment(
      { id: found.request.id, keyId: found.secrets.keyId },
      fileId,
      audit,
    );
    if (opened.outcome !== 'opened') return { outcome: opened.outcome };
    return { outcome: 'opened', filename: opened.filename, size: opened.size, body: opened.body };
  };
}

/** A signed-in person is a user (their address for listed-email rules); a token's owner as the API says. */
function responderOf(actor: Actor): Responder {
  switch (actor.kind) {
    case 'session':
      return { kind: 'user', id: actor.id, email: null };
    case 'token':
      return actor.id.startsWith('user:')
        ? { kind: 'user', id: actor.id, email: null }
        : { kind: 'client', id: actor.id };
    case 'anonymous':
      return { kind: 'anonymous' };
  }
}

/** A request as the pages show it to its owner. */
function shownOf(o: DomainOwned, publicUrl: string): OwnedRequest {
  const r = o.snapshot.request;
  return {
    urlToken: o.urlToken,
    link: `${publicUrl}/respond/${o.urlToken}`,
    state: r.state,
    name: r.name,
    note: o.note,
    message: o.message,
    passphrase: r.passphraseProtected,
    answerableBy: r.answerableBy,
    answerableEmails: r.answerableEmails,
    responseFileAttachments: r.responseFileAttachments,
    includeRequestor: r.includeRequestor,
    expireAfterViews: r.answer.expireAfterViews,
    createdAt: r.createdAt,
    closeAfterAt: r.closeAfterAt,
    answeredAt: r.answeredAt,
    closedAt: r.closedAt,
    closedReason: r.closedReason,
    answer:
      o.answer && r.answeredAt
        ? {
            link: htmlUrl(publicUrl, o.answer.urlToken, o.answer.retrievalStep),
            answeredAt: r.answeredAt,
            files: o.answer.files,
          }
        : null,
  };
}

/** The pages' port wired with the API's own schemas (the create's rules: the push limits). */
export function requestPagesOf(
  config: PushConfig,
  parts: {
    requests: RequestService;
    requestFiles?: RequestFiles;
    codes?: { sendFor(token: string, email: string, audit: AuditContext): Promise<unknown> };
    /** The request uploads (with an object store): their limits. */
    uploadPipeline?: { limits: UploadLimits };
  },
  keyRing: KeyRing,
  redis: Redis,
): RequestPages {
  const { requests, requestFiles, codes } = parts;
  const fileLimits = parts.uploadPipeline?.limits;
  const forms = createFormMemory(redis, config.redis.prefix, 'request');
  const createRules: CreateRules = { ...config.limits, enabledKinds: new Set(['text']) };
  // `answerable_by: emails` needs the one-time codes, sent by email (as in the API).
  const context = { emailEnabled: config.mail !== null, emailAnswersSupported: codes !== undefined };
  return requestPagesAdapter({
    service: requests,
    keyRing,
    forms,
    publicUrl: config.publicUrl,
    parseCreate: (body) => parseRequestCreate(body, createRules, context),
    parseAnswer: (body, withFiles) => parseResponse(body, withFiles),
    ...(requestFiles ? { requestFiles } : {}),
    ...(codes
      ? { sendCode: (t: string, email: string, ctx: AuditContext) => codes.sendFor(t, email, ctx) }
      : {}),
    ...(fileLimits ? { fileLimits } : {}),
  });
}

/** Request paths in logs: the responder's page and a request's own paths, never its url_token. */
export const maskRequestPaths = (path: string): string =>
  path
    .replace(/(\/respond\/)[^/?]+/i, '$1…')
    .replace(
      /(\/requests\/)(?!(?:new|created|active|open|answered|ready|closed)(?:\.json)?(?:$|[/?]))[^/?]+/i,
      '$1…',
    );
