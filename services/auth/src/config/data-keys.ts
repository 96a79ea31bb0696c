import { commonEnv, envSection } from '@secret-push/config';
import { developmentKeyProblems, envKeyRing } from '@secret-push/key-ring';

const vars = {
  NODE_ENV: commonEnv.NODE_ENV,
  AUTH_DATA_KEYS: envKeyRing().describe(
    'The data key ring: `id:base64key[,id:base64key…]`, 32-byte AES-256-GCM keys that seal data at ' +
      'rest (the TOTP secrets, and the one waiting for its enrolment code). The first seals; every ' +
      'key opens (rotation: docs/operations.md). Required, by the service and by the migrate command; ' +
      'ids starting `dev-` are refused in production. `secret-push-auth keys data` prints one.',
  ),
};

/** The data key ring: `dataKeys`. The service and its migrations read the same. */
export const dataKeysSection = envSection('Data key', vars, (v) => ({ dataKeys: v.AUTH_DATA_KEYS }), {
  secretFiles: ['AUTH_DATA_KEYS'],
  check: (v) => developmentKeyProblems('AUTH_DATA_KEYS', v.NODE_ENV, v.AUTH_DATA_KEYS),
});
