import { type RequestHandler, Router } from 'express';
import { HttpError } from '@secret-push/http-kit';
import type { EmailSendRequest } from '../domain/email-rules';
import type { PushService } from '../domain/push-service';
import { auditContext } from './audit-context';
import { bearerChallenge, insufficientScope } from './bearer-auth';
import { need } from './context-guard';
import { emailSenderOf } from './principal';
import { emailSendOf } from './push.schemas';
import { acceptFormOrJson, readBody } from './request-body';

export interface NotifyEmailsDeps {
  pushes: PushService;
  /** 5 calls a minute per user (http/rate-limits.ts `notifyEmailsRateLimit`). */
  rateLimit: RequestHandler;
}

/** Password Pusher answers an unauthenticated `notify_emails` with `head :unauthorized`: no body. */
const ownerToken: RequestHandler = (_req, res, next) => {
  const principal = need(res, 'principal');
  if (!principal) {
    res.status(401).set('WWW-Authenticate', bearerChallenge()).end();
    return;
  }
  if (!principal.scopes.has('pushes:write')) return next(insufficientScope('pushes:write'));
  next();
};

/** The body: `notify_emails_to` (required), `notify_emails_to_locale`, `notify_emails_include_sender`. */
function sendRequestOf(body: unknown): EmailSendRequest {
  const b = (body ?? {}) as Record<string, unknown>;
  const fields: Record<string, string[]> = {};
  const fail = (field: string, message: string) => (fields[field] ??= []).push(message);
  const str = (name: string, max: number) => {
    const v = b[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string' || v.length > max) {
      fail(name, typeof v === 'string' ? `must be at most ${max} characters` : 'must be a string');
      return undefined;
    }
    return v;
  };
  const to = str('notify_emails_to', 2000);
  const locale = str('notify_emails_to_locale', 35);
  const flag = b.notify_emails_include_sender;
  const includeSender =
    flag === true || (typeof flag === 'string' && ['true', '1', 'yes', 'on'].includes(flag));
  const send = emailSendOf(to, locale, includeSender, fail);
  if (!send && !fields.notify_emails_to) fail('notify_emails_to', "can't be blank");
  if (Object.keys(fields).length > 0 || !send) throw HttpError.validation(fields);
  return send;
}

/**
 * `POST /pushes/:url_token/notify_emails` (also `.json`): the owner emails the push's link to up to
 * 5 more recipients. Mounted only where email is on (404 otherwise, as Password Pusher does).
 */
export function notifyEmailsRoutes(deps: NotifyEmailsDeps): Router {
  const router = Router();
  const notify: RequestHandler = async (req, res) => {
    const principal = need(res, 'principal')!;
    await deps.pushes.notifyEmails(
      String(req.params.url_token),
      { owner: principal.id, sender: emailSenderOf(principal) },
      sendRequestOf(req.body),
      auditContext(req),
    );
    res.status(201).json({ message: 'Recipient(s) are added to the queue to be sent.' });
  };
  router.post(
    '/pushes/:url_token/notify_emails',
    ownerToken,
    deps.rateLimit,
    acceptFormOrJson,
    ...readBody,
    notify,
  );
  return router;
}
