import { parse } from '../args.ts';
import { EXIT, UsageError } from '../errors.ts';
import { type Command, json } from '../io.ts';
import { parsePushRef } from '../links.ts';
import { addressesOf } from '../notify-options.ts';
import { clientForRef, settings } from '../settings.ts';

/**
 * `secret-push notify LINK|TOKEN ADDRESS…`: emails the link of one of the caller's pushes to these
 * addresses (`POST /pushes/:token/notify_emails`; never the passphrase). Not repeated on failure:
 * a repeat could send twice.
 */
export const notify: Command = async (io, args) => {
  const { values, positionals } = parse(args, { locale: { type: 'string' } });
  const [link, ...rest] = positionals;
  if (!link || rest.length === 0) throw new UsageError('Expected a push link or token and email addresses');
  const ref = parsePushRef(link);
  const to = addressesOf(rest);
  const s = await settings(io, values);
  const result = await clientForRef(io, s, ref).notifyEmails(ref.urlToken, to, {
    ...(values.locale !== undefined ? { locale: values.locale } : {}),
  });
  if (values.json) json(io, result);
  else io.stdout.write(`${result.message}\n`);
  return EXIT.ok;
};
