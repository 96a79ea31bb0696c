import { envInt, envSection } from '@secret-push/config';

/** Per-minute limits counted in Redis: `rateLimits`. */
export const rateLimitsSection = envSection(
  'Rate limits',
  {
    PUSH_RATE_LIMIT_CREATE_PER_MINUTE: envInt(1, 1_000_000)
      .default(120)
      .describe(
        'Creates per minute per client or user (token) or per IP (anonymous); fails open without Redis',
      ),
    PUSH_RATE_LIMIT_RETRIEVE_PER_MINUTE: envInt(1, 1_000_000)
      .default(600)
      .describe('Retrievals per minute per client, user or IP; fails open without Redis'),
    PUSH_RATE_LIMIT_LOOKUP_PER_MINUTE: envInt(1, 2_000_000)
      .optional()
      .describe(
        'Previews, audit pages and DELETEs together per minute per client, user or IP; fails open ' +
          'without Redis. At least twice the create limit (a client that previews or expires each ' +
          'push it creates is limited on its creates first, whichever way the two windows fall); ' +
          'twice the create limit when unset',
      ),
    PUSH_RATE_LIMIT_NOTIFY_EMAILS_PER_MINUTE: envInt(1, 1_000_000)
      .default(5)
      .describe(
        "`notify_emails` calls per minute per user or client (Password Pusher's 5; more → 429); fails " +
          'open without Redis (the daily email cap still holds)',
      ),
    PUSH_RATE_LIMIT_INVALID_TOKENS_PER_MINUTE: envInt(1, 1_000_000)
      .default(60)
      .describe(
        'Invalid tokens (access or personal, and legacy headers that do not match) per minute per IP; ' +
          'past it, 429 before an unknown token is looked up (auth service or database); fails open ' +
          'without Redis',
      ),
    PUSH_RATE_LIMIT_ANSWERS_PER_MINUTE: envInt(1, 1_000_000)
      .default(30)
      .describe(
        "Requests' responder calls (the responder view and answers) per minute per client, user or IP; " +
          'fails open without Redis',
      ),
    PUSH_RATE_LIMIT_ANSWERS_PER_REQUEST_PER_MINUTE: envInt(1, 1_000_000)
      .default(10)
      .describe('Answer attempts per minute per request, whoever sends them; fails open without Redis'),
    PUSH_PASSPHRASE_ATTEMPTS_PER_PUSH: envInt(1, 1000)
      .default(5)
      .describe(
        'Passphrase attempts per push per minute (counted before verification, right ones included); requires Redis',
      ),
    PUSH_PASSPHRASE_ATTEMPTS_PER_IP: envInt(1, 100_000)
      .default(30)
      .describe('Passphrase attempts per IP per minute, across pushes'),
  },
  (v) => ({
    rateLimits: {
      createPerMinute: v.PUSH_RATE_LIMIT_CREATE_PER_MINUTE,
      retrievePerMinute: v.PUSH_RATE_LIMIT_RETRIEVE_PER_MINUTE,
      lookupPerMinute: v.PUSH_RATE_LIMIT_LOOKUP_PER_MINUTE ?? 2 * v.PUSH_RATE_LIMIT_CREATE_PER_MINUTE,
      invalidTokensPerMinute: v.PUSH_RATE_LIMIT_INVALID_TOKENS_PER_MINUTE,
      notifyEmailsPerMinute: v.PUSH_RATE_LIMIT_NOTIFY_EMAILS_PER_MINUTE,
      answersPerMinute: v.PUSH_RATE_LIMIT_ANSWERS_PER_MINUTE,
      answersPerRequestPerMinute: v.PUSH_RATE_LIMIT_ANSWERS_PER_REQUEST_PER_MINUTE,
      passphrasePerPush: v.PUSH_PASSPHRASE_ATTEMPTS_PER_PUSH,
      passphrasePerIp: v.PUSH_PASSPHRASE_ATTEMPTS_PER_IP,
    },
  }),
  {
    check: (v) =>
      v.PUSH_RATE_LIMIT_LOOKUP_PER_MINUTE !== undefined &&
      v.PUSH_RATE_LIMIT_LOOKUP_PER_MINUTE < 2 * v.PUSH_RATE_LIMIT_CREATE_PER_MINUTE
        ? [
            'PUSH_RATE_LIMIT_LOOKUP_PER_MINUTE: at least twice PUSH_RATE_LIMIT_CREATE_PER_MINUTE ' +
              `(${2 * v.PUSH_RATE_LIMIT_CREATE_PER_MINUTE}), so that a client previewing each push ` +
              'it creates is limited on its creates first',
          ]
        : [],
  },
);

/** How long a create's Idempotency-Key is remembered: `idempotency`. */
export const idempotencySection = envSection(
  'Idempotency',
  {
    PUSH_IDEMPOTENCY_TTL_SECONDS: envInt(60, 7 * 86_400)
      .default(86_400)
      .describe(
        "How long a create's `Idempotency-Key` is remembered after the first create with it (60 s to " +
          '7 days); an older key is forgotten and makes a new push',
      ),
  },
  (v) => ({ idempotency: { ttlSeconds: v.PUSH_IDEMPOTENCY_TTL_SECONDS } }),
);
