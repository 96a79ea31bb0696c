import { runService } from '@secret-push/runtime';
import { startWorker } from './worker-server';
import { loadWorkerConfig } from './config';

runService('worker', loadWorkerConfig, startWorker);
