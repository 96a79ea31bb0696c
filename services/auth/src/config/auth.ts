import {
  brandingSection,
  commonSection,
  defineConfig,
  i18nSection,
  requestLogSection,
} from '@secret-push/config';
import { appLinkSection } from './app-link';
import { dataKeysSection } from './data-keys';
import { httpSection, issuerSection } from './http-env';
import { keysSection } from './keys';
import { mailDeliverySection, mailSection } from './email-env';
import { accountsSection, clientThrottleSection, lifetimesSection, loginThrottleSection } from './sign-in';
import { databaseSection, migrateDatabaseSection, redisSection } from './storage-env';

/**
 * The auth service's configuration, section by section (the order of the documentation and of the
 * problems between variables). The operator CLI reads the same.
 */
export const authConfig = defineConfig([
  commonSection,
  requestLogSection,
  databaseSection,
  redisSection,
  httpSection,
  issuerSection,
  keysSection,
  dataKeysSection,
  lifetimesSection,
  clientThrottleSection,
  loginThrottleSection,
  accountsSection,
  mailSection,
  mailDeliverySection,
  brandingSection,
  i18nSection,
  appLinkSection,
]);

/** The service's configuration (also the operator CLI's), from the environment it is given. */
export const loadAuthConfig = (env: NodeJS.ProcessEnv) => authConfig.load(env);

export type AuthConfig = ReturnType<typeof loadAuthConfig>;

/**
 * What `main-migrate.ts` needs: the database URL (AUTH_DATABASE_URL or AUTH_DATABASE_URL_FILE) and
 * the data key ring (AUTH_DATA_KEYS or AUTH_DATA_KEYS_FILE), which seals the TOTP secrets.
 */
export const authMigrateConfig = defineConfig([migrateDatabaseSection, dataKeysSection]);

export const loadAuthMigrateConfig = (env: NodeJS.ProcessEnv) => authMigrateConfig.load(env);

export type AuthMigrateConfig = ReturnType<typeof loadAuthMigrateConfig>;
