import { runService } from '@secret-push/runtime';
import { loadPushConfig } from './config';
import { startPushServer } from './server';

runService('push', loadPushConfig, (config, logger) => startPushServer(config, logger));
