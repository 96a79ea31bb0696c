import { envInt, envSection } from '@secret-push/config';
import { smtpSection } from '@secret-push/mail';

/**
 * Email from the auth service (`mail`: null when AUTH_SMTP_URL is unset): the password reset
 * ("Forgot password?") and the security notices. Off, the login page has no "Forgot password?"
 * link, the reset pages answer 404, and no notice is queued.
 */
export const mailSection = smtpSection('AUTH', 'the auth service');

/** How the auth service's mail queue is worked off, and the password reset: `mailDelivery`, `passwordReset`. */
export const mailDeliverySection = envSection(
  'Password reset and mail delivery',
  {
    AUTH_MAIL_POLL_MS: envInt(100, 60_000)
      .default(2000)
      .describe(
        'How often each auth process looks for queued email that is due (the `auth_email` table; any ' +
          'number of replicas share it). Only with `AUTH_SMTP_URL`.',
      ),
    AUTH_PASSWORD_RESET_TTL_SECONDS: envInt(300, 24 * 3600)
      .default(1800)
      .describe(
        'How long the link of a password reset email stays good (300–86400 seconds); it works once, ' +
          'and a newer reset of the account voids it',
      ),
    AUTH_PASSWORD_RESET_MAX_PER_EMAIL: envInt(1, 1000)
      .default(3)
      .describe(
        'Password reset requests per email address (whether or not it has an account) per window; ' +
          'then 429',
      ),
    AUTH_PASSWORD_RESET_MAX_PER_IP: envInt(1, 1_000_000)
      .default(20)
      .describe('Password reset requests per IP per window, any addresses; then 429'),
    AUTH_PASSWORD_RESET_WINDOW_SECONDS: envInt(60, 7 * 86_400)
      .default(3600)
      .describe('Window of the password reset counters (60–604800 seconds)'),
  },
  (v) => ({
    mailDelivery: {
      /** How often a process looks for due email (ms). */
      pollMs: v.AUTH_MAIL_POLL_MS,
    },
    passwordReset: {
      /** A reset link's lifetime. */
      ttlSeconds: v.AUTH_PASSWORD_RESET_TTL_SECONDS,
      maxPerEmail: v.AUTH_PASSWORD_RESET_MAX_PER_EMAIL,
      maxPerIp: v.AUTH_PASSWORD_RESET_MAX_PER_IP,
      windowSeconds: v.AUTH_PASSWORD_RESET_WINDOW_SECONDS,
    },
  }),
);
