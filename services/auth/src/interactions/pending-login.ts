import { ACCOUNT_CONSOLE_CLIENT_ID } from '../provider/account-console-client';
import type { RouterContext, RouterMiddleware } from '@koa/router';
import type { Context, DefaultState } from 'koa';
import { type Provider, errors } from 'oidc-provider';
import { t } from '@secret-push/i18n';
import type { AuthMetrics } from '../observability/metrics';
import { messagePage } from '../pages/message-page';
import { formTarget } from '../pages/page-headers';
import { isFirstParty } from '../provider/api';
import { provided } from '../request-state';
import { expired, page } from './responses';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;
type Client = NonNullable<Awaited<ReturnType<Provider['Client']['find']>>>;

/** A pending login: oidc-provider's interaction and the (first-party) client it is for. */
export interface PendingLogin {
  details: Interaction;
  client: Client;
}

/** What the steps of a sign-in's chain hand on to the next (the sign-in router's `ctx.state`). */
export interface SignInState extends DefaultState {
  /** The fields of a POSTed form, once it passed its checks (sign-in-form.ts). */
  fields?: URLSearchParams;
  /** The pending login of `/interaction/:uid` (loadPendingLogin). */
  login?: PendingLogin;
}

export type SignInContext = RouterContext<SignInState>;
export type SignInMiddleware = RouterMiddleware<SignInState>;

export const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The interaction's uid in the path (`/interaction/:uid…`). */
export const uidOf = (ctx: SignInContext): string => ctx.params.uid ?? '';

/** The pending login `uid`, or undefined once a page saying why not has been sent. */
export async function findPendingLogin(
  ctx: Context,
  uid: string,
  { provider, metrics }: { provider: Provider; metrics: AuthMetrics },
): Promise<PendingLogin | undefined> {
  let details: Interaction;
  try {
    details = await provider.interactionDetails(ctx.req, ctx.res);
  } catch (err) {
    if (err instanceof errors.SessionNotFound) {
      expired(ctx);
      return undefined;
    }
    throw err;
  }
  if (details.uid !== uid) {
    expired(ctx);
    return undefined;
  }
  const client = await provider.Client.find(text(details.params.client_id) ?? '');
  if (!client || !isFirstParty(client)) {
    metrics.signIns.inc({ outcome: 'forbidden' });
    page(
      ctx,
      403,
      messagePage(
        t('messages.refused.title'),
        t('messages.refused.client'),
        t('messages.refused.clientDetail'),
      ),
    );
    return undefined;
  }
  if (details.prompt.name !== 'login') {
    // First-party clients are granted without a consent prompt (provider/sign-in.ts); any other
    // prompt is one this service has no page for.
    page(ctx, 400, messagePage(t('messages.refused.title'), t('messages.refused.prompt')));
    return undefined;
  }
  return { details, client };
}

/** The step that finds the pending login of the path's uid; the chain stops at a refusal page. */
export function loadPendingLogin(deps: { provider: Provider; metrics: AuthMetrics }): SignInMiddleware {
  return async (ctx, next) => {
    const login = await findPendingLogin(ctx, uidOf(ctx), deps);
    if (!login) return;
    ctx.state.login = login;
    await next();
  };
}

/** The pending login loadPendingLogin found (it must have run earlier in the chain). */
export const pendingLogin = (ctx: SignInContext): PendingLogin => provided(ctx.state, 'login');

/** The checked form's fields (sign-in-form.ts must have run earlier in the chain). */
export const postedFields = (ctx: SignInContext): URLSearchParams => provided(ctx.state, 'fields');

/** Where the forms' answers may redirect to (the application), for the pages' CSP. */
export const formTargets = ({ details }: PendingLogin) => [formTarget(text(details.params.redirect_uri))];

/**
 * The application's display name on the pages (its `client_name`, `clients create-web --name`, as
 * it is), or, without one, "the application" in the page's language (never its client id).
 */
export const clientName = ({ client }: PendingLogin): string =>
  // The built-in account console is ours: its name in the page's language, not its registered one.
  client.clientId === ACCOUNT_CONSOLE_CLIENT_ID
    ? t('signin.accountSettingsClient')
    : client.clientName?.trim() || t('signin.unnamedClient');
