import { VERSION } from '../about.ts';
import { parse } from '../args.ts';
import { EXIT } from '../errors.ts';
import { type Command, json } from '../io.ts';
import { clientFor, settings } from '../settings.ts';

/** `secret-push version`: the versions of this client and (when one is configured) of the server. */
export const version: Command = async (io, args) => {
  const { values } = parse(args, {});
  const s = await settings(io, values);
  // The client's version is printed first, so it shows even when the server cannot be reached.
  if (!values.json) io.stdout.write(`secret-push ${VERSION}\n`);
  const server = s.url ? await clientFor(io, s, s.url, false).version() : undefined;
  if (values.json) json(io, { cli: VERSION, ...(server ? { server: { url: s.url, ...server } } : {}) });
  else if (server) {
    io.stdout.write(`server ${server.application_version} (API ${server.api_version}) at ${s.url}\n`);
  }
  return EXIT.ok;
};
