import { type Html, html, rich } from '@secret-push/html';
import { t, translator } from '@secret-push/i18n';
import {
  type DeliveryStatus,
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '../domain/webhook';
import { layout } from './layout';
import { TIMES_SCRIPT, timeAt } from './time.views';
import { errorText, reasonText } from './webhooks.reasons';
import { type WebHeader, webHeader } from './web-header';

/** Text for screen readers only, inside a rich message (`<hidden>…</hidden>`). */
const hidden = (c: Html) => html`<span class="visually-hidden">${c}</span>`;

/** A time relative to the page's render, with the exact time (time.views.ts). */
const when = (d: Date) => timeAt(d, new Date());

/** What each event type means, for the form (a new type must say it here: this does not compile without it). */
const TYPE_HINTS: Record<WebhookEventType, string> = {
  'push.created': 'webhooks.type.pushCreated',
  'push.viewed': 'webhooks.type.pushViewed',
  'push.view_refunded': 'webhooks.type.pushViewRefunded',
  'push.failed_passphrase': 'webhooks.type.pushFailedPassphrase',
  'push.expired': 'webhooks.type.pushExpired',
  'push.file_downloaded': 'webhooks.type.pushFileDownloaded',
  'email.delivery_failed': 'webhooks.type.emailDeliveryFailed',
  'request.answered': 'webhooks.type.requestAnswered',
  'request.closed': 'webhooks.type.requestClosed',
};

/** The flashes of the list after a redirect: fixed texts chosen by the `done` key. */
export const LIST_FLASHES = {
  deleted: 'webhooks.flash.deleted',
  disabled: 'webhooks.flash.disabled',
  enabled: 'webhooks.flash.enabled',
} as const;
export type ListFlash = keyof typeof LIST_FLASHES;

/** The flashes of the delivery log after a redirect. */
export const LOG_FLASHES = {
  test: 'webhooks.flash.test',
  replayed: 'webhooks.flash.replayed',
  busy: 'webhooks.flash.busy',
} as const;
export type LogFlash = keyof typeof LOG_FLASHES;

/** What was typed in "Add an endpoint". */
export interface EndpointFormValues {
  url: string;
  types: readonly string[];
  allTypes: boolean;
}

/** A secret shown once: after a create (201) or a rotation. */
export interface ShownSecret {
  kind: 'created' | 'rotated';
  endpoint: WebhookEndpoint;
  secret: string;
}

/** A flash by its catalogue key (one of LIST_FLASHES' or LOG_FLASHES'). */
const flash = (key: string | undefined) => (key ? html`<p role="status" class="notice">${t(key)}</p>` : '');

/** What an endpoint receives: "all event types", or its types. */
const typesOf = (e: WebhookEndpoint): string =>
  WEBHOOK_EVENT_TYPES.every((type) => e.eventTypes.includes(type))
    ? t('webhooks.allTypesReceived')
    : e.eventTypes.join(', ');

/** "Enabled." or "Disabled: why." */
const stateOf = (e: WebhookEndpoint): Html =>
  e.enabled
    ? html`${t('webhooks.enabled')}`
    : e.disabledReason
      ? rich('webhooks.disabledBecause', { reason: reasonText(e.disabledReason) })
      : rich('webhooks.disabled');

function secretSection(shown: ShownSecret): Html {
  const { endpoint } = shown;
  const until = endpoint.previousSecretUntil;
  return html`<section class="issued" aria-labelledby="secret-title">
    <h2 id="secret-title">
      ${shown.kind === 'created' ? t('webhooks.secret.added') : t('webhooks.secret.rotated')}
    </h2>
    <p>${rich('webhooks.secret.for', { url: html`<code>${endpoint.url}</code>` })}</p>
    <label for="new-secret"
      >${shown.kind === 'created' ? t('webhooks.secret.label') : t('webhooks.secret.newLabel')}</label
    >
    <p class="muted" id="new-secret-hint">
      ${rich('webhooks.secret.hint', { header: html`<code>webhook-signature</code>` })}
    </p>
    <input
      id="new-secret"
      type="text"
      readonly
      value="${shown.secret}"
      aria-describedby="new-secret-hint"
      autocomplete="off"
      spellcheck="false"
    />
    <button type="button" class="secondary" data-copy="new-secret" hidden>
      ${t('webhooks.secret.copy')}
    </button>
    <p id="copy-status" class="muted" role="status" aria-live="polite"></p>
    ${
      shown.kind === 'rotated' && until
        ? html`<p>${rich('webhooks.secret.previousUntil', { time: when(until) })}</p>`
        : ''
    }
  </section>`;
}

function endpointActions(e: WebhookEndpoint, csrf: string): Html {
  const post = (action: string, label: Html, cls = 'secondary') =>
    html`<form method="post" action="/users/webhooks/${e.id}/${action}" class="inline">
      <input type="hidden" name="csrf" value="${csrf}" />
      <button type="submit" class="${cls}">${label}</button>
    </form>`;
  const url = e.url;
  return html`<p>
      <a href="/users/webhooks/${e.id}">${rich('webhooks.action.deliveries', { url, hidden })}</a>
    </p>
    <p>
      ${
        e.enabled
          ? post('disable', rich('webhooks.action.disable', { url, hidden }))
          : post('enable', rich('webhooks.action.enable', { url, hidden }))
      }
      ${post('rotate', rich('webhooks.action.rotate', { url, hidden }))}
      ${post('test', rich('webhooks.action.test', { url, hidden }))}
    </p>
    <p>
      <a class="button secondary small" href="/users/webhooks/${e.id}/delete"
        >${rich('webhooks.action.delete', { url, hidden })}</a
      >
    </p>`;
}

function endpointList(endpoints: readonly WebhookEndpoint[], csrf: string): Html {
  if (endpoints.length === 0) return html`<p>${t('webhooks.none')}</p>`;
  return html`<h2>${t('webhooks.yours')}</h2>
    ${endpoints.map(
      (e) =>
        html`<section aria-labelledby="endpoint-${e.id}" class="endpoint">
          <h3 id="endpoint-${e.id}"><code>${e.url}</code></h3>
          <p>
            ${stateOf(e)} ${rich('webhooks.receives', { types: typesOf(e) })}
            ${rich('webhooks.added', { time: when(e.createdAt) })}
            ${
              e.previousSecretUntil
                ? rich('webhooks.previousSigns', { time: when(e.previousSecretUntil) })
                : ''
            }
          </p>
          ${endpointActions(e, csrf)}
        </section>`,
    )}`;
}

function typeChoices(values: EndpointFormValues | undefined): Html {
  const checked = (t: string) => (!values || values.types.includes(t) ? html`checked` : '');
  return html`<div class="choice">
      <input
        type="checkbox"
        id="all-types"
        name="all_types"
        value="true"
        ${values?.allTypes ? html`checked` : ''}
      />
      <label for="all-types">${t('webhooks.form.allTypes')}</label>
      <p class="muted">${t('webhooks.form.allTypesHint')}</p>
    </div>
    ${WEBHOOK_EVENT_TYPES.map((type) => {
      const id = `type-${type.replace('.', '-')}`;
      const hint = t(TYPE_HINTS[type]);
      return html`<div class="choice">
        <input type="checkbox" id="${id}" name="event_types" value="${type}" ${checked(type)} />
        <label for="${id}">${rich('webhooks.type.label', { type: html`<code>${type}</code>`, hint })}</label>
      </div>`;
    })}`;
}

function createForm(
  csrf: string,
  values: EndpointFormValues | undefined,
  errors: Record<string, string[]>,
): Html {
  const problem = (name: string) =>
    errors[name]?.length ? html`<p class="error" id="${name}-error">${errors[name].join(' ')}</p>` : '';
  const invalid = (name: string) => (errors[name]?.length ? html`aria-invalid="true"` : '');
  return html`<h2 id="add-title">${t('webhooks.form.heading')}</h2>
    <form method="post" action="/users/webhooks" class="create" aria-labelledby="add-title">
      <input type="hidden" name="csrf" value="${csrf}" />
      ${problem('webhooks')}
      <label for="url">${t('webhooks.form.url')}</label>
      <p class="muted" id="url-hint">
        ${t('webhooks.form.urlHint', { example: 'https://example.com/hooks/secret-push' })}
      </p>
      ${problem('url')}
      <input
        id="url"
        name="url"
        type="text"
        inputmode="url"
        autocomplete="off"
        spellcheck="false"
        maxlength="2048"
        value="${values?.url ?? ''}"
        ${invalid('url')}
        aria-describedby="url-hint${errors.url?.length ? ' url-error' : ''}"
      />
      <fieldset ${errors.event_types?.length ? html`aria-describedby="event_types-error"` : ''}>
        <legend>${t('webhooks.form.types')}</legend>
        ${problem('event_types')} ${typeChoices(values)}
      </fieldset>
      <button type="submit">${t('webhooks.form.submit')}</button>
    </form>`;
}

/**
 * `/users/webhooks`: the person's webhook endpoints (never their secrets) with their actions, the
 * form to add one, and, right after a create or a rotation, the secret, shown this once.
 */
export function webhooksPage(options: {
  header: WebHeader;
  csrf: string;
  endpoints: readonly WebhookEndpoint[];
  shown?: ShownSecret;
  flash?: ListFlash;
  errors?: Record<string, string[]>;
  values?: EndpointFormValues;
}): Html {
  const { csrf } = options;
  return layout(
    t('webhooks.title'),
    html`${webHeader(options.header)}
      <h1>${t('webhooks.title')}</h1>
      <p>${t('webhooks.intro')}</p>
      ${flash(options.flash && LIST_FLASHES[options.flash])}
      ${options.shown ? secretSection(options.shown) : ''} ${endpointList(options.endpoints, csrf)}
      ${createForm(csrf, options.values, options.errors ?? {})}`,
    { scripts: [TIMES_SCRIPT] },
  );
}

const STATUS: Record<DeliveryStatus, string> = {
  pending: 'webhooks.status.pending',
  delivering: 'webhooks.status.delivering',
  succeeded: 'webhooks.status.succeeded',
  failed: 'webhooks.status.failed',
};

/** Status, attempts and the last answer's code, latency and error (or when it is tried next). */
function statusCell(d: WebhookDelivery): Html {
  const tries = t('webhooks.delivery.attempts', { count: d.attempts });
  const answered = d.lastStatus !== null || d.latencyMs !== null || d.lastError !== null;
  const code =
    d.lastStatus === null
      ? t('webhooks.delivery.noAnswer')
      : t('webhooks.delivery.http', { status: d.lastStatus });
  const latency =
    d.latencyMs === null ? '' : t('webhooks.delivery.latency', { ms: translator().number(d.latencyMs) });
  return html`<strong>${t(STATUS[d.status])}</strong><br />${tries}
    ${answered ? html`<br />${latency ? t('webhooks.delivery.codeAndLatency', { code, latency }) : code}` : ''}
    ${d.lastError ? html`<br />${errorText(d.lastError)}` : ''}
    ${
      d.status === 'pending' && d.nextAttemptAt
        ? html`<br />${rich('webhooks.delivery.next', { time: when(d.nextAttemptAt) })}`
        : ''
    }`;
}

function replayForm(d: WebhookDelivery, csrf: string, endpointId: string, page: number): Html {
  return html`<form
    method="post"
    action="/users/webhooks/${endpointId}/deliveries/${d.id}/replay"
    class="inline"
  >
    <input type="hidden" name="csrf" value="${csrf}" />
    <input type="hidden" name="page" value="${page}" />
    <button type="submit" class="secondary">
      ${rich('webhooks.delivery.replay', { type: d.type, at: d.createdAt.toISOString(), hidden })}
    </button>
  </form>`;
}

/** One delivery: its row, and the receiver's answer (at most 4 KiB, escaped) in a row of its own. */
function deliveryRows(d: WebhookDelivery, csrf: string, endpointId: string, page: number): Html {
  return html`<tbody>
    <tr>
      <td><code>${d.type}</code><br />${when(d.createdAt)}</td>
      <td>${statusCell(d)}</td>
      <td>${replayForm(d, csrf, endpointId, page)}</td>
    </tr>
    ${
      d.response
        ? html`<tr>
            <td colspan="3">
              <details>
                <summary>
                  ${rich('webhooks.delivery.answer', { type: d.type, at: d.createdAt.toISOString(), hidden })}
                </summary>
                <pre class="secret">${d.response}</pre>
              </details>
            </td>
          </tr>`
        : ''
    }
  </tbody>`;
}

function deliveryTable(
  deliveries: readonly WebhookDelivery[],
  csrf: string,
  endpointId: string,
  page: number,
): Html {
  return html`<table class="list">
    <caption>
      ${t('webhooks.log.caption', { page })}
    </caption>
    <thead>
      <tr>
        <th scope="col">${t('webhooks.log.event')}</th>
        <th scope="col">${t('webhooks.log.status')}</th>
        <th scope="col">${t('webhooks.log.replay')}</th>
      </tr>
    </thead>
    ${deliveries.map((d) => deliveryRows(d, csrf, endpointId, page))}
  </table>`;
}

/**
 * `/users/webhooks/:id`: an endpoint's delivery log, newest first, a page at a time (event type,
 * when, status and attempts, the last answer's code, latency and text, escaped), each with Replay.
 */
export function deliveriesPage(options: {
  header: WebHeader;
  csrf: string;
  endpoint: WebhookEndpoint;
  deliveries: readonly WebhookDelivery[];
  page: number;
  hasNext: boolean;
  flash?: LogFlash;
}): Html {
  const { endpoint, deliveries, page, csrf } = options;
  const base = `/users/webhooks/${endpoint.id}`;
  const pager = html`<nav aria-label="${t('lists.pages')}" class="pager">
    ${page > 1 ? html`<a href="${base}?page=${page - 1}">${t('lists.previous')}</a>` : ''}
    ${options.hasNext ? html`<a href="${base}?page=${page + 1}">${t('lists.next')}</a>` : ''}
  </nav>`;
  return layout(
    t('webhooks.log.title'),
    html`${webHeader(options.header)}
      <p><a href="/users/webhooks">${t('webhooks.log.back')}</a></p>
      <h1>${t('webhooks.log.title')}</h1>
      <p>${rich('webhooks.log.to', { url: html`<code>${endpoint.url}</code>`, types: typesOf(endpoint) })}</p>
      ${
        endpoint.enabled
          ? ''
          : html`<p>
              ${stateOf(endpoint)}
              ${rich('webhooks.log.disabledHint', { link: (c) => html`<a href="/users/webhooks">${c}</a>` })}
            </p>`
      }
      ${flash(options.flash && LOG_FLASHES[options.flash])}
      <form method="post" action="${base}/test">
        <input type="hidden" name="csrf" value="${csrf}" />
        <button type="submit" class="secondary">${t('webhooks.log.test')}</button>
      </form>
      ${
        deliveries.length === 0
          ? html`<p>${page > 1 ? t('webhooks.log.noneOnPage') : t('webhooks.log.none')}</p>`
          : deliveryTable(deliveries, csrf, endpoint.id, page)
      }
      ${pager}`,
    { scripts: [TIMES_SCRIPT] },
  );
}
