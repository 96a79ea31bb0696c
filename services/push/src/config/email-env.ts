import { envInt, envSection } from '@secret-push/config';
import { smtpSection } from '@secret-push/mail';
import { httpSection } from './http-env';

/**
 * The push service's SMTP settings (`mail`: null when PUSH_SMTP_URL is unset, email off), read by
 * the API (to accept sends and report `email_auto_dispatch`) and by the worker (which sends).
 */
export const pushSmtpSection = smtpSection('PUSH', 'the push service');

/** What email may cost an owner: `emailLimits`. */
export const emailLimitsSection = envSection(
  'Email limits',
  {
    PUSH_EMAIL_DAILY_LIMIT: envInt(0, 1_000_000)
      .default(500)
      .describe(
        'Links an owner may have emailed in 24 hours: those accepted by the SMTP server in the last 24 h ' +
          'plus those still queued or deferred (failed ones do not count); more → 429. `0` blocks every send.',
      ),
  },
  (v) => ({ emailLimits: { dailyLimit: v.PUSH_EMAIL_DAILY_LIMIT } }),
);

/**
 * What the worker's email job needs besides SMTP and the key ring (which the worker always reads:
 * it unseals each push's link token): the public URL (the link's base), as the API reads it.
 * Required only when the worker sends email (PUSH_SMTP_URL set).
 */
export const workerEmailSection = envSection(
  'Email sending (worker)',
  {
    PUSH_SMTP_URL: pushSmtpSection.vars.PUSH_SMTP_URL,
    PUSH_PUBLIC_URL: httpSection.vars.PUSH_PUBLIC_URL.describe(
      "The base of the links: the API's `PUSH_PUBLIC_URL`. The worker needs it only to send email, and then requires it.",
    ),
    PUSH_EMAIL_SEND_INTERVAL_MS: envInt(100, 60_000)
      .default(2000)
      .describe(
        "How often each worker sends the emails that are due (in the background, apart from the tick's " +
          'expiries: a slow SMTP server never delays them)',
      ),
  },
  (v) => ({
    emailWorker: {
      publicUrl: v.PUSH_PUBLIC_URL?.replace(/\/$/, '') ?? null,
      intervalMs: v.PUSH_EMAIL_SEND_INTERVAL_MS,
    },
  }),
  {
    check: (v) => [
      ...(v.PUSH_SMTP_URL && !v.PUSH_PUBLIC_URL
        ? [
            'PUSH_PUBLIC_URL: required by the worker when PUSH_SMTP_URL is set (the base of the links it emails)',
          ]
        : []),
    ],
  },
);
