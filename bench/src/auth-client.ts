import { runCli } from '@secret-push/auth';

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

/** A client-credentials access token. */
export async function token(authUrl: string, id: string, secret: string): Promise<string> {
  const res = await fetch(`${authUrl}/connect/token`, {
    method: 'POST',
    headers: { authorization: basic(id, secret), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  return ((await res.json()) as { access_token: string }).access_token;
}
