import type { PushSettings, SecretPushClient } from '@secret-push/client';
import { UsageError } from './errors.ts';
import type { Io } from './io.ts';

/*
 * `--notify` and `--notify-locale`: email a push's link to people. As Password Pusher's CLI does,
 * `push --notify` asks the server first (`GET /version`): only where
 * `features.pushes.email_auto_dispatch` is true are the addresses sent; elsewhere the push is
 * still created, with a warning that nobody was emailed.
 */

/** The addresses of `--notify` options (each may hold several, comma-separated), trimmed, none empty. */
export function addressesOf(values: readonly string[]): string[] {
  const addresses = values.flatMap((v) => v.split(',')).map((a) => a.trim());
  if (addresses.length === 0 || addresses.some((a) => a === '')) {
    throw new UsageError('--notify takes email addresses, comma-separated (a@example.com,b@example.com)');
  }
  return addresses;
}

/** The email settings of a create from `--notify` and `--notify-locale`: none when the server has no email. */
export async function emailSettingsOf(
  io: Io,
  client: SecretPushClient,
  notify: readonly string[] | undefined,
  locale: string | undefined,
): Promise<PushSettings> {
  if (notify === undefined) {
    if (locale !== undefined) throw new UsageError('--notify-locale goes with --notify');
    return {};
  }
  const to = addressesOf(notify);
  const version = await client.version();
  if (!version.features.pushes.email_auto_dispatch) {
    io.stderr.write(
      'Warning: this server does not send email (email_auto_dispatch is off): --notify is ignored, ' +
        'nobody is emailed; pass the link on yourself.\n',
    );
    return {};
  }
  return { notify_emails_to: to, ...(locale !== undefined ? { notify_emails_to_locale: locale } : {}) };
}
