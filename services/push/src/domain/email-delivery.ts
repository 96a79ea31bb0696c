import type { I18n } from '@secret-push/i18n';
import type { KeyRing } from '@secret-push/key-ring';
import { type NoticeTopic, composeEndpointDisabled, composeLinkEmail, composeNotice } from './email-compose';
import type {
  ComposedEmail,
  EmailOutcomeStatus,
  EmailPurpose,
  EmailStore,
  QueuedEmail,
  RequestEmailPurpose,
} from './ports/email-store';
import { isRequestEmailPurpose } from './ports/email-store';
import { composeRequestEmail } from './request-email-delivery';
import type { MailSender } from './ports/mail-sender';
import { pushLink } from './push-link';
import { openerOf } from './push-sealing';

export const PUSH_EXPIRED_BEFORE_SENT = 'the push expired before it was sent';

const NOTICE_TOPIC: Record<
  Exclude<EmailPurpose, 'push_link' | 'notice_webhook_disabled' | RequestEmailPurpose>,
  NoticeTopic
> = {
  notice_viewed: 'viewed',
  notice_failed_passphrase: 'failed_passphrase',
  notice_expired_unseen: 'expired_unseen',
};

export interface EmailDeliveryDeps {
  store: EmailStore;
  sender: MailSender;
  keyRing: KeyRing;
  /** The base of the links (PUSH_PUBLIC_URL), as the API's `html_url`. */
  publicUrl: string;
  /**
   * The emails' languages (the worker's `pushI18n(config.i18n)`): each email is written in its
   * stored language when that is offered, else in the default language (I18N_DEFAULT_LANGUAGE).
   */
  languages: Pick<I18n, 'translator'>;
  /** The right-hand side of each email's Message-ID (the From address's domain). */
  messageIdDomain: string;
  /** Emails leased per round. */
  batchSize?: number;
  /** How long a leased email is this sender's (longer than an attempt's deadline). */
  leaseSeconds?: number;
  onOutcome?(purpose: EmailPurpose, status: EmailOutcomeStatus): void;
}

/**
 * The worker's sender of the push service's emails: each round leases what is due, composes each
 * email from the push as it is now (a link whose push expired or was deleted meanwhile is not sent:
 * final, "the push expired before it was sent"), unseals the link's token with the key ring, and
 * hands it to SMTP; retries and final failures are the queue's (packages/mail).
 */
export function createEmailDelivery(deps: EmailDeliveryDeps) {
  const open = openerOf(deps.keyRing);

  function compose(email: QueuedEmail): Promise<ComposedEmail> {
    const tr = deps.languages.translator(email.locale);
    if (email.purpose === 'notice_webhook_disabled') return Promise.resolve(composeEndpointNotice(email));
    if (isRequestEmailPurpose(email.purpose)) return Promise.resolve(composeRequestEmail(email, deps, tr));
    const { push } = email;
    if (!push) return Promise.resolve({ cancel: 'the push no longer exists' });
    if (email.purpose !== 'push_link') {
      const m = composeNotice(tr, NOTICE_TOPIC[email.purpose], push);
      return Promise.resolve({ mail: { to: email.recipient, ...m } });
    }
    if (push.expired || push.deleted || push.expiresAt.getTime() <= email.now.getTime()) {
      return Promise.resolve({ cancel: PUSH_EXPIRED_BEFORE_SENT });
    }
    const token = open(push.id, push.keyId, 'url_token', push.tokenSealed);
    if (!token) return Promise.resolve({ cancel: 'the link could not be opened' });
    const m = composeLinkEmail(tr, {
      url: pushLink(deps.publicUrl, token, push.retrievalStep),
      retrievalStep: push.retrievalStep,
      passphraseProtected: push.passphraseProtected,
      expiresAt: push.expiresAt,
      viewsLeft: push.expireAfterViews - push.views,
      senderAddress: email.senderAddress,
      now: email.now,
    });
    return Promise.resolve({ mail: { to: email.recipient, ...m } });
  }

  function composeEndpointNotice(email: QueuedEmail): ComposedEmail {
    const endpoint = email.endpoint;
    if (!endpoint) return { cancel: 'the endpoint no longer exists' };
    if (endpoint.enabled) return { cancel: 'the endpoint was enabled again' };
    const m = composeEndpointDisabled(deps.languages.translator(email.locale), {
      url: endpoint.url,
      reason: endpoint.disabledReason,
      manageUrl: `${deps.publicUrl.replace(/\/+$/, '')}/users/webhooks`,
    });
    return { mail: { to: email.recipient, ...m } };
  }

  return {
    compose,
    /** One round: what is due, sent (or deferred, or failed); resolves to how many were handled. */
    async deliverRound(): Promise<{ sent: number; deferred: number; failed: number }> {
      return deps.store.deliverDue({
        sender: deps.sender,
        compose,
        messageIdDomain: deps.messageIdDomain,
        limit: deps.batchSize ?? 50,
        leaseSeconds: deps.leaseSeconds ?? 300,
        onOutcome: (email, status) => deps.onOutcome?.(email.purpose, status),
      });
    },
    close: () => deps.sender.close(),
  };
}

export type EmailDelivery = ReturnType<typeof createEmailDelivery>;
