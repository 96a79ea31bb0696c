import type { Kysely } from 'kysely';
import type { I18n, Translator } from '@secret-push/i18n';
import type { Composed, MailQueueRow } from '@secret-push/mail';
import type { AuthEmailRow } from '../storage/auth-email.table';
import type { AuthDatabase } from '../storage/database';
import { liveResetExpiry } from '../storage/password-reset.repository';
import type { AuthEmailKind, MailOutbox } from '../users/mail-outbox';
import { resetTokenHash } from '../users/password-reset';
import type { EmailContext, EmailText } from './emails/email-text';
import { passwordChangedEmail } from './emails/password-changed';
import { passwordResetEmail } from './emails/password-reset';
import { recoveryCodesRegeneratedEmail } from './emails/recovery-codes-regenerated';
import { secondFactorAddedEmail } from './emails/second-factor-added';
import { secondFactorLockedEmail } from './emails/second-factor-locked';
import { secondFactorRemovedEmail } from './emails/second-factor-removed';

/** A leased row of `auth_email`: the queue's columns and ours. */
export type AuthEmailQueueRow = MailQueueRow & AuthEmailRow;

export interface ComposeDeps {
  db: Kysely<AuthDatabase>;
  outbox: MailOutbox;
  /** The issuer (`AUTH_ISSUER`): the links' base. */
  issuer: string;
  /** The service's name in the texts (AUTH_TOTP_ISSUER, what authenticator apps show). */
  service: string;
  /** The auth service's languages (authI18n): each email in its row's `locale`. */
  i18n: I18n;
}

/** The notices' texts by kind, in the translator's language (the row's). */
const NOTICES: Record<
  Exclude<AuthEmailKind, 'password_reset'>,
  (tr: Translator, ctx: EmailContext, row: AuthEmailQueueRow) => EmailText
> = {
  password_changed: (tr, ctx, row) =>
    passwordChangedEmail(tr, ctx, { via: row.data.via === 'reset' ? 'reset' : 'console' }),
  second_factor_added: (tr, ctx) => secondFactorAddedEmail(tr, ctx),
  second_factor_removed: (tr, ctx) => secondFactorRemovedEmail(tr, ctx),
  second_factor_locked: (tr, ctx) => secondFactorLockedEmail(tr, ctx),
  recovery_codes_regenerated: (tr, ctx) => recoveryCodesRegeneratedEmail(tr, ctx),
};

const isNotice = (kind: string): kind is keyof typeof NOTICES => Object.hasOwn(NOTICES, kind);

/**
 * Composes one queued email of the auth service, or cancels it when it is no longer wanted: a
 * reset whose link was used, voided or has expired meanwhile is not sent (its link would only
 * lead to "this link no longer works"). The reset token is opened from the row only here, in
 * memory; it is never logged. Each is written in its row's `locale` (the language of the request
 * that queued it; one no longer offered: the default language).
 */
export function authEmailComposer(deps: ComposeDeps): (row: AuthEmailQueueRow) => Promise<Composed> {
  return async (row) => {
    const ctx: EmailContext = {
      service: deps.service,
      accountEmail: row.recipient,
      when: row.created_at,
      accountUrl: `${deps.issuer}/account`,
    };
    const tr = deps.i18n.translator(row.locale);
    let message: EmailText;
    if (row.kind === 'password_reset') {
      if (!row.data_sealed || !row.data_key_id) return { cancel: 'reset email without its token' };
      const token = deps.outbox.open(row.id, { keyId: row.data_key_id, data: row.data_sealed });
      const expiresAt = await liveResetExpiry(deps.db, resetTokenHash(token));
      if (!expiresAt) return { cancel: 'the reset was used, voided or expired before it was sent' };
      message = passwordResetEmail(tr, ctx, { link: `${deps.issuer}/reset/${token}`, expiresAt });
    } else if (isNotice(row.kind)) {
      message = NOTICES[row.kind](tr, ctx, row);
    } else {
      return { cancel: `unknown kind ${row.kind}` };
    }
    return { mail: { to: row.recipient, ...message } };
  };
}
