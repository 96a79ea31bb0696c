import { one, parse } from '../args.ts';
import { EXIT } from '../errors.ts';
import { type Command, json } from '../io.ts';
import { parsePushRef } from '../links.ts';
import { clientForRef, settings } from '../settings.ts';

/** `secret-push preview LINK|TOKEN`: prints the recipient page's link (uses no view). */
export const preview: Command = async (io, args) => {
  const { values, positionals } = parse(args, {});
  const ref = parsePushRef(one(positionals, 'a push link or token'));
  const s = await settings(io, values);
  const result = await clientForRef(io, s, ref).preview(ref.urlToken);
  if (values.json) json(io, result);
  else io.stdout.write(`${result.url}\n`);
  return EXIT.ok;
};
