import type { RouterContext, RouterMiddleware } from '@koa/router';
import type { Context, DefaultState } from 'koa';
import type { Kysely } from 'kysely';
import type { Adapter, Provider } from 'oidc-provider';
import type { Logger } from '@secret-push/logger';
import type { LoginThrottle } from '../../policy/login-throttle';
import { predatesPasswordChange } from '../../provider/sign-in';
import { provided } from '../../request-state';
import type { AuthDatabase } from '../../storage/database';
import { type AccountOverview, accountOverview } from '../../users/account-settings';
import { findSignInAccount } from '../../users/sign-in';
import type { MailOutbox } from '../../users/mail-outbox';
import type { TotpSecrets } from '../../users/totp-secrets';
import type { AppLink } from '../../pages/app-link';

/** What the account console (account-router.ts and its sections) is built from. */
export interface AccountConsoleDeps {
  provider: Provider;
  db: Kysely<AuthDatabase>;
  /** oidc-provider's storage adapter, which also keeps a pending enrolment (model `AccountEnrolment`). */
  adapter: new (model: string) => Adapter;
  throttle: LoginThrottle;
  cookieKeys: readonly string[];
  issuer: string;
  secureCookies: boolean;
  logger: Logger;
  totp: { required: boolean; issuer: string };
  /** The password, second factor and recovery code forms need a sign-in at most this old. */
  reauthMaxAgeSeconds: number;
  /** Seals and opens TOTP secrets with the data key ring (AUTH_DATA_KEYS). */
  totpSecrets: TotpSecrets;
  /** Email is on (AUTH_SMTP_URL): each change queues its security notice; undefined: none. */
  outbox?: MailOutbox | undefined;
  /** AUTH_APP_URL and AUTH_APP_NAME: the web app the account page leads back to. */
  app?: AppLink | undefined;
}

export type Session = Awaited<ReturnType<Provider['Session']['get']>>;

/** The person signed in in this browser: the provider session and the account's overview. */
export interface SignedIn {
  session: Session;
  account: AccountOverview;
}

/** What the steps of an account console form's chain hand on (the console router's `ctx.state`). */
export interface AccountState extends DefaultState {
  /** Who posted the form, once it passed its checks (account-form.ts). */
  who?: SignedIn;
  /** The form's fields, once it passed its checks. */
  fields?: URLSearchParams;
}

export type AccountContext = RouterContext<AccountState>;
export type AccountMiddleware = RouterMiddleware<AccountState>;

/** The person signed in in this browser, while that sign-in is still good. */
export async function signedIn(
  ctx: Context,
  { provider, db }: Pick<AccountConsoleDeps, 'provider' | 'db'>,
): Promise<SignedIn | undefined> {
  const session = await provider.Session.get(ctx);
  const accountId = session.accountId;
  if (!accountId || session.loginTs === undefined) return undefined;
  const account = await findSignInAccount(db, accountId);
  if (!account || predatesPasswordChange(session.loginTs, account.passwordChangedAt)) return undefined;
  const overview = await accountOverview(db, accountId);
  return overview ? { session, account: overview } : undefined;
}

/** Who posted the form (account-form.ts must have run earlier in the chain). */
export const signedInPerson = (ctx: AccountContext): SignedIn => provided(ctx.state, 'who');

/** The posted form's fields (account-form.ts must have run earlier in the chain). */
export const accountFields = (ctx: AccountContext): URLSearchParams => provided(ctx.state, 'fields');
