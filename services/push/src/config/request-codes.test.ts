import { randomBytes } from 'node:crypto';
import { ConfigError } from '@secret-push/config';
import { loadPushConfig } from '.';
import { DEFAULT_CODE_LIMITS, codeSentMessage } from '../domain/request-codes';

const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
const base = {
  PUSH_DATABASE_URL: 'postgres://u@db/push',
  PUSH_REDIS_URL: 'redis://r:6379',
  PUSH_AUTH_URL: 'http://auth:4000/',
  PUSH_INTROSPECTION_CLIENT_ID: 'spc_rs',
  PUSH_INTROSPECTION_CLIENT_SECRET: 's',
  PUSH_ENCRYPTION_KEYS: key('k1'),
};

function problems(env: Record<string, string>): string[] {
  try {
    loadPushConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

describe('PUSH_REQUEST_CODE_*', () => {
  it("defaults to today's limits: 15 minutes, 5 attempts, a resend a minute, 10 per IP and 15 per request in 10 minutes", () => {
    expect(loadPushConfig(base).requestCodes).toEqual({
      ttlSeconds: 900,
      maxAttempts: 5,
      resendSeconds: 60,
      requestsPerIp: 10,
      requestsPerRequest: 15,
      rateWindowSeconds: 600,
    });
    expect(loadPushConfig(base).requestCodes).toEqual(DEFAULT_CODE_LIMITS);
  });

  it('reads each one', () => {
    const c = loadPushConfig({
      ...base,
      PUSH_REQUEST_CODE_TTL_SECONDS: '300',
      PUSH_REQUEST_CODE_MAX_ATTEMPTS: '3',
      PUSH_REQUEST_CODE_RESEND_SECONDS: '30',
      PUSH_REQUEST_CODE_REQUESTS_PER_IP: '50',
      PUSH_REQUEST_CODE_REQUESTS_PER_REQUEST: '40',
      PUSH_REQUEST_CODE_RATE_WINDOW_SECONDS: '3600',
    });
    expect(c.requestCodes).toEqual({
      ttlSeconds: 300,
      maxAttempts: 3,
      resendSeconds: 30,
      requestsPerIp: 50,
      requestsPerRequest: 40,
      rateWindowSeconds: 3600,
    });
  });

  it('refuses values outside the secure bounds, every problem at once', () => {
    const found = problems({
      ...base,
      PUSH_REQUEST_CODE_TTL_SECONDS: '86400',
      PUSH_REQUEST_CODE_MAX_ATTEMPTS: '0',
      PUSH_REQUEST_CODE_RESEND_SECONDS: '1',
      PUSH_REQUEST_CODE_REQUESTS_PER_IP: '0',
      PUSH_REQUEST_CODE_REQUESTS_PER_REQUEST: 'many',
      PUSH_REQUEST_CODE_RATE_WINDOW_SECONDS: '10',
    });
    for (const name of [
      'PUSH_REQUEST_CODE_TTL_SECONDS',
      'PUSH_REQUEST_CODE_MAX_ATTEMPTS',
      'PUSH_REQUEST_CODE_RESEND_SECONDS',
      'PUSH_REQUEST_CODE_REQUESTS_PER_IP',
      'PUSH_REQUEST_CODE_REQUESTS_PER_REQUEST',
      'PUSH_REQUEST_CODE_RATE_WINDOW_SECONDS',
    ]) {
      expect(found.some((p) => p.includes(name))).toBe(true);
    }
    expect(problems({ ...base, PUSH_REQUEST_CODE_MAX_ATTEMPTS: '11' })).toHaveLength(1);
  });

  it('says the validity in whole minutes', () => {
    expect(codeSentMessage(900)).toContain('valid for 15 minutes');
    expect(codeSentMessage(90)).toContain('valid for 2 minutes');
  });
});
