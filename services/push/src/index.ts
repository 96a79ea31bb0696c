export { loadPushConfig, type PushConfig } from './config';
export { startPushServer, type PushServer } from './server';
export { runPushMigrations } from './main-migrate';
export { pushMigrations } from './storage/migrations';
export type { PushDatabase } from './storage/database';
