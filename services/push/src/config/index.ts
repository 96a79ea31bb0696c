export {
  type PushCliConfig,
  type PushConfig,
  type PushMigrateConfig,
  loadPushCliConfig,
  loadPushConfig,
  loadPushMigrateConfig,
  pushCliConfig,
  pushConfig,
  pushMigrateConfig,
} from './push';
export { type WorkerConfig, MAX_BATCHES_PER_TICK, loadWorkerConfig, workerConfig } from './worker-env';
export type { S3Config } from './storage-env';
