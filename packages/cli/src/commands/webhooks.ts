import {
  DELIVERIES_PAGE_SIZE,
  type SecretPushClient,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
  type WebhookWithSecret,
} from '@secret-push/client';
import { integer, one, parse } from '../args.ts';
import { AuthError, EXIT, UsageError } from '../errors.ts';
import { type Command, type Io, json } from '../io.ts';
import { clientFor, requireUrl, settings } from '../settings.ts';
import { STORE_SECRET, deliveryTable, webhookDetails, webhookTable } from './webhooks-output.ts';

/*
 * `secret-push webhooks add|list|rm|enable|disable|rotate|test|deliveries|replay`: the caller's
 * webhook endpoints (`client.webhooks` of the SDK). The owner is whoever the credentials are (an
 * API client or a person's token): reading needs `pushes:read`, changing `pushes:write`. Another
 * owner's endpoint, like a missing one, is not found (exit 4).
 */

type Values = Parameters<typeof settings>[1];

async function clientOf(io: Io, values: Values): Promise<SecretPushClient> {
  const s = await settings(io, values);
  if (!s.credentials) throw new AuthError('Webhooks need credentials: run secret-push login');
  return clientFor(io, s, requireUrl(s));
}

/** The SDK's refusal of a malformed id (before anything is sent) as a usage error. */
async function checked<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof TypeError && /^not a (webhook|delivery) id$/.test(err.message)) {
      throw new UsageError(`${err.message.replace(/^not/, 'Not')} (see secret-push webhooks list)`);
    }
    throw err;
  }
}

/** `--types a,b`: event types, `push.` optional (`viewed` is `push.viewed`); every type when absent. */
export function eventTypesOf(value: string | undefined): WebhookEventType[] {
  if (value === undefined) return [...WEBHOOK_EVENT_TYPES];
  const names = value.split(',').map((t) => t.trim());
  return names.map((name) => {
    const type = WEBHOOK_EVENT_TYPES.find((t) => t === name || t === `push.${name}`);
    if (!type) {
      throw new UsageError(
        `--types takes event types, comma-separated: ${WEBHOOK_EVENT_TYPES.join(',')} (not ${JSON.stringify(name)})`,
      );
    }
    return type;
  });
}

function printWithSecret(io: Io, json_: boolean | undefined, made: WebhookWithSecret) {
  if (json_) json(io, made);
  else io.stdout.write(webhookDetails(made));
  io.stderr.write(STORE_SECRET);
}

/** `add URL [--types a,b] [--disabled]`: prints the endpoint and its secret, shown this once. */
const add: Command = async (io, args) => {
  const { values, positionals } = parse(args, { types: { type: 'string' }, disabled: { type: 'boolean' } });
  const url = one(positionals, 'the URL to send messages to');
  const eventTypes = eventTypesOf(values.types);
  const client = await clientOf(io, values);
  const made = await client.webhooks.create({
    url,
    event_types: eventTypes,
    ...(values.disabled && { enabled: false }),
  });
  printWithSecret(io, values.json, made);
  return EXIT.ok;
};

const list: Command = async (io, args) => {
  const { values, positionals } = parse(args, {});
  if (positionals.length > 0) throw new UsageError('`webhooks list` takes no arguments');
  const webhooks = await (await clientOf(io, values)).webhooks.list();
  if (values.json) json(io, webhooks);
  else if (webhooks.length === 0) io.stderr.write('No webhooks.\n');
  else io.stdout.write(webhookTable(webhooks));
  return EXIT.ok;
};

const rm: Command = async (io, args) => {
  const { values, positionals } = parse(args, {});
  const id = one(positionals, 'a webhook id');
  const deleted = await checked((await clientOf(io, values)).webhooks.delete(id));
  if (values.json) json(io, deleted);
  else io.stdout.write(`Deleted webhook ${deleted.id} (${deleted.url})\n`);
  return EXIT.ok;
};

const enabling =
  (enabled: boolean): Command =>
  async (io, args) => {
    const { values, positionals } = parse(args, {});
    const id = one(positionals, 'a webhook id');
    const updated = await checked((await clientOf(io, values)).webhooks.update(id, { enabled }));
    if (values.json) json(io, updated);
    else io.stdout.write(`Webhook ${updated.id} ${enabled ? 'enabled' : 'disabled'}\n`);
    return EXIT.ok;
  };

const rotate: Command = async (io, args) => {
  const { values, positionals } = parse(args, {});
  const id = one(positionals, 'a webhook id');
  printWithSecret(io, values.json, await checked((await clientOf(io, values)).webhooks.rotate(id)));
  return EXIT.ok;
};

const test: Command = async (io, args) => {
  const { values, positionals } = parse(args, {});
  const id = one(positionals, 'a webhook id');
  const delivery = await checked((await clientOf(io, values)).webhooks.test(id));
  if (values.json) json(io, delivery);
  else {
    io.stdout.write(
      `Queued a ${delivery.type} message, ${delivery.id}: see secret-push webhooks deliveries ${id}\n`,
    );
  }
  return EXIT.ok;
};

/** `deliveries ID [--page N]`: one page of the log (50), newest first. */
const deliveries: Command = async (io, args) => {
  const { values, positionals } = parse(args, { page: { type: 'string' } });
  const id = one(positionals, 'a webhook id');
  const page = integer('page', values.page) ?? 1;
  const client = await clientOf(io, values);
  const log = await checked(client.webhooks.deliveries(id, { page }));
  if (values.json) json(io, log);
  else if (log.length > 0) io.stdout.write(deliveryTable(log));
  else io.stderr.write(page === 1 ? 'No deliveries yet.\n' : 'No deliveries on this page.\n');
  if (!values.json && log.length === DELIVERIES_PAGE_SIZE) io.stderr.write(`More: --page ${page + 1}\n`);
  return EXIT.ok;
};

const replay: Command = async (io, args) => {
  const { values, positionals } = parse(args, {});
  const [id, deliveryId, ...rest] = positionals;
  if (!id || !deliveryId || rest.length > 0) throw new UsageError('Expected a webhook id and a delivery id');
  const delivery = await checked((await clientOf(io, values)).webhooks.replay(id, deliveryId));
  if (values.json) json(io, delivery);
  else if (delivery.status === 'delivering') {
    io.stdout.write(`${delivery.id} is being sent right now: left as it is\n`);
  } else io.stdout.write(`${delivery.id} is due again now (the same webhook-id)\n`);
  return EXIT.ok;
};

const SUBCOMMANDS = new Map<string, Command>([
  ['add', add],
  ['list', list],
  ['rm', rm],
  ['enable', enabling(true)],
  ['disable', enabling(false)],
  ['rotate', rotate],
  ['test', test],
  ['deliveries', deliveries],
  ['replay', replay],
]);

/** `secret-push webhooks SUBCOMMAND …`. */
export const webhooks: Command = async (io, args) => {
  const [name, ...rest] = args;
  const run = name === undefined ? undefined : SUBCOMMANDS.get(name);
  if (!run) {
    const known = [...SUBCOMMANDS.keys()].join(', ');
    throw new UsageError(
      name === undefined ? `Expected webhooks ${known}` : `Unknown webhooks command: ${name} (${known})`,
    );
  }
  return run(io, rest);
};
