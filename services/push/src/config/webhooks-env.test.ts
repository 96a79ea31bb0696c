import { randomBytes } from 'node:crypto';
import { ConfigError } from '@secret-push/config';
import { loadWorkerConfig } from '.';

const worker = {
  PUSH_DATABASE_URL: 'postgres://127.0.0.1/push',
  PUSH_REDIS_URL: 'redis://127.0.0.1:6379',
  PUSH_ENCRYPTION_KEYS: `k:${randomBytes(32).toString('base64')}`,
};

function problems(env: Record<string, string>): string[] {
  try {
    loadWorkerConfig({ ...worker, ...env });
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

describe('webhook settings', () => {
  it('defaults: https only, nothing private allowed, a delivery round every second, 8 at once', () => {
    const c = loadWorkerConfig(worker);
    expect(c.webhooks).toEqual({ allowHttp: false, allowedDestinations: [] });
    expect(c.webhookDelivery).toEqual({ intervalMs: 1000, concurrency: 8 });
  });

  it('reads the allow-list of hosts, addresses and CIDRs, and refuses what is none of them', () => {
    const c = loadWorkerConfig({
      ...worker,
      PUSH_WEBHOOK_ALLOW_HTTP: 'true',
      PUSH_WEBHOOK_ALLOWED_DESTINATIONS: '127.0.0.1, 10.1.0.0/16,hooks.internal,fd00::/8',
    });
    expect(c.webhooks).toEqual({
      allowHttp: true,
      allowedDestinations: ['127.0.0.1', '10.1.0.0/16', 'hooks.internal', 'fd00::/8'],
    });
    expect(problems({ PUSH_WEBHOOK_ALLOWED_DESTINATIONS: '10.0.0.0/33' })).toEqual([
      expect.stringMatching(/^PUSH_WEBHOOK_ALLOWED_DESTINATIONS: "10.0.0.0\/33" is neither/),
    ]);
    expect(problems({ PUSH_WEBHOOK_ALLOWED_DESTINATIONS: 'http://x' })).toHaveLength(1);
  });

  it('the worker needs the key ring now (it opens the secrets it signs with)', () => {
    expect(problems({ PUSH_ENCRYPTION_KEYS: '' })).not.toEqual([]);
  });
});
