import request from 'supertest';
import type { ClientCredentials, TestAuth } from '@secret-push/auth/testing';
import { startAuth } from '@secret-push/auth/testing';
import type { Logger } from '@secret-push/logger';
import { type TestPush, startPush } from '../../testing';

export interface Harness {
  auth: TestAuth;
  push: TestPush;
  client: ClientCredentials;
  /** A pushes:read pushes:write token of `client`. */
  token: string;
  stop(): Promise<void>;
}

/** A real auth service and a push API using it, with one client and its token. */
export async function harness(
  options: { env?: Record<string, string>; logger?: Logger } = {},
): Promise<Harness> {
  const auth = await startAuth();
  const push = await startPush(auth, options);
  const client = await auth.createClient('pushes:read pushes:write');
  const token = await auth.token(client);
  return {
    auth,
    push,
    client,
    token,
    async stop() {
      await push.stop();
      await auth.stop();
    },
  };
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** POST /api/v2/pushes with `{push: fields}`; 201 expected unless the test checks otherwise. */
export async function createPush(
  url: string,
  fields: Record<string, unknown>,
  token?: string,
): Promise<request.Response> {
  const req = request(url).post('/api/v2/pushes');
  if (token) void req.set(bearer(token));
  return req.send({ push: fields });
}

export async function createdToken(
  url: string,
  fields: Record<string, unknown>,
  token?: string,
): Promise<string> {
  const res = await createPush(url, fields, token);
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { url_token: string }).url_token;
}

export const BASE_KEYS = [
  'url_token',
  'kind',
  'expire_after_days',
  'expire_after_views',
  'expired',
  'expired_on',
  'expires_at',
  'deleted',
  'deletable_by_viewer',
  'retrieval_step',
  'passphrase_protected',
  'days_remaining',
  'views_remaining',
  'created_at',
  'updated_at',
  'json_url',
  'html_url',
].sort();

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Polls `check` every 100 ms until it holds; throws after `timeoutMs`. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}
