import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { PSEUDO_LOCALE, isLanguage, translator } from '@secret-push/i18n';
import type { KeyRing } from '@secret-push/key-ring';
import { queueAccountEmail } from '../storage/auth-email.repository';
import type { AuthDatabase } from '../storage/database';

/*
 * Email from the auth service is queued, never sent in a request: a change that emails someone
 * inserts a row in `auth_email` in the transaction of the change (the sender loop in mail/ sends
 * it later, retrying). With email off (no AUTH_SMTP_URL) there is no outbox (`undefined`) and
 * nothing is queued.
 */

/** The kinds of email the auth service sends; each has its texts in mail/emails/. */
export type AuthEmailKind =
  | 'password_reset'
  | 'password_changed'
  | 'second_factor_added'
  | 'second_factor_removed'
  | 'second_factor_locked'
  | 'recovery_codes_regenerated';

/** The security notices: something changed in how the account signs in. */
export type SecurityNotice = Exclude<AuthEmailKind, 'password_reset'>;

/** Email is on: what queueing needs (the data key ring seals a message's secret, bound to its row). */
export interface MailOutbox {
  seal(rowId: string, secret: string): { keyId: string; data: Buffer };
  open(rowId: string, sealed: { keyId: string; data: Buffer }): string;
  /**
   * The language of an email queued now (its row's `locale`): the language of the request that
   * caused it (its translator's), else the default; never the pseudo-locale (tests' `en-XA`).
   */
  language(): string;
}

const aad = (rowId: string) => `auth_email:${rowId.toLowerCase()}|data_sealed`;

/** `defaultLanguage`: I18N_DEFAULT_LANGUAGE, for email caused outside a page's language. */
export function mailOutbox(ring: KeyRing, defaultLanguage = 'en'): MailOutbox {
  return {
    seal: (rowId, secret) => ({ keyId: ring.activeKeyId, data: ring.seal(secret, aad(rowId)) }),
    open: (rowId, sealed) => ring.open(sealed, aad(rowId)),
    language: () => requestLanguage(defaultLanguage),
  };
}

/** The current request's language when it is a real one (not the pseudo-locale), else `fallback`. */
function requestLanguage(fallback: string): string {
  let locale: string | undefined;
  try {
    locale = translator().locale;
  } catch {
    locale = undefined; // no catalogue loaded (a unit test)
  }
  return locale && locale !== PSEUDO_LOCALE && isLanguage(locale) ? locale : fallback;
}

/**
 * Queues the security notice `kind` to the account's own address, when email is on (`outbox`);
 * run it in the transaction of the change it reports. `data`: details that are no secret. In the
 * language of the request that made the change.
 */
export async function queueNotice(
  db: Kysely<AuthDatabase>,
  outbox: MailOutbox | undefined,
  accountId: string,
  kind: SecurityNotice,
  data?: Record<string, string>,
): Promise<void> {
  if (!outbox) return;
  await queueAccountEmail(db, { id: randomUUID(), accountId, kind, data, locale: outbox.language() });
}
