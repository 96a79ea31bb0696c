import { createClient, type SecretPushClient } from '@secret-push/client';
import { VERSION } from './about.ts';
import { type SavedConfig, configPath, loadConfig } from './config.ts';
import { UsageError } from './errors.ts';
import type { Io } from './io.ts';
import type { PushRef } from './links.ts';

/** Where to connect and with what: from flags, the environment and the saved config. */
export interface Settings {
  url: string | undefined;
  authUrl: string | undefined;
  credentials: { clientId: string; clientSecret: string } | { token: string } | undefined;
  /** `--insecure`: plain http:// URLs off this machine are allowed (never saved). */
  insecure: boolean;
  path: string;
  saved: SavedConfig;
}

/** Flags > environment > the saved config. */
export async function settings(
  io: Io,
  values: {
    server?: string | boolean | undefined;
    'auth-url'?: string | boolean | undefined;
    insecure?: string | boolean | undefined;
  },
): Promise<Settings> {
  const path = configPath(io.env);
  const saved = await loadConfig(path);
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const url = str(values.server) ?? str(io.env.SECRET_PUSH_URL) ?? saved.url;
  const authUrl = str(values['auth-url']) ?? str(io.env.SECRET_PUSH_AUTH_URL) ?? saved.authUrl;
  const envId = str(io.env.SECRET_PUSH_CLIENT_ID);
  const envSecret = str(io.env.SECRET_PUSH_CLIENT_SECRET);
  const envToken = str(io.env.SECRET_PUSH_TOKEN);
  if ((envId === undefined) !== (envSecret === undefined)) {
    throw new UsageError('Set both SECRET_PUSH_CLIENT_ID and SECRET_PUSH_CLIENT_SECRET, or neither');
  }
  let credentials: Settings['credentials'];
  if (envToken) credentials = { token: envToken };
  else if (envId && envSecret) credentials = { clientId: envId, clientSecret: envSecret };
  else if (saved.token) credentials = { token: saved.token };
  else if (saved.clientId && saved.clientSecret) {
    credentials = { clientId: saved.clientId, clientSecret: saved.clientSecret };
  }
  for (const [name, value] of [
    ['server', url],
    ['auth URL', authUrl],
  ] as const) {
    if (value !== undefined && !/^https?:\/\/[^/]/.test(value)) {
      throw new UsageError(`The ${name} must be an http(s) URL: ${value}`);
    }
  }
  return { url, authUrl, credentials, insecure: values.insecure === true, path, saved };
}

const tokenUrl = (authUrl: string) => `${authUrl.replace(/\/+$/, '')}/connect/token`;

/** A client for `baseUrl`, with the configured credentials only when `withAuth`. */
export function clientFor(io: Io, s: Settings, baseUrl: string, withAuth = true): SecretPushClient {
  let auth: Parameters<typeof createClient>[0]['auth'];
  const c = withAuth ? s.credentials : undefined;
  if (c && 'token' in c) auth = { token: c.token };
  else if (c) {
    if (!s.authUrl) {
      throw new UsageError(
        'Client credentials need the auth service: pass --auth-url URL, set SECRET_PUSH_AUTH_URL, or run secret-push login',
      );
    }
    auth = { clientId: c.clientId, clientSecret: c.clientSecret, tokenUrl: tokenUrl(s.authUrl) };
  }
  return createClient({
    baseUrl,
    ...(auth ? { auth } : {}),
    ...(io.fetch ? { fetch: io.fetch } : {}),
    userAgent: `secret-push-cli/${VERSION}`,
    allowInsecureHttp: s.insecure,
  });
}

export function requireUrl(s: Settings): string {
  if (!s.url) {
    throw new UsageError('No server: pass --server URL, set SECRET_PUSH_URL, or run secret-push login');
  }
  return s.url;
}

/** The client for a push given by link or token: a link's own server, with credentials only on ours. */
export function clientForRef(io: Io, s: Settings, ref: PushRef): SecretPushClient {
  if (!ref.baseUrl) return clientFor(io, s, requireUrl(s));
  const ours = s.url !== undefined && sameInstance(ref.baseUrl, s.url);
  return clientFor(io, s, ours ? s.url! : ref.baseUrl, ours);
}

function sameInstance(a: string, b: string): boolean {
  const norm = (u: string) => {
    const url = new URL(u);
    return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/api\/v2$/, '')}`;
  };
  try {
    return norm(a) === norm(b);
  } catch {
    return false;
  }
}
