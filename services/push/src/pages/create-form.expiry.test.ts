import { HttpError } from '@secret-push/http-kit';
import { DEFAULT_WEB_FORM } from '../config/web-form';
import { pushI18n } from '../languages';
import { durationLabel, expiryOf } from './create-form.expiry';

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return err instanceof HttpError ? err.options.fields : err;
  }
  throw new Error('not refused');
};

// The catalogues: outside a request, the default language (English).
beforeAll(() => {
  pushI18n();
});

describe('the forms\u2019 expiry', () => {
  it('names presets as people read them', () => {
    expect(['15m', '1h', '12h', '1d', '3d', '1w', '2w', '30d'].map(durationLabel)).toEqual([
      '15 minutes',
      '1 hour',
      '12 hours',
      '1 day',
      '3 days',
      '1 week',
      '2 weeks',
      '30 days',
    ]);
  });

  it('a preset is the API\u2019s expire_after_duration, Custom (or no preset at all) the number fields', () => {
    expect(expiryOf({ duration: '1h', views: '1', expire_after_days: '9' }, DEFAULT_WEB_FORM)).toEqual({
      expire_after_duration: 3,
      expire_after_views: 1,
    });
    expect(expiryOf({ duration: '1w', views: '5' }, DEFAULT_WEB_FORM)).toEqual({
      expire_after_duration: 12,
      expire_after_views: 5,
    });
    const custom = { expire_after_days: '4', expire_after_views: '7' };
    expect(expiryOf({ duration: 'custom', views: 'custom', ...custom }, DEFAULT_WEB_FORM)).toEqual(custom);
    expect(expiryOf(custom, DEFAULT_WEB_FORM)).toEqual(custom);
  });

  it('refuses presets the instance does not offer, naming the field', () => {
    expect(refusal(() => expiryOf({ duration: '90d', views: '1' }, DEFAULT_WEB_FORM))).toEqual({
      duration: ['Choose how long the link works.'],
    });
    expect(refusal(() => expiryOf({ duration: '1d', views: '3' }, DEFAULT_WEB_FORM))).toEqual({
      views: ['Choose how many views it allows.'],
    });
    expect(refusal(() => expiryOf({ duration: 'constructor', views: '1e1' }, DEFAULT_WEB_FORM))).toEqual({
      duration: ['Choose how long the link works.'],
      views: ['Choose how many views it allows.'],
    });
  });
});
