import { z } from 'zod';

/** Variables every process reads: `NODE_ENV` and `LOG_LEVEL`. Spread into a service's schema. */
export const commonEnv = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
};
