import type { RequestHandler } from 'express';
import type { PushConfig } from '../config';

/** `GET /version`: the application and API versions and the instance's features, from its configuration. Public; tokens are ignored here. */
export function versionBody(
  applicationVersion: string,
  features: PushConfig['features'],
  email: { emailAutoDispatch: boolean } = { emailAutoDispatch: false },
) {
  return {
    application_version: applicationVersion,
    api_version: '2.1',
    // Requests are Password Pusher Pro's (its clients look for `commercial` before using them).
    edition: features.requestsEnabled ? 'commercial' : 'oss',
    features: {
      anonymous_access: features.anonymousAccess,
      api_token_authentication: true,
      accounts: { enabled: false },
      pushes: {
        enabled: features.pushesEnabled,
        // True exactly when SMTP is configured (PUSH_SMTP_URL): links are emailed by the worker.
        email_auto_dispatch: email.emailAutoDispatch,
        file_attachments: {
          enabled: features.filePushes,
          requires_authentication: features.filePushesRequireAuth,
        },
        url_pushes: { enabled: features.urlPushes },
        qr_code_pushes: { enabled: features.qrPushes },
      },
      requests: { enabled: features.requestsEnabled, email_auto_dispatch: email.emailAutoDispatch },
    },
  };
}

/**
 * The answer never changes while the process runs, so it is serialized once: clients poll
 * /version for feature detection, and `res.json` re-serialized the object and re-parsed its own
 * Content-Type on every call (~8% of the endpoint's profile).
 */
export function versionHandler(body: ReturnType<typeof versionBody>): RequestHandler {
  const json = Buffer.from(JSON.stringify(body));
  const length = String(json.length);
  return (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', length);
    res.end(json);
  };
}
