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
import { perIpRateLimit, perRequestKey } from './http/rate-limits';
import type { PushDatabase } from './storage/database';
import { createRequestRepository } from './storage/request.repository';

/** The request service over the database (server.ts's createServices). */
export function wireRequestService(
  config: PushConfig,
  db: Kysely<PushDatabase>,
  keyRing: KeyRing,
  passphraseLimiter: AttemptLimiter,
  events: PushEvents,
): RequestService {
  return createRequestService({
    store: createRequestRepository(db),
    keyRing,
    passphraseLimiter,
    maxAuditEntries: config.limits.maxAuditEntries,
    durations: DURATIONS,
    emailEnabled: config.mail !== null,
    events,
  });
}

/** The /requests routes' settings (PUSH_REQUESTS_ENABLED on). */
export function requestRoutesDeps(
  config: PushConfig,
  requests: RequestService,
  rateLimits: {
    create: RequestHandler;
    lookup: RequestHandler;
    answer: RequestHandler;
    answerPerRequest: RequestHandler;
  },
): Omit<RequestRoutesDeps, 'publicUrl' | 'rules'> {
  return {
    requests,
    // `answerable_by: emails` needs the one-time code, which is not served yet.
    context: { emailEnabled: config.mail !== null, emailAnswersSupported: false },
    limits: {
      max_payload_bytes: MAX_TEXT_PAYLOAD,
      max_files: config.files.maxCount,
      max_file_bytes: config.files.maxFileBytes,
      max_total_bytes: config.files.maxTotalBytes,
    },
    rateLimits,
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
