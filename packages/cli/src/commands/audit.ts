import { one, parse } from '../args.ts';
import { EXIT } from '../errors.ts';
import { type Command, json } from '../io.ts';
import { parsePushRef } from '../links.ts';
import { auditTable } from '../output.ts';
import { clientForRef, settings } from '../settings.ts';

/** `secret-push audit LINK|TOKEN`: the audit log of one of the caller's pushes. */
export const audit: Command = async (io, args) => {
  const { values, positionals } = parse(args, {});
  const ref = parsePushRef(one(positionals, 'a push link or token'));
  const s = await settings(io, values);
  const entries = [];
  for await (const entry of clientForRef(io, s, ref).auditEntries(ref.urlToken)) entries.push(entry);
  if (values.json) json(io, entries);
  else io.stdout.write(auditTable(entries));
  return EXIT.ok;
};
