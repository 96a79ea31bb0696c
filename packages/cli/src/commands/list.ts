import type { OwnedPush } from '@secret-push/client';
import { one, parse } from '../args.ts';
import { AuthError, EXIT, UsageError } from '../errors.ts';
import { type Command, json } from '../io.ts';
import { pushTable } from '../output.ts';
import { clientFor, requireUrl, settings } from '../settings.ts';

/** `secret-push list active|expired`: the caller's pushes, as a table or (`--json`) one array. */
export const list: Command = async (io, args) => {
  const { values, positionals } = parse(args, {});
  const which = one(positionals, '`active` or `expired`');
  if (which !== 'active' && which !== 'expired') {
    throw new UsageError('Expected `list active` or `list expired`');
  }
  const s = await settings(io, values);
  if (!s.credentials) throw new AuthError('Listing pushes needs credentials: run secret-push login');
  const client = clientFor(io, s, requireUrl(s));
  const pushes: OwnedPush[] = [];
  for await (const p of which === 'active' ? client.active() : client.expired()) pushes.push(p);
  if (values.json) json(io, pushes);
  else if (pushes.length === 0) io.stderr.write(`No ${which} pushes.\n`);
  else io.stdout.write(pushTable(pushes));
  return EXIT.ok;
};
