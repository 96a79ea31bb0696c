import { envInt, envSection } from '@secret-push/config';
import {
  CODE_MAX_ATTEMPTS,
  CODE_RATE_WINDOW_SECONDS,
  CODE_REQUESTS_PER_IP,
  CODE_REQUESTS_PER_REQUEST,
  CODE_RESEND_SECONDS,
  CODE_TTL_SECONDS,
  type RequestCodeLimits,
} from '../domain/request-codes';

/**
 * The one-time codes of requests answerable by listed addresses (domain/request-codes.ts):
 * `requestCodes`. The code's length (6 digits) is not tunable; its validity, attempts, resends and
 * the rate of code requests are, within bounds that keep guessing a code hopeless.
 */
export const requestCodesSection = envSection(
  'Request codes',
  {
    PUSH_REQUEST_CODE_TTL_SECONDS: envInt(60, 3600)
      .default(CODE_TTL_SECONDS)
      .describe(
        'How long a one-time code sent to a listed address (`answerable_by: emails`) stays valid, from ' +
          'when it is issued (1 minute to 1 hour); the email and the API say it in minutes',
      ),
    PUSH_REQUEST_CODE_MAX_ATTEMPTS: envInt(1, 10)
      .default(CODE_MAX_ATTEMPTS)
      .describe(
        'Wrong codes given for one address before its code is spent and a new one must be asked for ' +
          '(1–10: with 6 digits, at most one chance in 100 000 per code)',
      ),
    PUSH_REQUEST_CODE_RESEND_SECONDS: envInt(10, 3600)
      .default(CODE_RESEND_SECONDS)
      .describe(
        'A new code for the same request and address at most this often (10 s to 1 hour): asking again ' +
          'sooner sends nothing (and says the same), so an inbox cannot be flooded',
      ),
    PUSH_REQUEST_CODE_REQUESTS_PER_IP: envInt(1, 100_000)
      .default(CODE_REQUESTS_PER_IP)
      .describe(
        'Code requests (`POST /requests/:url_token/code`) per client IP in `PUSH_REQUEST_CODE_RATE_WINDOW_SECONDS`; ' +
          'more → 429 with `Retry-After`',
      ),
    PUSH_REQUEST_CODE_REQUESTS_PER_REQUEST: envInt(1, 100_000)
      .default(CODE_REQUESTS_PER_REQUEST)
      .describe(
        'Code requests per request (from any IP) in `PUSH_REQUEST_CODE_RATE_WINDOW_SECONDS`; more → 429 with ' +
          '`Retry-After`',
      ),
    PUSH_REQUEST_CODE_RATE_WINDOW_SECONDS: envInt(60, 86_400)
      .default(CODE_RATE_WINDOW_SECONDS)
      .describe('The window of the two code request limits (1 minute to 1 day)'),
  },
  (v): { requestCodes: RequestCodeLimits } => ({
    requestCodes: {
      ttlSeconds: v.PUSH_REQUEST_CODE_TTL_SECONDS,
      maxAttempts: v.PUSH_REQUEST_CODE_MAX_ATTEMPTS,
      resendSeconds: v.PUSH_REQUEST_CODE_RESEND_SECONDS,
      requestsPerIp: v.PUSH_REQUEST_CODE_REQUESTS_PER_IP,
      requestsPerRequest: v.PUSH_REQUEST_CODE_REQUESTS_PER_REQUEST,
      rateWindowSeconds: v.PUSH_REQUEST_CODE_RATE_WINDOW_SECONDS,
    },
  }),
);
