import { parse } from '../args.ts';
import { AuthError, EXIT, UsageError } from '../errors.ts';
import { type Command, json } from '../io.ts';
import { clientFor, settings } from '../settings.ts';

/** `secret-push token`: prints an access token (for scripts). */
export const token: Command = async (io, args) => {
  const { values } = parse(args, {});
  const s = await settings(io, values);
  if (!s.credentials) {
    throw new AuthError('No credentials: run secret-push login, or set SECRET_PUSH_CLIENT_ID/SECRET');
  }
  // The token endpoint is on the auth service; the push server's URL is not needed for it.
  const baseUrl = s.url ?? s.authUrl;
  if (!baseUrl) throw new UsageError('No auth service: pass --auth-url URL or set SECRET_PUSH_AUTH_URL');
  const { token: accessToken, expiresAt, scope } = await clientFor(io, s, baseUrl).accessToken();
  if (values.json) {
    json(io, {
      access_token: accessToken,
      token_type: 'Bearer',
      ...(expiresAt && { expires_in: Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000)) }),
      ...(scope !== undefined && { scope }),
    });
  } else io.stdout.write(`${accessToken}\n`);
  return EXIT.ok;
};
