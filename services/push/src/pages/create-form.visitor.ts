import type { Request, Response } from 'express';
import { t, translator } from '@secret-push/i18n';
import { preselectedLocale } from '../domain/email-rules';
import { type CreateFeatures, mayCreate } from '../domain/create-policy';
import type { PushKind } from '../domain/push';
import type { WebFormPresets } from '../config/web-form';
import type { CreateRules } from '../http/push.schemas';
import { type WebCaller, type WebSessions, webActor, webCallerOf } from '../session/web-session';
import type { UploadLimits } from '../uploads/form';
import type { FormRules } from './create.views';
import { type WebEmail, noticeOfferFor, noticesOffered } from './email-pages';
import type { EmailFormRules } from './email.views';

/** The kinds the form can offer, in its order; each only where the instance enables it. */
const FORM_KINDS: readonly PushKind[] = ['text', 'url', 'qr', 'file'];

/** The form's pages: its script sends a Files secret to us with XMLHttpRequest. */
export const FORM_PAGE = { connectsToSelf: true };

/** Why a form without its session's token is refused (a page's message, in its language). */
export const csrfRefusedMessage = (): string => t('create.csrf');

export interface FormVisitorDeps {
  rules: CreateRules;
  features: CreateFeatures;
  /** The form's expiry presets and defaults (PUSH_WEB_*), not the API's defaults. */
  presets: WebFormPresets;
  /** Sessions of signed-in people: absent when the instance has no sign-in. */
  sessions?: WebSessions;
  /** The upload limits, where the instance has an object store. */
  fileLimits?: UploadLimits;
  /** Email (the link to recipients, owner notices), where the instance sends it. */
  email?: WebEmail;
}

/** What the create form offers a visitor, and what it asks of them (the create policy's answers). */
export interface FormVisitor {
  signInEnabled: boolean;
  /** The kinds this visitor is offered: enabled here, and (files) allowed to this caller. */
  kindsFor: (caller: WebCaller) => PushKind[];
  rulesFor: (caller: WebCaller) => FormRules;
  /** The rules with the form's email part for this caller (their notice defaults read). */
  fullRulesFor: (caller: WebCaller) => Promise<FormRules>;
  /** Whether this caller's form has the "Email me when…" boxes (none checked then means none). */
  noticesOffered: (caller: WebCaller) => boolean;
  /** Why this visitor gets no form, if they get none. */
  noticeFor: (caller: WebCaller) => string | undefined;
  csrfOf: (caller: WebCaller) => string | undefined;
  /** A signed-in person's form must carry their session's token; an anonymous one has none to carry. */
  csrfRefused: (req: Request, res: Response) => boolean;
}

export function formVisitor(deps: FormVisitorDeps): FormVisitor {
  const { sessions, fileLimits } = deps;
  const signInEnabled = sessions !== undefined;
  const filesOn = fileLimits !== undefined && deps.rules.enabledKinds.has('file');
  const kindsFor = (caller: WebCaller): PushKind[] =>
    FORM_KINDS.filter(
      (k) =>
        deps.rules.enabledKinds.has(k) &&
        (k !== 'file' || (filesOn && mayCreate(webActor(caller), 'file', deps.features).ok)),
    );
  const rulesFor = (caller: WebCaller): FormRules => {
    const kinds = kindsFor(caller);
    return {
      ...deps.rules,
      presets: deps.presets,
      kinds,
      ...(kinds.includes('file') && fileLimits ? { fileLimits } : {}),
      nameAndNote: caller.kind === 'signed-in',
    };
  };
  /**
   * The email part: "Email the link to" for a signed-in person where email is on (an anonymous
   * create may not email); "Show my address" and "Email me when…" with a verified address (else
   * why not).
   */
  const emailRulesFor = async (caller: WebCaller): Promise<EmailFormRules | undefined> => {
    const { email } = deps;
    const notices = await noticeOfferFor(caller, email);
    if (!notices) return undefined;
    return {
      ...(email
        ? // The email's language preselected: the page's (the sender's language).
          {
            recipients: {
              locales: email.locales,
              defaultLocale: preselectedLocale(email.locales, translator().locale),
            },
          }
        : {}),
      ...(email && notices.offered ? { senderAddress: notices.to } : {}),
      notices,
    };
  };
  return {
    signInEnabled,
    kindsFor,
    rulesFor,
    async fullRulesFor(caller) {
      const email = await emailRulesFor(caller);
      return { ...rulesFor(caller), ...(email ? { email } : {}) };
    },
    noticesOffered: (caller) => noticesOffered(caller, deps.email),
    noticeFor(caller) {
      if (kindsFor(caller).length === 0) return t('create.notice.noKinds');
      if (caller.kind === 'signed-in' || deps.features.anonymousCreate) return undefined;
      return signInEnabled ? t('create.notice.signIn') : t('create.notice.noSignIn');
    },
    csrfOf: (caller) => (caller.kind === 'signed-in' ? caller.session.csrf : undefined),
    csrfRefused(req, res) {
      const caller = webCallerOf(res);
      return caller.kind === 'signed-in' && !sessions!.csrfMatches(req, caller.session);
    },
  };
}
