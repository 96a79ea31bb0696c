import { envInt, envSection } from '@secret-push/config';

const MIB = 1024 * 1024;

/** The files of requests (the requester's attachments and the answers' files): `requestFiles`. */
export const requestFilesSection = envSection(
  'Request files',
  {
    PUSH_REQUESTS_MAX_TOTAL_FILE_BYTES: envInt(1, 50 * 1024 * MIB)
      .default(256 * MIB)
      .describe(
        "Size of all files of one request's answer, and of all files the requester attaches (more → " +
          '413). Anonymous answers may carry files even where file pushes need authentication: this ' +
          "is what bounds them. The instance's `PUSH_FILES_*` count and per-file limits apply too, " +
          'and the smaller total wins',
      )
      .meta({ defaultText: '`268435456` (256 MiB)' }),
  },
  (v) => ({ requestFiles: { maxTotalBytes: v.PUSH_REQUESTS_MAX_TOTAL_FILE_BYTES } }),
);
