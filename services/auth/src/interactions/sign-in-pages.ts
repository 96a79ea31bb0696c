import type { Context } from 'koa';
import { t } from '@secret-push/i18n';
import { enrolPage } from '../pages/enrol-page';
import { loginPage } from '../pages/login-page';
import { qrSvg } from '../pages/qr';
import { secondFactorPage } from '../pages/second-factor-page';
import { totpUri } from '../users/totp';
import { formToken } from './csrf';
import { type PendingLogin, clientName, formTargets } from './pending-login';
import type { PendingStep } from './pending-step';
import { page } from './responses';
import type { InteractionDeps } from './sign-in-deps';

/** The forms of a sign-in, each a step: `/interaction/:uid/<form>`; also their CSRF purposes. */
export type FormName = 'login' | 'second-factor' | 'enrol' | 'continue' | 'cancel';

/** The pages of the sign-in steps, which more than one step shows. */
export interface SignInPages {
  showLogin(ctx: Context, login: PendingLogin, status: number, email?: string, error?: string): void;
  showSecondFactor(ctx: Context, login: PendingLogin, status: number, error?: string): void;
  showEnrol(
    ctx: Context,
    login: PendingLogin,
    step: Extract<PendingStep, { step: 'enrol' }>,
    status: number,
    error?: string,
  ): Promise<void>;
  /** The form that finishes a sign-in after the recovery codes of an enrolment were shown. */
  continueForm(login: PendingLogin): { action: string; csrfToken: string; label: string };
}

export function signInPages(deps: InteractionDeps): SignInPages {
  const csrfFor = (form: FormName, uid: string) => formToken(deps.cookieKeys, form, uid);
  const cancel = (uid: string) => ({
    action: `/interaction/${uid}/cancel`,
    csrfToken: csrfFor('cancel', uid),
  });
  return {
    showLogin(ctx, login, status, email, error) {
      const uid = login.details.uid;
      page(
        ctx,
        status,
        loginPage({
          action: `/interaction/${uid}/login`,
          csrfToken: csrfFor('login', uid),
          clientName: clientName(login),
          email,
          error,
          signupUrl: deps.signupThrottle ? `/interaction/${uid}/signup` : undefined,
          forgotUrl: deps.passwordReset ? `/interaction/${uid}/forgot` : undefined,
          cancel: cancel(uid),
        }),
        formTargets(login),
      );
    },

    showSecondFactor(ctx, login, status, error) {
      const uid = login.details.uid;
      page(
        ctx,
        status,
        secondFactorPage({
          action: `/interaction/${uid}/second-factor`,
          csrfToken: csrfFor('second-factor', uid),
          clientName: clientName(login),
          error,
          cancel: cancel(uid),
        }),
        formTargets(login),
      );
    },

    async showEnrol(ctx, login, step, status, error) {
      const uid = login.details.uid;
      const secret = deps.totpSecrets.open(step.accountId, step.sealedSecret);
      page(
        ctx,
        status,
        enrolPage({
          action: `/interaction/${uid}/enrol`,
          csrfToken: csrfFor('enrol', uid),
          lead: t('factor.enrol.lead', { client: clientName(login) }),
          qr: await qrSvg(totpUri(secret, step.email, deps.totp.issuer)),
          secret,
          error,
        }),
      );
    },

    continueForm: (login) => ({
      action: `/interaction/${login.details.uid}/continue`,
      csrfToken: csrfFor('continue', login.details.uid),
      label: t('signin.continueTo', { client: clientName(login) }),
    }),
  };
}
