import type { ClientOptions, SecretPushClient } from './client-types.ts';
import { createPush } from './create-push.ts';
import { download, downloadNode } from './downloads.ts';
import { pushList } from './pages.ts';
import { auditEntries, auditPage, expirePush, notifyEmails, previewPush, retrievePush } from './pushes.ts';
import { apiUrlOf, createApi, json } from './request.ts';
import type { Version } from './types.ts';
import { requestAdmin } from './requests.ts';
import { webhookAdmin } from './webhook-admin.ts';

/*
 * createClient: the SecretPushClient, assembled from the modules of each group of calls over one
 * base (request.ts): create-push.ts, pushes.ts (retrieve, preview, expire, audit, notify emails), pages.ts (the
 * lists), downloads.ts (files), webhook-admin.ts (webhook endpoints),
 * requests.ts (requests). The types are in client-types.ts.
 */

export function createClient(options: ClientOptions): SecretPushClient {
  const api = createApi(options);
  const { auth } = options;
  return {
    apiUrl: api.apiUrl,
    async version(call = {}) {
      const res = await api.transport.send({
        ...call,
        method: 'GET',
        url: apiUrlOf(api, '/version'),
        retry: 'safe',
        authenticate: false,
      });
      return json<Version>(res);
    },

    async accessToken(call = {}) {
      if (auth && 'token' in auth) return { token: auth.token };
      const { token, expiresAt, scope } = await api.transport.currentToken(call, call.fresh ?? false);
      return { token, ...(expiresAt && { expiresAt }), ...(scope !== undefined && { scope }) };
    },

    create: (input, call) => createPush(api, input, call),
    retrieve: (urlToken, call) => retrievePush(api, urlToken, call),
    preview: (urlToken, call) => previewPush(api, urlToken, call),
    audit: (urlToken, call) => auditPage(api, urlToken, call),
    auditEntries: (urlToken, call) => auditEntries(api, urlToken, call),
    notifyEmails: (urlToken, recipients, call) => notifyEmails(api, urlToken, recipients, call),
    expire: (urlToken, call) => expirePush(api, urlToken, call),
    active: (call) => pushList(api, '/pushes/active', call),
    expired: (call) => pushList(api, '/pushes/expired', call),
    download: (file, call) => download(api, file, call),
    downloadNode: (file, call) => downloadNode(api, file, call),
    webhooks: webhookAdmin(api),
    requests: requestAdmin(api),
  };
}
