import { runService } from '@secret-push/runtime';
import { loadAuthConfig } from './config';
import { startAuthServer } from './server';

runService('auth', loadAuthConfig, startAuthServer);
