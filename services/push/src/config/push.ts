import {
  brandingSection,
  commonSection,
  defineConfig,
  i18nSection,
  requestLogSection,
} from '@secret-push/config';
import { introspectionSection, personalTokenSection, signInSection } from './auth';
import { emailLimitsSection, pushSmtpSection } from './email-env';
import { encryptionKeysSection } from './encryption-keys';
import { httpSection } from './http-env';
import { featuresSection, filesSection, limitsSection } from './pushes';
import { idempotencySection, rateLimitsSection } from './rate-limits';
import { requestCodesSection } from './request-codes';
import { requestFilesSection } from './request-files';
import { revealsSection } from './reveals';
import { webFormSection } from './web-form';
import { webhookDestinationsSection } from './webhooks-env';
import {
  apiDatabaseSection,
  cliDatabaseSection,
  migrateDatabaseSection,
  redisSection,
  s3Section,
} from './storage-env';

/**
 * The push API's configuration, section by section (the order of the documentation and of the
 * problems between variables).
 */
export const pushConfig = defineConfig([
  commonSection,
  requestLogSection,
  apiDatabaseSection,
  redisSection,
  s3Section,
  httpSection,
  introspectionSection,
  personalTokenSection,
  signInSection,
  encryptionKeysSection,
  featuresSection,
  limitsSection,
  filesSection,
  requestFilesSection,
  requestCodesSection,
  rateLimitsSection,
  idempotencySection,
  revealsSection,
  webFormSection,
  pushSmtpSection,
  emailLimitsSection,
  webhookDestinationsSection,
  brandingSection,
  i18nSection,
]);

/** The push API's configuration (`main-api.ts`). */
export const loadPushConfig = (env: NodeJS.ProcessEnv) => pushConfig.load(env);

export type PushConfig = ReturnType<typeof loadPushConfig>;

/**
 * What `main-migrate.ts` needs: the database URL alone (PUSH_DATABASE_URL or
 * PUSH_DATABASE_URL_FILE); the job's other variables (the push ConfigMap) are ignored.
 */
export const pushMigrateConfig = defineConfig([migrateDatabaseSection]);

export const loadPushMigrateConfig = (env: NodeJS.ProcessEnv) => pushMigrateConfig.load(env);

export type PushMigrateConfig = ReturnType<typeof loadPushMigrateConfig>;

/**
 * What the operator CLI (`secret-push-push`, cli/run-cli.ts) needs: the database alone (with its
 * connect and statement deadlines); the service's other variables are ignored, so it runs with the
 * push ConfigMap or without it.
 */
export const pushCliConfig = defineConfig([cliDatabaseSection]);

export const loadPushCliConfig = (env: NodeJS.ProcessEnv) => pushCliConfig.load(env);

export type PushCliConfig = ReturnType<typeof loadPushCliConfig>;
