export { ConfigError, parseEnv, readSecretFiles } from './parse-env';
export { envBoolean, envCsv, envInt, envJson } from './env-types';
export { commonEnv, commonSection, requestLogSection, statementDeadlineProblems } from './common-env';
export { type ConfigOf, type EnvConfig, type EnvSection, defineConfig, envSection } from './env-config';
export { type EnvVarDoc, documentVariables, renderEnvTable } from './env-docs';
export { brandingSection } from './branding-env';
export { i18nSection } from './i18n-env';
