import { parse } from '../args.ts';
import { type SavedConfig, saveConfig } from '../config.ts';
import { EXIT, UsageError } from '../errors.ts';
import { type Command, json, readSecretFile } from '../io.ts';
import { clientFor, requireUrl, settings } from '../settings.ts';

/**
 * `secret-push login`: saves the server and the credentials (a client's id and secret, checked
 * with the token endpoint first, or a static token).
 */
export const login: Command = async (io, args) => {
  const { values, positionals } = parse(args, {
    'client-id': { type: 'string' },
    'client-secret-file': { type: 'string' },
    'token-file': { type: 'string' },
  });
  if (positionals.length > 0) {
    throw new UsageError('login takes no arguments (secrets come from stdin or files)');
  }
  const s = await settings(io, values);
  const url = requireUrl(s);
  const config: SavedConfig = { url, ...(s.authUrl ? { authUrl: s.authUrl } : {}) };
  let who: string;
  if (values['token-file'] !== undefined) {
    if (values['client-id'] !== undefined) throw new UsageError('Give --client-id or --token-file, not both');
    config.token = await readSecretFile(io, values['token-file'], 'token');
    who = 'a static token';
  } else {
    const clientId = values['client-id'] ?? io.env.SECRET_PUSH_CLIENT_ID;
    if (!clientId) throw new UsageError('login needs --client-id ID (or --token-file PATH)');
    if (!s.authUrl) {
      throw new UsageError('login with client credentials needs --auth-url URL (or SECRET_PUSH_AUTH_URL)');
    }
    const clientSecret =
      values['client-secret-file'] !== undefined
        ? await readSecretFile(io, values['client-secret-file'], 'client secret')
        : io.env.SECRET_PUSH_CLIENT_SECRET && values['client-id'] === undefined
          ? io.env.SECRET_PUSH_CLIENT_SECRET
          : await readSecretFile(io, '-', 'client secret');
    // Checked before anything is saved: bad credentials exit 3 and leave the config as it was.
    await clientFor(io, { ...s, credentials: { clientId, clientSecret } }, url).accessToken({ fresh: true });
    Object.assign(config, { clientId, clientSecret });
    who = `client ${clientId}`;
  }
  await saveConfig(s.path, config);
  if (values.json) json(io, { url, authUrl: config.authUrl ?? null, config: s.path });
  else io.stderr.write(`Logged in to ${url} with ${who}; saved ${s.path}\n`);
  return EXIT.ok;
};
