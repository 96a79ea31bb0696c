import { t } from '@secret-push/i18n';

/*
 * What the webhook store keeps in English (why an endpoint was disabled, a delivery's last error),
 * as the pages show it: in the page's language where it is one of ours, else as it is.
 */

/** Why an endpoint was disabled (the stored English reason), in the page's language. */
export function reasonText(reason: string): string {
  if (reason === 'disabled by its owner') return t('webhooks.reason.owner');
  if (reason === 'the receiver answered 410 Gone') return t('webhooks.reason.gone');
  const spent = /^every attempt of a delivery failed \((\d+)\); last: (.*)$/.exec(reason);
  if (spent) return t('webhooks.reason.spent', { attempts: Number(spent[1]), last: errorText(spent[2]!) });
  return reason;
}

/** A delivery's last error (stored in English), in the page's language where it is one of ours. */
export function errorText(error: string): string {
  if (error === 'the endpoint is disabled') return t('webhooks.error.disabled');
  const gaveUp = /^gave up after (\d+) attempts: (.*)$/.exec(error);
  if (gaveUp) return t('webhooks.error.gaveUp', { attempts: Number(gaveUp[1]), last: errorText(gaveUp[2]!) });
  const http = /^HTTP (\d{3})( \(redirects are not followed\))?$/.exec(error);
  if (http) {
    return http[2]
      ? t('webhooks.error.redirect', { status: http[1] })
      : t('webhooks.delivery.http', { status: http[1] });
  }
  return error;
}
