export { TEST_DATABASE_PREFIX, freshDatabase, type TestDatabase } from './fresh-database';
export { REDIS_URL, deleteRedisKeys, startPrivateRedis, uniquePrefix, type PrivateRedis } from './redis';
export { freePort } from './free-port';
export { captureLogs, type CapturedLogs } from './capture-logs';
export { S3RVER_CREDENTIALS, s3rverClient, startS3, type LocalS3 } from './s3';
export { startMailCatcher, type CaughtMail, type MailCatcher, type ScriptedFailure } from './mail-catcher';
export { readableTexts, untranslatedText } from './untranslated';
