import { runService } from '@secret-push/runtime';
import { startExpiryWorker } from './worker-server';
import { loadWorkerConfig } from './config';

runService('worker', loadWorkerConfig, startExpiryWorker);
