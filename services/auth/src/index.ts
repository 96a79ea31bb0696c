// Dependencies run one way, from the entry points down; no module imports one above it:
//   main.ts, main-migrate.ts, cli/main.ts        entry points (nothing imports them)
//   server.ts, testing.ts, cli/run-cli.ts         wiring
//   http/        Koa middleware (operations endpoints, throttle check, response fix-ups)
//   interactions/  the sign-in pages (/interaction/:uid) on @koa/router, one file per step; in
//                account/, the account console (/account); their CSRF checks and error pages
//   clients/     client administration (validates metadata through the provider)
//   provider/    oidc-provider: its configuration, sign-in policy, events, the throttle's hook,
//                the pages it renders; never imports http/ or interactions/
//   users/       accounts: email and password rules, the password check of a sign-in
//   policy/      rules with no HTTP in them: the failed-auth and sign-in throttles, client secrets
//   pages/       HTML of the sign-in pages, their CSP and stylesheet; imports nothing of ours
//   observability/  metric definitions
//   storage/     the database: tables, repository, oidc-provider adapter, migrations
//   config.ts, errors.ts, request-state.ts         leaves (config.ts alone reads the environment;
//                request-state.ts declares Koa's ctx.state once)
// Each layer may import those listed below it; storage/ imports neither provider/ nor http/.
export { loadAuthConfig, type AuthConfig } from './config';
export { startAuthServer, type AuthServer } from './server';
export { runAuthMigrations } from './storage/migrations';
export { runCli } from './cli/run-cli';
export type { CliIo } from './cli/cli-io';
export { PUSH_API_AUDIENCE, API_SCOPES, type ApiScope } from './provider/api';
