import { envBoolean, envInt, envSection } from '@secret-push/config';

/** Retry-safe reveals (domain/reveal-retry.ts): `reveals`. */
export const revealsSection = envSection(
  'Reveals',
  {
    PUSH_REVEAL_RETRY_SECONDS: envInt(1, 3600)
      .default(120)
      .describe(
        "How long a reveal id (the recipient page's, or an `Idempotency-Key` on `POST /pushes/:url_token/reveal`) " +
          'is remembered after its view (1 s to 1 hour): a repeat within it gets the same content without ' +
          'spending another view',
      ),
    PUSH_REVEAL_RETRY_LAST_VIEW: envBoolean()
      .default(false)
      .describe(
        'Whether a repeat of the **last** view is answered too: this keeps a sealed copy of the payload in ' +
          'Redis after the wipe, for `PUSH_REVEAL_RETRY_SECONDS`. Off: a repeat of the last view is answered ' +
          'as expired',
      ),
  },
  (v) => ({
    reveals: { retrySeconds: v.PUSH_REVEAL_RETRY_SECONDS, retryLastView: v.PUSH_REVEAL_RETRY_LAST_VIEW },
  }),
);
