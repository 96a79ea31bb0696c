import { one, parse } from '../args.ts';
import { EXIT } from '../errors.ts';
import { type Command, json } from '../io.ts';
import { parsePushRef } from '../links.ts';
import { clientForRef, settings } from '../settings.ts';

/** `secret-push expire LINK|TOKEN`: expires the push now. */
export const expire: Command = async (io, args) => {
  const { values, positionals } = parse(args, {});
  const ref = parsePushRef(one(positionals, 'a push link or token'));
  const s = await settings(io, values);
  const result = await clientForRef(io, s, ref).expire(ref.urlToken);
  if (values.json) json(io, result);
  else io.stdout.write(`Expired ${result.html_url}\n`);
  return EXIT.ok;
};
