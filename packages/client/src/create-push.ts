import type { CreateOptions, CreatePushInput } from './client-types.ts';
import { type FileInput, checkFiles, multipartBody } from './multipart.ts';
import { addressList } from './pushes.ts';
import { type Api, apiUrlOf, json } from './request.ts';
import type { OwnedPush } from './types.ts';

/** Whether this is Node (path and Readable inputs, streamed uploads), not a browser. */
const IS_NODE = typeof process !== 'undefined' && typeof process.versions?.node === 'string';

export type BodyOf = () => { body: NonNullable<RequestInit['body']>; headers: Record<string, string> };

/** The input with `notify_emails_to` as the API takes it (one comma-separated string). */
function withAddressList<T extends CreatePushInput>(input: T): T {
  const to = input.notify_emails_to;
  return to === undefined || typeof to === 'string' ? input : { ...input, notify_emails_to: addressList(to) };
}

/** A form field's value: a list (notify_owner_on) goes comma-separated, as forms send it. */
const formValue = (v: unknown) => (Array.isArray(v) ? v.join(',') : String(v));

/**
 * A multipart body of `group[field]` fields and `group[files][]` files, streamed from the files
 * (checked first: every path a readable file). Outside Node (a browser) a body of Blobs is sent
 * as one Blob: browsers stream a request body only over HTTP/2, and report no upload progress for
 * it (`sentWhole` is then its size, for one call of onProgress when the answer has come).
 */
export async function formBody(
  group: string,
  values: Record<string, unknown>,
  files: readonly FileInput[],
  onProgress: ((bytesSent: number) => void) | undefined,
): Promise<{ body: BodyOf; replayable: boolean; sentWhole: number | undefined }> {
  await checkFiles(files);
  const fields = Object.entries(values)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => ({ name: `${group}[${k}]`, value: formValue(v) }));
  const multipart = multipartBody(fields, `${group}[files][]`, files);
  const headers = { 'content-type': multipart.contentType };
  const whole = IS_NODE ? undefined : multipart.blob();
  if (whole) return { body: () => ({ body: whole, headers }), replayable: true, sentWhole: whole.size };
  return {
    body: () => ({ body: multipart.stream(onProgress), headers }),
    replayable: multipart.replayable,
    sentWhole: undefined,
  };
}

/** `POST /pushes`: a text, URL, QR or file push. Sends an Idempotency-Key. */
export async function createPush(
  api: Api,
  input: CreatePushInput,
  call: CreateOptions = {},
): Promise<OwnedPush> {
  // A JSON body, or (with files) a multipart body streamed from the files; either is sent once
  // per attempt, with one Idempotency-Key for all of them.
  let body: BodyOf;
  let replayable: boolean | undefined;
  let sentWhole: number | undefined;
  if (!('files' in input)) {
    const { kind, payload, ...settings } = withAddressList(input);
    const text = JSON.stringify({ push: { kind: kind ?? 'text', payload, ...settings } });
    body = () => ({ body: text, headers: { 'content-type': 'application/json' } });
  } else {
    const { files, payload, kind, ...settings } = withAddressList(input);
    if (files.length === 0) throw new TypeError('A file push needs at least one file');
    const form = await formBody(
      'push',
      { kind: kind ?? 'file', payload, ...settings },
      files,
      call.onProgress,
    );
    ({ body, replayable, sentWhole } = form);
  }
  const res = await api.transport.send({
    ...call,
    method: 'POST',
    url: apiUrlOf(api, '/pushes'),
    retry: 'safe',
    authenticate: true,
    headers: { 'idempotency-key': call.idempotencyKey ?? crypto.randomUUID() },
    ...(replayable !== undefined && { replayable }),
    body,
  });
  if (sentWhole !== undefined) call.onProgress?.(sentWhole);
  return json<OwnedPush>(res);
}
