import type { Kysely } from 'kysely';
import type { Provider } from 'oidc-provider';
import type { Logger } from '@secret-push/logger';
import type { AuthMetrics } from '../observability/metrics';
import type { AppLink } from '../pages/app-link';
import type { LoginThrottle } from '../policy/login-throttle';
import type { ResetThrottle } from '../policy/reset-throttle';
import type { SignupThrottle } from '../policy/signup-throttle';
import type { AuthDatabase } from '../storage/database';
import type { MailOutbox } from '../users/mail-outbox';
import type { TotpSecrets } from '../users/totp-secrets';

/** What the sign-in pages (sign-in-router.ts and its steps) are built from. */
export interface InteractionDeps {
  provider: Provider;
  db: Kysely<AuthDatabase>;
  throttle: LoginThrottle;
  /** The cookie keys (AUTH_COOKIE_KEYS), which also bind the login form's CSRF token. */
  cookieKeys: readonly string[];
  issuer: string;
  logger: Logger;
  metrics: AuthMetrics;
  /** AUTH_REQUIRE_TOTP and AUTH_TOTP_ISSUER. */
  totp: { required: boolean; issuer: string };
  /** Seals and opens TOTP secrets with the data key ring (AUTH_DATA_KEYS). */
  totpSecrets: TotpSecrets;
  /** Self sign-up's throttle when AUTH_SELF_SIGNUP is on; undefined: no sign-up page (404). */
  signupThrottle?: SignupThrottle | undefined;
  /** Email is on (AUTH_SMTP_URL): the security notices are queued (a locked second factor, one enrolled). */
  outbox?: MailOutbox | undefined;
  /** Email is on (AUTH_SMTP_URL): "Forgot password?" and the reset pages; undefined: none (404). */
  passwordReset?: PasswordResetDeps | undefined;
  /** AUTH_APP_URL and AUTH_APP_NAME: the web app the pages lead back to. */
  app?: AppLink | undefined;
}

/** What the password reset pages need, with email on. */
export interface PasswordResetDeps {
  throttle: ResetThrottle;
  /** Queues the reset email and the notices (the data key ring seals the link's token). */
  outbox: MailOutbox;
  /** AUTH_PASSWORD_RESET_TTL_SECONDS. */
  ttlSeconds: number;
}
