import type { components } from './generated/openapi.ts';

/*
 * The SDK's public types, taken from the types generated from the API's OpenAPI document
 * (generated/openapi.ts), so that they follow the API. Field names are the API's own (snake_case).
 */

type Schemas = components['schemas'];

/** A push as anyone with its token sees it (no payload): the answer of DELETE. */
export type Push = Schemas['Push'];
/** A push with the owner's `name` and `note`: the answer of a create, and the items of the lists. */
export type OwnedPush = Schemas['OwnedPush'];
/** A retrieved push: the push with its `payload` and `files`. */
export type RetrievedPush = Schemas['RetrievedPush'];
/** A file of a retrieved push, with its short-lived download link `url`. */
export type PushFile = Schemas['PushFile'];
export type Version = Schemas['Version'];
export type Preview = Schemas['Preview'];
export type AuditEntry = Schemas['AuditEntry'];
export type AuditLog = Schemas['AuditLog'];
export type ErrorBody = Schemas['ErrorBody'];
export type ErrorCode = ErrorBody['code'];
export type PushKind = Push['kind'];

type PushInput = Schemas['PushInput'];

/** The settings of a new push, as the API names them; each is optional and has a default. */
export type PushSettings = {
  [
    K in
      | 'expire_after_days'
      | 'expire_after_duration'
      | 'expire_after_views'
      | 'deletable_by_viewer'
      | 'retrieval_step'
      | 'passphrase'
      | 'name'
      | 'note'
  ]?: PushInput[K];
} & EmailSettings;

/** What an owner may ask to be emailed about (`notify_owner_on`): view, failed_passphrase, expired_unseen. */
export type OwnerNotice = Extract<NonNullable<PushInput['notify_owner_on']>, readonly unknown[]>[number];

/**
 * Email on create (where the server has it: `features.pushes.email_auto_dispatch`), as the API
 * names them. An anonymous create with any of them is refused (422).
 */
export interface EmailSettings {
  /**
   * Email the link to these addresses (at most 5; never the passphrase): a comma-separated string
   * as the API takes it, or a list (sent joined with commas).
   */
  notify_emails_to?: string | readonly string[];
  /** The language of that email (one of the server's supported locales, e.g. `en`). */
  notify_emails_to_locale?: string;
  /** Name the owner's verified address in the recipients' email. Default false. */
  notify_emails_include_sender?: boolean;
  /**
   * Email the owner (a person with a verified email) when the push is viewed, a wrong passphrase
   * is tried, or it expires unseen; omitted: the account's defaults. An empty list: none.
   */
  notify_owner_on?: readonly OwnerNotice[];
}

/** The answer of `POST /pushes/:token/notify_emails`. */
export interface NotifyEmailsResult {
  message: string;
}

/** A webhook endpoint of the caller (never its secret). */
export type Webhook = Schemas['Webhook'];
/** An endpoint with its signing secret (`whsec_…`): the answer of a create and of a rotation, the only times it is shown. */
export type WebhookWithSecret = Schemas['WebhookWithSecret'];
/** One message to one endpoint and how its delivery went (an entry of the delivery log). */
export type WebhookDelivery = Schemas['WebhookDelivery'];
/** An event type an endpoint may ask for (`webhook.test` is sent on request whatever they are). */
export type WebhookEventType = Webhook['event_types'][number];
