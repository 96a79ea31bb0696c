import { runService } from '@secret-push/runtime';
import { startExpiryWorker } from './worker/worker-service';
import { loadWorkerConfig } from './worker/worker.config';

runService('worker', loadWorkerConfig, startExpiryWorker);
