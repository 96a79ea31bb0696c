import type {
  DeliveryStatus,
  FailedEmailFacts,
  PushFacts,
  SealedSecret,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEventType,
} from '../webhook';

export interface NewEndpointRecord {
  id: string;
  owner: string;
  url: string;
  eventTypes: WebhookEventType[];
  /** False: created disabled (`disabled_reason` says by its owner), listening to nothing. */
  enabled: boolean;
  secret: SealedSecret;
}

export interface EndpointChanges {
  url?: string;
  eventTypes?: WebhookEventType[];
  enabled?: boolean;
}

/** An owner's endpoints (see domain/webhook.ts). Every call is scoped by owner: another's is not found. */
export interface WebhookEndpointStore {
  /**
   * Creates an endpoint unless the owner has `maxPerOwner` already ('limit'), and marks the owner's
   * active pushes as listened to (`push.outbox`), in one transaction.
   */
  create(record: NewEndpointRecord, maxPerOwner: number): Promise<WebhookEndpoint | 'limit'>;
  list(owner: string): Promise<WebhookEndpoint[]>;
  find(owner: string, id: string): Promise<WebhookEndpoint | undefined>;
  /** Applies the changes; enabling clears the disabled reason and marks the owner's active pushes. */
  update(owner: string, id: string, changes: EndpointChanges): Promise<WebhookEndpoint | undefined>;
  /** Deletes the endpoint and its deliveries. */
  remove(owner: string, id: string): Promise<boolean>;
  /** Deletes every endpoint of an owner, and their deliveries (account deletion); how many. */
  removeAllOf(owner: string): Promise<number>;
  /** A new secret signs from now; the current one keeps signing for `overlapSeconds`. */
  rotate(
    owner: string,
    id: string,
    secret: SealedSecret,
    overlapSeconds: number,
  ): Promise<WebhookEndpoint | undefined>;
  /**
   * Disables an enabled endpoint (the worker: a 410, or the schedule spent), with the reason, and
   * with `notifyOwner` queues its owner's email notice in the same statement (a person with a
   * verified address). Already disabled: nothing.
   */
  disable(
    id: string,
    reason: string,
    options: { notifyOwner: boolean },
  ): Promise<{ disabled: boolean; noticeQueued: boolean }>;
}

/** A new message for one endpoint (an event, or a test). */
export interface NewDelivery {
  endpointId: string;
  eventId: string;
  type: string;
  body: string;
}

/** A delivery leased to one sender, with what it needs to sign and send. */
export interface LeasedDelivery {
  id: string;
  endpointId: string;
  owner: string;
  attempts: number;
  body: string;
  url: string;
  /** False: the endpoint was disabled since the message was queued (not sent). */
  enabled: boolean;
  /** The secrets that sign now: the current one, and the previous one while a rotation overlaps. */
  secrets: SealedSecret[];
}

/** What one attempt ended in (`status` the delivery's new state). */
export interface AttemptRecord {
  status: Exclude<DeliveryStatus, 'delivering'>;
  /** `pending`: seconds until the next attempt. */
  retryInSeconds?: number;
  lastStatus: number | null;
  lastError: string | null;
  latencyMs: number | null;
  response: string | null;
}

/** Deliveries, their leases and their log (the table's states follow packages/mail's mail queue). */
export interface WebhookDeliveryStore {
  /** The pushes of these events as bodies show them (gone ones are left out). */
  pushFacts(pushIds: readonly string[]): Promise<PushFacts[]>;
  /** The failed emails of `email_failed` events (gone ones are left out). */
  failedEmails(emailIds: readonly string[]): Promise<FailedEmailFacts[]>;
  /** The enabled endpoints of these owners. */
  listening(owners: readonly string[]): Promise<Pick<WebhookEndpoint, 'id' | 'owner' | 'eventTypes'>[]>;
  /** Queues messages; one per (endpoint, event) ever: a repeat is ignored. The ids queued. */
  enqueue(deliveries: readonly NewDelivery[]): Promise<string[]>;
  find(endpointId: string, id: string): Promise<WebhookDelivery | undefined>;
  /**
   * Leases up to `limit` due deliveries for `leaseSeconds` (counting the attempt), oldest due first,
   * skipping those another sender holds; a lease that ran out (a sender that died) is due again.
   */
  leaseDue(limit: number, leaseSeconds: number): Promise<LeasedDelivery[]>;
  /** Records an attempt, only if the lease is still this attempt's. Whether it was. */
  record(delivery: Pick<LeasedDelivery, 'id' | 'attempts'>, outcome: AttemptRecord): Promise<boolean>;
  /** A page of an endpoint's deliveries, newest first. */
  list(endpointId: string, page: number): Promise<WebhookDelivery[]>;
  /** A manual replay: the same message (same `webhook-id`) due now, with a fresh schedule. */
  replay(endpointId: string, id: string): Promise<WebhookDelivery | undefined>;
}
