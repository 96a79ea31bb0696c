export {
  type AuthConfig,
  type AuthMigrateConfig,
  authConfig,
  authMigrateConfig,
  loadAuthConfig,
  loadAuthMigrateConfig,
} from './auth';
export { DEV_KEY_PREFIX, type Jwks } from './keys';
