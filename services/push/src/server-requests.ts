import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import type { Logger } from '@secret-push/logger';
import type { KeyRing } from '@secret-push/key-ring';
import type { Kysely } from 'kysely';
import type { PushConfig } from './config';
import type { AttemptLimiter } from './domain/ports/attempt-limiter';
import type { PushEvents } from './domain/push-events';
import { type RequestService, createRequestService } from './domain/request-service';
import { DURATIONS, MAX_TEXT_PAYLOAD } from './http/push.schemas';
import type { RequestRoutesDeps } from './http/request.routes';
import { allLimits, perIpRateLimit, perRequestKey } from './http/rate-limits';
import type { PushDatabase } from './storage/database';
import { createRequestRepository } from './storage/request.repository';
import type { FileService } from './domain/file-service';
import type { ObjectStore } from './domain/ports/object-store';
import { newPushId } from './domain/push-service';
import { type RequestCodes, createRequestCodes } from './domain/request-code-service';
import { type RequestFiles, createRequestFiles } from './domain/request-files';
import { type RequestUploadSteps, requestUploadSteps } from './http/request-files.routes';
import { requestCodeRateLimit } from './http/request-code.routes';
import type { RequestExtras } from './app';
import type { AuditContext } from './domain/push';
import { hashUrlToken } from './security/url-token';
import { createRequestCodeRepository } from './storage/request-code.repository';
import { createRequestFileRepository } from './storage/request-file.repository';
import { type UploadPipeline, uploadPipeline } from './uploads/pipeline';
import type { RespondPagesWiring } from './pages/respond.routes';

/** The request service and its parts: files (with an object store) and one-time codes (with email). */
export interface RequestParts {
  requests: RequestService;
  requestFiles?: RequestFiles;
  codes?: RequestCodes;
  /** The upload steps of /requests (with an object store). */
  uploads?: RequestUploadSteps;
  /** The upload pipeline under the request limits, and its file service (with an object store). */
  uploadPipeline?: UploadPipeline;
  files?: FileService;
}

/** The request service over the database (server.ts's createServices). */
export function wireRequestService(
  config: PushConfig,
  db: Kysely<PushDatabase>,
  keyRing: KeyRing,
  shared: {
    passphraseLimiter: AttemptLimiter;
    events: PushEvents;
    files?: FileService;
    objectStore?: ObjectStore;
  },
): RequestParts {
  const { files, objectStore } = shared;
  const store = createRequestRepository(db);
  const maxAuditEntries = config.limits.maxAuditEntries;
  const requestFiles =
    files && objectStore
      ? createRequestFiles({
          requestFiles: createRequestFileRepository(db),
          files,
          keyRing,
          store: objectStore,
          audit: (id, ctx) => store.recordAudit(id, 'attachment_download', ctx, maxAuditEntries),
        })
      : undefined;
  const codes = config.mail
    ? createRequestCodes({
        store: createRequestCodeRepository(db, config.requestCodes),
        keyRing,
        findByToken: async (t) => (await store.findByTokenHash(hashUrlToken(t)))?.request,
      })
    : undefined;
  const requests = createRequestService({
    store,
    keyRing,
    passphraseLimiter: shared.passphraseLimiter,
    maxAuditEntries,
    durations: DURATIONS,
    emailEnabled: config.mail !== null,
    events: shared.events,
    ...(codes ? { codes, emailDailyLimit: config.emailLimits.dailyLimit } : {}),
    ...(requestFiles ? { requestFiles } : {}),
  });
  const pipeline =
    files && objectStore
      ? uploadPipeline(
          files,
          objectStore,
          {
            ...config.files,
            maxTotalBytes: Math.min(config.files.maxTotalBytes, config.requestFiles.maxTotalBytes),
          },
          newPushId,
        )
      : undefined;
  const uploads =
    files && pipeline
      ? requestUploadSteps({ files, uploads: pipeline, findForResponder: requests.forResponder })
      : undefined;
  return {
    requests,
    requestFiles,
    codes,
    uploads,
    ...(files && pipeline ? { uploadPipeline: pipeline, files } : {}),
  };
}

/** The /requests routes' settings (PUSH_REQUESTS_ENABLED on). */
export function requestRoutesDeps(
  config: PushConfig,
  { requests, codes, uploads }: RequestParts,
  rateLimits: {
    create: RequestHandler;
    lookup: RequestHandler;
    answer: RequestHandler;
    answerPerRequest: RequestHandler;
  },
): Omit<RequestRoutesDeps, 'publicUrl' | 'rules'> {
  return {
    requests,
    // `answerable_by: emails` needs the one-time code, sent by email.
    context: { emailEnabled: config.mail !== null, emailAnswersSupported: codes !== undefined },
    limits: {
      max_payload_bytes: MAX_TEXT_PAYLOAD,
      max_files: config.files.maxCount,
      max_file_bytes: config.files.maxFileBytes,
      max_total_bytes: config.files.maxTotalBytes,
    },
    rateLimits,
    ...(uploads ? { uploads } : {}),
  };
}

/** The responder's limits: per client, user or IP, and per request (fail open without Redis). */
export function answerRateLimits(
  config: PushConfig,
  redis: Redis,
  logger: Logger,
): { answer: RequestHandler; answerPerRequest: RequestHandler } {
  const { prefix } = config.redis;
  const limits = config.rateLimits;
  return {
    answer: perIpRateLimit(redis, { prefix, name: 'answer', perMinute: limits.answersPerMinute }, logger),
    answerPerRequest: perIpRateLimit(
      redis,
      { prefix, name: 'answer-request', perMinute: limits.answersPerRequestPerMinute, keyOf: perRequestKey },
      logger,
    ),
  };
}

/** The routes beside /requests: the responder's attachment downloads and the one-time codes. */
export function requestExtrasOf(
  config: PushConfig,
  { requests, requestFiles, codes }: RequestParts,
  { redis, logger, rateLimits }: { redis: Redis; logger: Logger; rateLimits: { retrieve: RequestHandler } },
): RequestExtras {
  return {
    ...(requestFiles
      ? {
          files: {
            requestFiles,
            findForResponder: requests.forResponder,
            rateLimit: rateLimits.retrieve,
            logger,
          },
        }
      : {}),
    ...(codes
      ? {
          code: {
            sendCode: (t: string, email: string, ctx: AuditContext) => codes.sendFor(t, email, ctx),
            // Mounted after the anonymous-access gate (app.ts): nothing more to check here.
            responderAccess: (_req, _res, next) => next(),
            rateLimit: requestCodeRateLimit(redis, config.redis.prefix, logger, config.requestCodes),
            codeTtlSeconds: config.requestCodes.ttlSeconds,
          },
        }
      : {}),
  };
}

/** The app's request parts (PUSH_REQUESTS_ENABLED on): the routes, the downloads and the codes. */
export function requestAppDeps(
  config: PushConfig,
  parts: RequestParts,
  wiring: {
    redis: Redis;
    logger: Logger;
    rateLimits: { create: RequestHandler; lookup: RequestHandler; retrieve: RequestHandler };
    answer: RequestHandler;
    answerPerRequest: RequestHandler;
  },
): { requests: Omit<RequestRoutesDeps, 'publicUrl' | 'rules'>; requestExtras: RequestExtras } {
  const { rateLimits, answer, answerPerRequest } = wiring;
  return {
    requests: requestRoutesDeps(config, parts, { ...rateLimits, answer, answerPerRequest }),
    requestExtras: requestExtrasOf(config, parts, wiring),
  };
}

/**
 * The responder's page (`/respond/:token`): its answers take the API's answer limits (per caller
 * and per request, together), its code requests the API's code limit, and its file answers the
 * request uploads (the same pipeline, limits and clean-up as the API's respond).
 */
export function respondPagesWiring(
  config: PushConfig,
  { requests, codes, uploadPipeline: pipeline, files }: RequestParts,
  wiring: { redis: Redis; logger: Logger; answer: RequestHandler; answerPerRequest: RequestHandler },
): RespondPagesWiring {
  return {
    answerLimit: allLimits(wiring.answer, wiring.answerPerRequest),
    ...(codes
      ? {
          codeLimit: requestCodeRateLimit(
            wiring.redis,
            config.redis.prefix,
            wiring.logger,
            config.requestCodes,
          ),
        }
      : {}),
    ...(pipeline && files ? { uploads: { pipeline, files, findForResponder: requests.forResponder } } : {}),
  };
}
