import type { NotifyEmailsOptions, PageOptions, RetrieveOptions } from './client-types.ts';
import { PushExpiredError } from './errors.ts';
import { paged } from './pages.ts';
import { type Api, apiUrlOf, getJson, json, pushPath } from './request.ts';
import type { CallOptions } from './transport.ts';
import type { AuditEntry, AuditLog, NotifyEmailsResult, Preview, Push, RetrievedPush } from './types.ts';

/*
 * The calls on one push, by its URL token: retrieve (uses a view), preview, expire, the audit
 * log and emailing its link. (Creating is in create-push.ts, the lists in pages.ts, the files in downloads.ts.)
 */

/** `GET /pushes/:token` (or `POST …/reveal` with a passphrase). **Uses a view.** */
export async function retrievePush(
  api: Api,
  urlToken: string,
  call: RetrieveOptions = {},
): Promise<RetrievedPush> {
  const path = pushPath(urlToken);
  const { passphrase, revealId, ...callOptions } = call;
  const res =
    passphrase === undefined
      ? await api.transport.send({
          ...callOptions,
          method: 'GET',
          url: apiUrlOf(api, path),
          retry: 'retrieve',
          authenticate: true,
        })
      : await api.transport.send({
          ...callOptions,
          method: 'POST',
          url: apiUrlOf(api, `${path}/reveal`),
          retry: 'retrieve',
          authenticate: true,
          // One reveal id for every attempt of this call: a repeat spends no second view.
          headers: { 'idempotency-key': revealId ?? crypto.randomUUID() },
          body: () => ({
            body: JSON.stringify({ passphrase }),
            headers: { 'content-type': 'application/json' },
          }),
        });
  const push = await json<RetrievedPush>(res);
  // The expired answer is a 200 with no payload and no files; the last view has them.
  if (
    (call.expired ?? 'throw') === 'throw' &&
    push.expired &&
    push.payload === null &&
    push.files.length === 0
  ) {
    throw new PushExpiredError({
      status: res.status,
      code: 'expired',
      message: 'The push has expired: it can no longer be viewed.',
      requestId: res.headers.get('x-request-id') ?? undefined,
    });
  }
  return push;
}

/** `GET /pushes/:token/preview`. A bad token throws at once (the call is not async). */
export const previewPush = (api: Api, urlToken: string, call?: CallOptions) =>
  getJson<Preview>(api, `${pushPath(urlToken)}/preview`, call);

/** `GET /pushes/:token/audit`: one page. A bad token throws at once (the call is not async). */
export const auditPage = (api: Api, urlToken: string, call: CallOptions & { page?: number } = {}) =>
  getJson<AuditLog>(api, `${pushPath(urlToken)}/audit`, call, { page: call.page ?? 1 });

/** Every entry of the audit log, page after page. */
export function auditEntries(api: Api, urlToken: string, call: PageOptions = {}): AsyncIterable<AuditEntry> {
  const pages = paged<AuditEntry>(
    api,
    `${pushPath(urlToken)}/audit`,
    call,
    (body) => (body as AuditLog).logs,
  );
  return {
    async *[Symbol.asyncIterator]() {
      for await (const page of pages) yield* page;
    },
  };
}

/** `DELETE /pushes/:token`: expires the push now. */
export async function expirePush(api: Api, urlToken: string, call: CallOptions = {}): Promise<Push> {
  const res = await api.transport.send({
    ...call,
    method: 'DELETE',
    url: apiUrlOf(api, pushPath(urlToken)),
    retry: 'safe',
    authenticate: true,
  });
  return json<Push>(res);
}

/** Addresses as the API takes them: one comma-separated string. */
export const addressList = (recipients: string | readonly string[]): string =>
  typeof recipients === 'string' ? recipients : recipients.join(', ');

/**
 * `POST /pushes/:token/notify_emails`. Never repeated: each accepted call queues emails (and
 * counts against the push's 5 recipients and the owner's limits), so a repeat after a lost answer
 * could send twice. A bad token throws at once.
 */
export async function notifyEmails(
  api: Api,
  urlToken: string,
  recipients: string | readonly string[],
  call: NotifyEmailsOptions = {},
): Promise<NotifyEmailsResult> {
  const path = `${pushPath(urlToken)}/notify_emails`;
  const { locale, ...callOptions } = call;
  const text = JSON.stringify({
    notify_emails_to: addressList(recipients),
    ...(locale !== undefined ? { notify_emails_to_locale: locale } : {}),
  });
  const res = await api.transport.send({
    ...callOptions,
    method: 'POST',
    url: apiUrlOf(api, path),
    retry: 'never',
    authenticate: true,
    body: () => ({ body: text, headers: { 'content-type': 'application/json' } }),
  });
  return json<NotifyEmailsResult>(res);
}
