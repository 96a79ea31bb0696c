export { loadAuthConfig, type AuthConfig } from './config';
export { startAuthServer, type AuthServer } from './server';
export { runAuthMigrations } from './main-migrate';
export { runCli, type CliIo } from './cli/run-cli';
export { PUSH_API_AUDIENCE, API_SCOPES, type ApiScope } from './provider/api';
