import { randomBytes } from 'node:crypto';
import { ConfigError } from '@secret-push/config';
import { loadPushConfig } from '.';

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
    loadPushConfig({ ...base, ...env });
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

describe('the web forms’ presets (PUSH_WEB_*)', () => {
  it('defaults to 1 hour, 1 day, 3 days, 1 week (3 days chosen) and 1, 2, 5 views (2 chosen); the API keeps 7 days / 5 views', () => {
    const c = loadPushConfig(base);
    expect(c.webForm).toEqual({
      durations: [
        { name: '1h', seconds: 3600 },
        { name: '1d', seconds: 86_400 },
        { name: '3d', seconds: 3 * 86_400 },
        { name: '1w', seconds: 7 * 86_400 },
      ],
      defaultDuration: '3d',
      views: [1, 2, 5],
      defaultViews: 2,
    });
    expect(c.limits.days.default).toBe(7);
    expect(c.limits.views.default).toBe(5);
  });

  it('takes the operator’s lists (sorted, without repeats) and secure defaults', () => {
    const c = loadPushConfig({
      ...base,
      PUSH_WEB_DURATION_PRESETS: '1d, 15m,1d,12h',
      PUSH_WEB_DEFAULT_DURATION: '1d',
      PUSH_WEB_VIEW_PRESETS: '3,1',
      PUSH_WEB_DEFAULT_VIEWS: '1',
    });
    expect(c.webForm.durations.map((d) => d.name)).toEqual(['15m', '12h', '1d']);
    expect(c.webForm).toMatchObject({ defaultDuration: '1d', views: [1, 3], defaultViews: 1 });
  });

  it('refuses unknown durations, defaults outside the lists and presets outside the API’s bounds, naming each', () => {
    expect(problems({ PUSH_WEB_DURATION_PRESETS: '1h,2h' })).toEqual([
      expect.stringMatching(/^PUSH_WEB_DURATION_PRESETS: 2h: each must be one of 15m, /),
    ]);
    expect(problems({ PUSH_WEB_DEFAULT_DURATION: '2w' })).toEqual([
      'PUSH_WEB_DEFAULT_DURATION: must be one of PUSH_WEB_DURATION_PRESETS',
    ]);
    expect(
      problems({
        PUSH_WEB_DURATION_PRESETS: '1d,30d',
        PUSH_WEB_DEFAULT_DURATION: '1d',
        PUSH_EXPIRE_AFTER_DAYS_MAX: '14',
      }),
    ).toEqual(['PUSH_WEB_DURATION_PRESETS: 30d is longer than PUSH_EXPIRE_AFTER_DAYS_MAX']);
    expect(problems({ PUSH_WEB_VIEW_PRESETS: '1,2,500' })).toEqual([
      'PUSH_WEB_VIEW_PRESETS: 500 is outside PUSH_EXPIRE_AFTER_VIEWS_MIN and PUSH_EXPIRE_AFTER_VIEWS_MAX',
    ]);
    expect(problems({ PUSH_WEB_DEFAULT_VIEWS: '3' })).toEqual([
      'PUSH_WEB_DEFAULT_VIEWS: must be one of PUSH_WEB_VIEW_PRESETS',
    ]);
    expect(problems({ PUSH_WEB_VIEW_PRESETS: 'one' })).toEqual([
      'PUSH_WEB_VIEW_PRESETS: one: each must be a whole number',
    ]);
    expect(problems({ PUSH_WEB_VIEW_PRESETS: ' , ' })).toEqual([
      expect.stringMatching(/^PUSH_WEB_VIEW_PRESETS: .*at least one/),
    ]);
  });
});
