import { z } from 'zod';
import { envBoolean, envInt, envSection } from '@secret-push/config';

/**
 * Token and sign-in lifetimes: `accessTokenTtlSeconds`, `sessionTtlSeconds`, `reauthMaxAgeSeconds`,
 * `purgeIntervalSeconds`.
 */
export const lifetimesSection = envSection(
  'Tokens and sessions',
  {
    AUTH_ACCESS_TOKEN_TTL: envInt(1, 86_400)
      .default(3600)
      .describe(
        "Machine clients' access token lifetime in seconds (1–86400); a sign-in's access token " +
          '(userinfo only) lives 60 s',
      ),
    AUTH_SESSION_TTL_SECONDS: envInt(300, 30 * 86_400)
      .default(12 * 3600)
      .describe(
        'How long a sign-in lasts at most, from the password check (not extended by use): session, ' +
          'grants, refresh tokens (300–2592000)',
      )
      .meta({ defaultText: '`43200` (12 h)' }),
    AUTH_REAUTH_MAX_AGE_SECONDS: envInt(1, 3600)
      .default(300)
      .describe(
        'How recent a sign-in (password and second factor) must be for a destructive change: deleting ' +
          "the account through the accounts API, and the account console's password, second factor " +
          'and recovery code forms ([sign-in.md](sign-in.md#re-authentication)); 1–3600',
      ),
    AUTH_PURGE_INTERVAL_SECONDS: envInt(10, 86_400)
      .default(600)
      .describe(
        'How often expired token rows are deleted: 1000 rows per statement until one deletes fewer, so ' +
          'a large backlog is worked off in short statements, each well inside ' +
          '`AUTH_DATABASE_STATEMENT_TIMEOUT_MS`',
      ),
  },
  (v) => ({
    accessTokenTtlSeconds: v.AUTH_ACCESS_TOKEN_TTL,
    purgeIntervalSeconds: v.AUTH_PURGE_INTERVAL_SECONDS,
    /** A sign-in lasts this long at most: the provider's session, its grants and refresh tokens. */
    sessionTtlSeconds: v.AUTH_SESSION_TTL_SECONDS,
    /** A destructive change needs a sign-in at most this many seconds old (re-authentication). */
    reauthMaxAgeSeconds: v.AUTH_REAUTH_MAX_AGE_SECONDS,
  }),
);

/** Failed client authentications: `throttle`. */
export const clientThrottleSection = envSection(
  'Client authentication throttle',
  {
    AUTH_THROTTLE_WINDOW_SECONDS: envInt(1, 86_400)
      .default(300)
      .describe('Window of the failed client authentication counters'),
    AUTH_THROTTLE_MAX_PER_CLIENT_IP: envInt(1, 100_000)
      .default(10)
      .describe('Failed authentications per (client id, IP) per window before 429'),
    AUTH_THROTTLE_MAX_PER_IP: envInt(1, 1_000_000)
      .default(100)
      .describe('Failed authentications per IP per window (any client) before 429'),
  },
  (v) => ({
    throttle: {
      windowSeconds: v.AUTH_THROTTLE_WINDOW_SECONDS,
      maxPerClientIp: v.AUTH_THROTTLE_MAX_PER_CLIENT_IP,
      maxPerIp: v.AUTH_THROTTLE_MAX_PER_IP,
    },
  }),
);

/** Failed sign-ins: `loginThrottle`. */
export const loginThrottleSection = envSection(
  'Sign-in throttle',
  {
    AUTH_LOGIN_THROTTLE_WINDOW_SECONDS: envInt(1, 86_400)
      .default(900)
      .describe(
        'Window of the failed sign-in counters ([sign-in.md](sign-in.md#throttling-failed-sign-ins))',
      ),
    AUTH_LOGIN_MAX_PER_ACCOUNT_IP: envInt(1, 10_000)
      .default(10)
      .describe(
        'Failed sign-ins per (account, IP) per window; then that IP may not try that account until the ' +
          'window ends (429), right password included; a success resets it',
      ),
    AUTH_LOGIN_MAX_PER_IP: envInt(1, 1_000_000)
      .default(100)
      .describe('Failed sign-ins per IP per window, any accounts; then that IP may not try any (429)'),
    AUTH_LOGIN_MAX_PER_ACCOUNT: envInt(1, 1_000_000)
      .default(50)
      .describe(
        'Failed sign-ins per account per window, all IPs; then the account is slowed (one attempt per ' +
          '`AUTH_LOGIN_SLOW_SECONDS`), never locked. At least `AUTH_LOGIN_MAX_PER_ACCOUNT_IP`.',
      ),
    AUTH_LOGIN_SLOW_SECONDS: envInt(1, 3600)
      .default(5)
      .describe('While an account is over `AUTH_LOGIN_MAX_PER_ACCOUNT`: one attempt per this many seconds'),
    AUTH_LOGIN_MAX_IN_FLIGHT_PER_ACCOUNT: envInt(1, 1000)
      .default(4)
      .describe(
        'Password checks of one account running at the same time, all replicas together; more are ' +
          'refused (429, "try again in a few seconds") and not counted, so a burst does not queue scrypt',
      ),
  },
  (v) => ({
    loginThrottle: {
      windowSeconds: v.AUTH_LOGIN_THROTTLE_WINDOW_SECONDS,
      maxPerAccountIp: v.AUTH_LOGIN_MAX_PER_ACCOUNT_IP,
      maxPerIp: v.AUTH_LOGIN_MAX_PER_IP,
      maxPerAccount: v.AUTH_LOGIN_MAX_PER_ACCOUNT,
      slowSeconds: v.AUTH_LOGIN_SLOW_SECONDS,
      maxInFlightPerAccount: v.AUTH_LOGIN_MAX_IN_FLIGHT_PER_ACCOUNT,
    },
  }),
  {
    check: (v) =>
      v.AUTH_LOGIN_MAX_PER_ACCOUNT < v.AUTH_LOGIN_MAX_PER_ACCOUNT_IP
        ? ['AUTH_LOGIN_MAX_PER_ACCOUNT: must not be below AUTH_LOGIN_MAX_PER_ACCOUNT_IP (it counts every IP)']
        : [],
  },
);

/** Self sign-up (`signup`) and the second factor (`totp`). */
export const accountsSection = envSection(
  'Accounts',
  {
    AUTH_REQUIRE_TOTP: envBoolean()
      .default(false)
      .describe(
        '`true`: every account must have a second factor; one without sets it up (TOTP app, recovery ' +
          'codes) after its password, before the sign-in ends ' +
          '([sign-in.md](sign-in.md#second-factor-totp-and-recovery-codes))',
      ),
    AUTH_TOTP_ISSUER: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .default('secret-push')
      .describe(
        'The issuer of the `otpauth://` URI (1–64 characters): the name authenticator apps show for this service',
      ),
    AUTH_SELF_SIGNUP: envBoolean()
      .default(false)
      .describe(
        '`true`: people may create their own account from the login page ("Create an account"; its ' +
          'email is not verified: `email_verified` false). `false`: only the operator creates accounts ' +
          '(`users create`); the sign-up page answers 404 ([sign-in.md](sign-in.md#self-sign-up))',
      ),
    AUTH_SIGNUP_MAX_PER_IP: envInt(1, 1_000_000)
      .default(10)
      .describe(
        'Sign-up attempts per IP per window (those that reach the database: an account created, or an ' +
          'email found taken); then 429. Without Redis sign-up answers 503',
      ),
    AUTH_SIGNUP_WINDOW_SECONDS: envInt(1, 30 * 86_400)
      .default(3600)
      .describe('Window of the sign-up counter (1–2592000)'),
  },
  (v) => ({
    /**
     * Self sign-up: people may create their own account from the login page (its email is not
     * verified). Off by default: the operator creates accounts (`users create`).
     */
    signup: {
      enabled: v.AUTH_SELF_SIGNUP,
      /** Sign-up attempts (those that reach the database) per IP per window. */
      maxPerIp: v.AUTH_SIGNUP_MAX_PER_IP,
      windowSeconds: v.AUTH_SIGNUP_WINDOW_SECONDS,
    },
    totp: {
      /** Every account must have a second factor: one without enrols at its next sign-in. */
      required: v.AUTH_REQUIRE_TOTP,
      /** The issuer of the otpauth:// URI: the name authenticator apps show for this service. */
      issuer: v.AUTH_TOTP_ISSUER,
    },
  }),
);
