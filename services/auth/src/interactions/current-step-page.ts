import { enrolledPage } from '../pages/recovery-codes-page';
import { type SignInMiddleware, formTargets, pendingLogin, text } from './pending-login';
import { pendingStep } from './pending-step';
import { page } from './responses';
import type { SignInKit } from './sign-in-flow';

/**
 * `GET /interaction/:uid`: the page of the step the sign-in is at: the login page, or (once the
 * password passed) the second-factor page, the enrolment page, or the "continue" page.
 */
export function currentStepPage({ pages }: SignInKit): SignInMiddleware {
  return async (ctx) => {
    const login = pendingLogin(ctx);
    const step = pendingStep(login.details);
    switch (step?.step) {
      case 'second_factor':
        return pages.showSecondFactor(ctx, login, 200);
      case 'enrol':
        return pages.showEnrol(ctx, login, step, 200);
      case 'enrolled':
        return page(ctx, 200, enrolledPage(pages.continueForm(login)), formTargets(login));
      case undefined: {
        const hint = text(login.details.params.login_hint);
        return pages.showLogin(ctx, login, 200, hint?.includes('@') ? hint : undefined);
      }
    }
  };
}
