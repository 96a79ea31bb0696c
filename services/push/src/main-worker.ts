import { runService } from '@secret-push/runtime';
import { startExpiryWorker } from './worker-server';
import { loadWorkerConfig } from './worker/worker.config';

runService('worker', loadWorkerConfig, startExpiryWorker);
