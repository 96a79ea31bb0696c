import type { Provider } from 'oidc-provider';

type Client = NonNullable<Awaited<ReturnType<Provider['Client']['find']>>>;

/** The outcome of an HTTP Basic client authentication. */
export type BasicClientAuth =
  | { authenticated: true; client: Client }
  /** `clientId` is set only when the named client exists (the throttle counts it per client too). */
  | { authenticated: false; clientId: string | undefined };

/** RFC 6749 §2.3.1: each half was form-urlencoded before base64 (`+` is a space). */
function formDecode(part: string): string | undefined {
  try {
    return decodeURIComponent(part.replace(/\+/g, '%20'));
  } catch {
    return undefined;
  }
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** `client_id` and `client_secret` of an `Authorization: Basic …` header, or undefined. */
export function basicCredentials(
  authorization: string | undefined,
): { clientId: string; secret: string } | undefined {
  const match = /^basic +(\S+)$/i.exec(authorization?.trim() ?? '');
  if (!match || !BASE64.test(match[1]!)) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return undefined;
  const clientId = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  if (!clientId || !secret) return undefined;
  return { clientId, secret };
}

/**
 * Authenticates a client by `client_secret_basic` exactly as the token endpoint does, with the
 * provider's own pieces: the client is looked up by `provider.Client.find` (the adapter; a database
 * outage throws `DependencyUnavailable`), must be registered for `client_secret_basic`, and its
 * secret is checked by the client's `compareClientSecret` (SHA-256, constant time:
 * create-provider.ts). Whether the client may use a given API is the caller's business.
 */
export async function authenticateBasicClient(
  provider: Provider,
  authorization: string | undefined,
): Promise<BasicClientAuth> {
  const credentials = basicCredentials(authorization);
  if (!credentials) return { authenticated: false, clientId: undefined };
  const client = await provider.Client.find(credentials.clientId);
  if (!client) return { authenticated: false, clientId: undefined };
  const matches =
    client.clientAuthMethod === 'client_secret_basic' &&
    (await client.compareClientSecret(credentials.secret));
  return matches ? { authenticated: true, client } : { authenticated: false, clientId: client.clientId };
}
