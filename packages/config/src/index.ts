export { ConfigError, parseEnv, readSecretFiles } from './parse-env';
export { envBoolean, envCsv, envInt, envJson } from './env-types';
export { commonEnv } from './common-env';
