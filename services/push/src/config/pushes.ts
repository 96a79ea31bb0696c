import { envBoolean, envInt, envSection } from '@secret-push/config';
import { s3Section } from './storage-env';

const MIB = 1024 * 1024;

const on = (text: string) => envBoolean().default(true).describe(text);

/** What the instance offers: `features`. */
export const featuresSection = envSection(
  'Features',
  {
    PUSH_S3_BUCKET: s3Section.vars.PUSH_S3_BUCKET,
    PUSH_ANONYMOUS_ACCESS: on(
      'Allow anonymous create (text, URL, QR), retrieve, preview and viewer DELETE. `false`: every ' +
        'endpoint but `/version` needs a token.',
    ),
    PUSH_PUSHES_ENABLED: on('Push API on/off (`features.pushes.enabled`)'),
    PUSH_REQUESTS_ENABLED: on(
      'Requests API and pages on/off (`features.requests.enabled`; `/version` says edition `commercial` while on)',
    ),
    PUSH_URL_PUSHES_ENABLED: on('Pushes of kind `url`'),
    PUSH_QR_PUSHES_ENABLED: on('Pushes of kind `qr`'),
    PUSH_FILE_PUSHES_ENABLED: envBoolean()
      .optional()
      .describe('File pushes (`features.pushes.file_attachments.enabled`); `true` needs `PUSH_S3_BUCKET`')
      .meta({ defaultText: '`true` when `PUSH_S3_BUCKET` is set' }),
    PUSH_FILE_PUSHES_REQUIRE_AUTH: on(
      "File pushes need a token, or in the web app's form a signed-in person (anonymous uploads → 401 " +
        'over the API, a 403 page in the form, before any byte is stored; the form offers Files only ' +
        'to whom may create them)',
    ),
  },
  (v) => ({
    features: {
      anonymousAccess: v.PUSH_ANONYMOUS_ACCESS,
      pushesEnabled: v.PUSH_PUSHES_ENABLED,
      requestsEnabled: v.PUSH_REQUESTS_ENABLED,
      urlPushes: v.PUSH_URL_PUSHES_ENABLED,
      qrPushes: v.PUSH_QR_PUSHES_ENABLED,
      // On by default wherever an object store is configured.
      filePushes: v.PUSH_FILE_PUSHES_ENABLED ?? v.PUSH_S3_BUCKET !== undefined,
      filePushesRequireAuth: v.PUSH_FILE_PUSHES_REQUIRE_AUTH,
    },
  }),
  {
    check: (v) =>
      v.PUSH_FILE_PUSHES_ENABLED === true && !v.PUSH_S3_BUCKET
        ? ['PUSH_FILE_PUSHES_ENABLED: file pushes need an object store (set PUSH_S3_BUCKET)']
        : [],
  },
);

const rangeProblems = (what: string, min: number, def: number, max: number) =>
  min <= def && def <= max
    ? []
    : [`PUSH_${what}_DEFAULT: must lie within PUSH_${what}_MIN and PUSH_${what}_MAX`];

/** A push's expiry window and defaults: `limits`. */
export const limitsSection = envSection(
  'Push limits and defaults',
  {
    PUSH_EXPIRE_AFTER_DAYS_DEFAULT: envInt(1, 3650).default(7).describe('Day window when not sent'),
    PUSH_EXPIRE_AFTER_DAYS_MIN: envInt(1, 3650).default(1).describe('Shortest day window'),
    PUSH_EXPIRE_AFTER_DAYS_MAX: envInt(1, 3650).default(90).describe('Longest day window'),
    PUSH_EXPIRE_AFTER_VIEWS_DEFAULT: envInt(1, 10_000).default(5).describe('View limit when not sent'),
    PUSH_EXPIRE_AFTER_VIEWS_MIN: envInt(1, 10_000).default(1).describe('Lowest view limit'),
    PUSH_EXPIRE_AFTER_VIEWS_MAX: envInt(1, 10_000).default(100).describe('Highest view limit'),
    PUSH_RETRIEVAL_STEP_DEFAULT: on('`retrieval_step` when not sent'),
    PUSH_DELETABLE_BY_VIEWER_DEFAULT: on('`deletable_by_viewer` when not sent (URL pushes: always `null`)'),
    PUSH_MAX_AUDIT_ENTRIES: envInt(10, 1_000_000)
      .default(2000)
      .describe(
        'Audit entries stored per push; further failed views, failed passphrases and page opens are only counted',
      ),
  },
  (v) => ({
    limits: {
      days: {
        default: v.PUSH_EXPIRE_AFTER_DAYS_DEFAULT,
        min: v.PUSH_EXPIRE_AFTER_DAYS_MIN,
        max: v.PUSH_EXPIRE_AFTER_DAYS_MAX,
      },
      views: {
        default: v.PUSH_EXPIRE_AFTER_VIEWS_DEFAULT,
        min: v.PUSH_EXPIRE_AFTER_VIEWS_MIN,
        max: v.PUSH_EXPIRE_AFTER_VIEWS_MAX,
      },
      retrievalStepDefault: v.PUSH_RETRIEVAL_STEP_DEFAULT,
      deletableByViewerDefault: v.PUSH_DELETABLE_BY_VIEWER_DEFAULT,
      maxAuditEntries: v.PUSH_MAX_AUDIT_ENTRIES,
    },
  }),
  {
    check: (v) => [
      ...rangeProblems(
        'EXPIRE_AFTER_DAYS',
        v.PUSH_EXPIRE_AFTER_DAYS_MIN,
        v.PUSH_EXPIRE_AFTER_DAYS_DEFAULT,
        v.PUSH_EXPIRE_AFTER_DAYS_MAX,
      ),
      ...rangeProblems(
        'EXPIRE_AFTER_VIEWS',
        v.PUSH_EXPIRE_AFTER_VIEWS_MIN,
        v.PUSH_EXPIRE_AFTER_VIEWS_DEFAULT,
        v.PUSH_EXPIRE_AFTER_VIEWS_MAX,
      ),
    ],
  },
);

/** The files of file pushes: `files`. */
export const filesSection = envSection(
  'Files',
  {
    PUSH_FILES_MAX_COUNT: envInt(1, 1000).default(10).describe('Files per push (more → 422)'),
    PUSH_FILES_MAX_FILE_BYTES: envInt(1, 5 * 1024 * MIB)
      .default(256 * MIB)
      .describe('Size of one file (more → 413)')
      .meta({ defaultText: '`268435456` (256 MiB)' }),
    PUSH_FILES_MAX_TOTAL_BYTES: envInt(1, 50 * 1024 * MIB)
      .default(1024 * MIB)
      .describe('Size of all files of a push (more → 413)')
      .meta({ defaultText: '`1073741824` (1 GiB)' }),
    PUSH_FILES_GRACE_SECONDS: envInt(1, 86_400)
      .default(600)
      .describe(
        'After the last view of a file push, how long its download links work before the files are ' +
          "purged (1–86400; never past the push's window; at least 1: with 0, the files of a push's " +
          'last view could never be downloaded)',
      ),
    PUSH_FILES_DOWNLOADS_PER_VIEW: envInt(1, 100)
      .default(3)
      .describe('Downloads of each file under one counted view'),
  },
  (v) => ({
    files: {
      maxCount: v.PUSH_FILES_MAX_COUNT,
      maxFileBytes: v.PUSH_FILES_MAX_FILE_BYTES,
      maxTotalBytes: v.PUSH_FILES_MAX_TOTAL_BYTES,
      graceSeconds: v.PUSH_FILES_GRACE_SECONDS,
      downloadsPerView: v.PUSH_FILES_DOWNLOADS_PER_VIEW,
    },
  }),
  {
    check: (v) =>
      v.PUSH_FILES_MAX_FILE_BYTES > v.PUSH_FILES_MAX_TOTAL_BYTES
        ? ['PUSH_FILES_MAX_FILE_BYTES: must not exceed PUSH_FILES_MAX_TOTAL_BYTES']
        : [],
  },
);
