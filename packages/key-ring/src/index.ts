export { DecryptionError, KeyRing, type Sealed } from './key-ring';
export { DEV_KEY_ID_PREFIX, type RingKey, developmentKeyProblems, envKeyRing } from './key-ring-env';
export { pooledRandomBytes } from './random-pool';
