import { type Html, html } from '@secret-push/html';
import {
  type DeliveryStatus,
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '../domain/webhook';
import { layout } from './layout';
import { TIMES_SCRIPT, timeAt } from './time.views';
import { type WebHeader, webHeader } from './web-header';

/** A time relative to the page's render, with the exact time (time.views.ts). */
const when = (d: Date) => timeAt(d, new Date());

/** What each event type means, for the form (a new type must say it here: this does not compile without it). */
const TYPE_HINTS: Record<WebhookEventType, string> = {
  'push.created': 'a push of yours is created',
  'push.viewed': 'it is viewed',
  'push.view_refunded': 'a view is given back (the secret did not reach the viewer)',
  'push.failed_passphrase': 'a wrong passphrase is tried',
  'push.expired': 'it expires (views used up, time up, or deleted)',
  'push.file_downloaded': 'a file of it is downloaded',
  'email.delivery_failed':
    "an email about a push or request of yours could not be delivered (a push's link to a recipient, a request's link to the responder, or a notice to you)",
  'request.answered': 'a request of yours is answered (the answer waits for you; never in the message)',
  'request.closed': 'a request of yours is closed (by you, or when its time is up)',
};

/** The flashes of the list after a redirect: fixed texts chosen by the `done` key. */
export const LIST_FLASHES = {
  deleted: 'The endpoint was deleted, with its delivery log.',
  disabled: 'The endpoint was disabled: nothing is sent to it until you enable it again.',
  enabled: 'The endpoint was enabled.',
} as const;
export type ListFlash = keyof typeof LIST_FLASHES;

/** The flashes of the delivery log after a redirect. */
export const LOG_FLASHES = {
  test: 'A test event was queued: it shows below.',
  replayed: 'The delivery was queued again: it is sent again shortly, with the same webhook-id.',
  busy: 'That delivery is being sent right now: replay it once this attempt has finished.',
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

const flash = (text: string | undefined) => (text ? html`<p role="status" class="notice">${text}</p>` : '');

const typesOf = (e: WebhookEndpoint) =>
  WEBHOOK_EVENT_TYPES.every((t) => e.eventTypes.includes(t)) ? 'all event types' : e.eventTypes.join(', ');

function secretSection(shown: ShownSecret): Html {
  const { endpoint } = shown;
  const until = endpoint.previousSecretUntil;
  return html`<section class="issued" aria-labelledby="secret-title">
    <h2 id="secret-title">${shown.kind === 'created' ? 'Endpoint added' : 'Secret rotated'}</h2>
    <p>For <code>${endpoint.url}</code></p>
    <label for="new-secret"
      >${shown.kind === 'created' ? 'Its signing secret' : 'Its new signing secret'}</label
    >
    <p class="muted" id="new-secret-hint">
      Copy it now and store it with your receiver: it is shown only once. Your receiver checks each message's
      <code>webhook-signature</code> with it (Standard Webhooks).
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
    <button type="button" class="secondary" data-copy="new-secret" hidden>Copy the secret</button>
    <p id="copy-status" class="muted" role="status" aria-live="polite"></p>
    ${
      shown.kind === 'rotated' && until
        ? html`<p>
            The previous secret keeps signing too until ${when(until)} (both signatures are sent until then):
            update your receiver before that.
          </p>`
        : ''
    }
  </section>`;
}

function endpointActions(e: WebhookEndpoint, csrf: string): Html {
  const post = (action: string, label: string, cls = 'secondary') =>
    html`<form method="post" action="/users/webhooks/${e.id}/${action}" class="inline">
      <input type="hidden" name="csrf" value="${csrf}" />
      <button type="submit" class="${cls}">${label}<span class="visually-hidden"> ${e.url}</span></button>
    </form>`;
  return html`<p>
      <a href="/users/webhooks/${e.id}">Deliveries<span class="visually-hidden"> to ${e.url}</span></a>
    </p>
    <p>
      ${e.enabled ? post('disable', 'Disable') : post('enable', 'Enable')} ${post('rotate', 'Rotate secret')}
      ${post('test', 'Send a test event')}
    </p>
    <p>
      <a class="button secondary small" href="/users/webhooks/${e.id}/delete"
        >Delete<span class="visually-hidden"> ${e.url}</span></a
      >
    </p>`;
}

function endpointList(endpoints: readonly WebhookEndpoint[], csrf: string): Html {
  if (endpoints.length === 0) return html`<p>You have no webhook endpoints yet.</p>`;
  return html`<h2>Your endpoints</h2>
    ${endpoints.map(
      (e) =>
        html`<section aria-labelledby="endpoint-${e.id}" class="endpoint">
          <h3 id="endpoint-${e.id}"><code>${e.url}</code></h3>
          <p>
            ${e.enabled ? 'Enabled' : html`<strong>Disabled</strong>${e.disabledReason ? `: ${e.disabledReason}` : ''}`}.
            Receives ${typesOf(e)}. Added ${when(e.createdAt)}.
            ${e.previousSecretUntil ? html`The previous secret signs too until ${when(e.previousSecretUntil)}.` : ''}
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
      <label for="all-types">All event types</label>
      <p class="muted">Checked: every type below, whatever else is checked.</p>
    </div>
    ${WEBHOOK_EVENT_TYPES.map((t) => {
      const id = `type-${t.replace('.', '-')}`;
      const hint = TYPE_HINTS[t];
      return html`<div class="choice">
        <input type="checkbox" id="${id}" name="event_types" value="${t}" ${checked(t)} />
        <label for="${id}"><code>${t}</code>${hint ? `: ${hint}` : ''}</label>
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
  return html`<h2 id="add-title">Add an endpoint</h2>
    <form method="post" action="/users/webhooks" class="create" aria-labelledby="add-title">
      <input type="hidden" name="csrf" value="${csrf}" />
      ${problem('webhooks')}
      <label for="url">URL</label>
      <p class="muted" id="url-hint">
        Where your receiver listens, e.g. https://example.com/hooks/secret-push.
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
        <legend>Send these events</legend>
        ${problem('event_types')} ${typeChoices(values)}
      </fieldset>
      <button type="submit">Add endpoint</button>
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
    'Webhooks',
    html`${webHeader(options.header)}
      <h1>Webhooks</h1>
      <p>
        Webhooks tell your own server when something happens to your pushes and requests: each message is
        signed (Standard Webhooks) and never carries a secret, only the push's or request's reference and
        public facts.
      </p>
      ${flash(options.flash && LIST_FLASHES[options.flash])}
      ${options.shown ? secretSection(options.shown) : ''} ${endpointList(options.endpoints, csrf)}
      ${createForm(csrf, options.values, options.errors ?? {})}`,
    { scripts: [TIMES_SCRIPT] },
  );
}

const STATUS: Record<DeliveryStatus, string> = {
  pending: 'Pending',
  delivering: 'Sending',
  succeeded: 'Delivered',
  failed: 'Failed',
};

/** Status, attempts and the last answer's code, latency and error (or when it is tried next). */
function statusCell(d: WebhookDelivery): Html {
  const tries = `${d.attempts} ${d.attempts === 1 ? 'attempt' : 'attempts'}`;
  const answered = d.lastStatus !== null || d.latencyMs !== null || d.lastError !== null;
  const code = d.lastStatus === null ? 'no answer' : `HTTP ${d.lastStatus}`;
  return html`<strong>${STATUS[d.status]}</strong><br />${tries}
    ${answered ? html`<br />${code}${d.latencyMs === null ? '' : `, ${d.latencyMs} ms`}` : ''}
    ${d.lastError ? html`<br />${d.lastError}` : ''}
    ${d.status === 'pending' && d.nextAttemptAt ? html`<br />next ${when(d.nextAttemptAt)}` : ''}`;
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
      Replay<span class="visually-hidden"> ${d.type} of ${d.createdAt.toISOString()}</span>
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
                  The receiver's answer<span class="visually-hidden">
                    to ${d.type} of ${d.createdAt.toISOString()}</span
                  >
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
      Deliveries, newest first, page ${page}
    </caption>
    <thead>
      <tr>
        <th scope="col">Event</th>
        <th scope="col">Status and answer</th>
        <th scope="col">Replay</th>
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
  const pager = html`<nav aria-label="Pages" class="pager">
    ${page > 1 ? html`<a href="${base}?page=${page - 1}">Previous page</a>` : ''}
    ${options.hasNext ? html`<a href="${base}?page=${page + 1}">Next page</a>` : ''}
  </nav>`;
  return layout(
    'Webhook deliveries',
    html`${webHeader(options.header)}
      <p><a href="/users/webhooks">Back to your webhooks</a></p>
      <h1>Webhook deliveries</h1>
      <p>To <code>${endpoint.url}</code>, which receives ${typesOf(endpoint)}.</p>
      ${
        endpoint.enabled
          ? ''
          : html`<p>
              <strong>Disabled</strong>${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ''}.
              Nothing is sent to it until you enable it on <a href="/users/webhooks">your webhooks</a>.
            </p>`
      }
      ${flash(options.flash && LOG_FLASHES[options.flash])}
      <form method="post" action="${base}/test">
        <input type="hidden" name="csrf" value="${csrf}" />
        <button type="submit" class="secondary">Send a test event</button>
      </form>
      ${
        deliveries.length === 0
          ? html`<p>No deliveries${page > 1 ? ' on this page' : ' yet'}.</p>`
          : deliveryTable(deliveries, csrf, endpoint.id, page)
      }
      ${pager}`,
    { scripts: [TIMES_SCRIPT] },
  );
}
