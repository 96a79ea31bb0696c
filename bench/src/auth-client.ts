import { runCli } from '@secret-push/auth';
import { createClient } from '@secret-push/client';

/* The auth service as the benchmarks use it: its operator CLI in-process, and the token endpoint. */

export const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** Runs `secret-push-auth argv…` with `env`, returning what it printed. */
export async function cli(env: Record<string, string>, ...argv: string[]): Promise<string> {
  const out: string[] = [];
  const code = await runCli(argv, { env, out: (l) => out.push(l), err: (l) => console.error(l) });
  if (code !== 0) throw new Error(`secret-push-auth ${argv.join(' ')} failed`);
  return out.join('\n');
}

/**
 * A client-credentials access token from the token endpoint of `authUrl`, fetched by the SDK (it
 * throws when the endpoint refuses). Only the token endpoint is called: the base URL is unused.
 */
export async function token(authUrl: string, id: string, secret: string): Promise<string> {
  const client = createClient({
    baseUrl: authUrl,
    auth: { clientId: id, clientSecret: secret, tokenUrl: `${authUrl}/connect/token` },
  });
  return (await client.accessToken()).token;
}
