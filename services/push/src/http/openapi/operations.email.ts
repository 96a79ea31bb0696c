import {
  MAX_RECIPIENTS_PER_PUSH,
  MAX_RECIPIENTS_PER_SEND,
  SUPPORTED_LOCALES,
} from '../../domain/email-rules';
import { NOTIFY_EMAILS_PER_MINUTE } from '../rate-limits';
import { errors, tokens } from './operations.shared';
import { URL_TOKEN } from './operations.pushes';
import { jsonResponse } from './responses';
import type { JsonSchema, OperationObject } from './types';

/* The email operation (issue 26): documented only where email is on (PUSH_SMTP_URL). */

const NOTIFY_BODY: JsonSchema = {
  type: 'object',
  properties: {
    notify_emails_to: {
      type: 'string',
      maxLength: 2000,
      description: `Comma-separated addresses, 1 to ${MAX_RECIPIENTS_PER_SEND}, no duplicates (any case), no trailing comma.`,
    },
    notify_emails_to_locale: {
      type: 'string',
      enum: [...SUPPORTED_LOCALES],
      description:
        "The language of the email, spelled exactly as listed (`pt-BR`, not `pt-br`); the instance's I18N_LANGUAGES may offer fewer (422 `is not available`). Default: the push's.",
    },
    notify_emails_include_sender: {
      description: "Name the owner's verified address in the email (a person's token only); default false.",
    },
  },
  required: ['notify_emails_to'],
};

export function notifyEmailsOperation(): OperationObject {
  return {
    operationId: 'notifyEmails',
    tags: ['Pushes'],
    summary: "Email the push's link to more recipients (owner only)",
    description: `Queues one email per recipient (sent by the worker, retried on temporary failures; each email's state shows in the audit log under \`email_deliveries\`). Owner only, with \`pushes:write\`: without a token → 401 with an **empty body** (as Password Pusher answers). At most ${MAX_RECIPIENTS_PER_PUSH} recipients per push over its life, ${NOTIFY_EMAILS_PER_MINUTE} calls a minute per user (429 \`Too many email notification requests. Please try again in a minute.\`), and the owner's daily cap (\`PUSH_EMAIL_DAILY_LIMIT\`, 429). An expired push → 422 \`are not available for expired pushes\`. Also at \`…/notify_emails.json\`.`,
    parameters: [URL_TOKEN],
    requestBody: {
      description: 'The recipients (JSON, or a urlencoded form with the same names).',
      required: true,
      content: {
        'application/json': { schema: NOTIFY_BODY },
        'application/x-www-form-urlencoded': { schema: NOTIFY_BODY },
      },
    },
    security: tokens('pushes:write'),
    responses: {
      201: jsonResponse('Queued.', {
        type: 'object',
        properties: { message: { type: 'string', const: 'Recipient(s) are added to the queue to be sent.' } },
        required: ['message'],
        additionalProperties: false,
      }),
      ...errors({
        400: ['bad_request'],
        403: {
          codes: ['insufficient_scope', 'forbidden'],
          description: "The token lacks `pushes:write`, or the push is someone else's.",
        },
        404: ['not_found'],
        415: ['unsupported_media_type'],
        422: ['validation_failed'],
        429: ['rate_limited'],
        503: ['dependency_unavailable'],
      }),
      401: { description: 'No token (empty body), or an invalid one (`WWW-Authenticate: Bearer`).' },
    },
  };
}
