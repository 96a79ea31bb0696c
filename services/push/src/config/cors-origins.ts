import { envCsv } from '@secret-push/config';

/**
 * The web origins whose pages may call the API from a browser (CORS): exact origins, each
 * `scheme://host[:port]` as a browser sends it in `Origin` (http or https, lower-case host, no
 * default port, path, query, credentials or trailing slash), so that matching is a plain string
 * comparison. A wildcard is refused: every origin is listed. Each entry is checked here, so a typo
 * stops the start-up instead of never matching.
 */
export const corsOrigins = () =>
  envCsv().superRefine((entries, ctx) => {
    for (const entry of entries) {
      if (entry.includes('*')) {
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}": wildcards are not accepted; list each origin (e.g. https://app.example.com)`,
        });
        continue;
      }
      let origin: string | undefined;
      try {
        const url = new URL(entry);
        if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
      } catch {
        // not a URL: reported below
      }
      if (origin === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}" is not an http(s) origin (e.g. https://app.example.com, http://localhost:5173)`,
        });
      } else if (origin !== entry) {
        ctx.addIssue({
          code: 'custom',
          message:
            `"${entry}" must be written as the origin ${origin} (scheme://host[:port]: no path, ` +
            'query, credentials, default port or trailing slash, as browsers send it)',
        });
      }
    }
  });
