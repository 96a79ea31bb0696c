import { Router } from 'express';
import type { PushConfig } from '../config';

/** The version object of DESIGN §4.8, from instance configuration. Public; tokens are ignored here. */
export function versionBody(applicationVersion: string, features: PushConfig['features']) {
  return {
    application_version: applicationVersion,
    api_version: '2.1',
    edition: 'oss',
    features: {
      anonymous_access: features.anonymousAccess,
      api_token_authentication: true,
      accounts: { enabled: false },
      pushes: {
        enabled: features.pushesEnabled,
        email_auto_dispatch: false,
        file_attachments: {
          enabled: features.filePushes,
          requires_authentication: features.filePushesRequireAuth,
        },
        url_pushes: { enabled: features.urlPushes },
        qr_code_pushes: { enabled: features.qrPushes },
      },
      requests: { enabled: false },
    },
  };
}

export function versionRoutes(body: ReturnType<typeof versionBody>): Router {
  const router = Router();
  router.get('/version', (_req, res) => {
    res.json(body);
  });
  return router;
}
