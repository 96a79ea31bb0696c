import type { Context, Middleware } from 'koa';
import type { Provider } from 'oidc-provider';
import type { Kysely } from 'kysely';
import { isConnectionError } from '@secret-push/db-kit';
import type { Logger } from '@secret-push/logger';
import { DependencyUnavailable } from '../errors';
import { type ClientAuthThrottle, ClientAuthThrottleUnavailable } from '../policy/client-auth-throttle';
import { ACCOUNTS_API_PATH, isFirstParty } from '../provider/api';
import { authenticateBasicClient } from '../provider/basic-client-auth';
import { personsProof } from '../provider/recent-sign-in';
import type { AuthDatabase } from '../storage/database';
import { accountStatus, deleteAccount, isAccountId } from '../users/account-lifecycle';

export interface AccountsApiDeps {
  provider: Provider;
  db: Kysely<AuthDatabase>;
  /** The token endpoint's failed-client-authentication throttle: failures here count there too. */
  throttle: ClientAuthThrottle;
  logger: Logger;
  /** How recent the person's sign-in must be for a deletion (AUTH_REAUTH_MAX_AGE_SECONDS). */
  reauthMaxAgeSeconds: number;
}

/** `${ACCOUNTS_API_PATH}/:sub` (discovery's `secret_push_accounts_endpoint`). */
const ACCOUNT = new RegExp(`^${ACCOUNTS_API_PATH}/([^/]+)$`);

/** The request metrics' `route` label of every accounts API request. */
const ROUTE_LABEL = 'accounts';

/** Only HTTP Basic is accepted here (client_secret_basic); the realm names this API. */
const CHALLENGE = 'Basic realm="accounts"';

/** A bearer token in the Authorization header (RFC 6750 §2.1), or undefined. */
const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i;

const INVALID_SUB = { error: 'invalid_request', error_description: 'sub is not an account id' };

/** Seconds a caller is told to wait when a dependency does not answer (as the provider's 503s). */
const RETRY_AFTER_UNAVAILABLE = '5';

/** A percent-decoded path segment; left as it is when it cannot be decoded (then not an id: 400). */
function pathSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function json(ctx: Context, status: number, body?: Record<string, unknown>): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.status = status;
  if (body) {
    ctx.type = 'json';
    ctx.body = body;
  }
}

/**
 * The accounts API:
 *
 * - `GET /accounts/:sub` (first-party applications, clients made by `clients create-web`, with
 *   their own credentials) → 200 `{"sub","active"}` (active false: disabled), 404 `not_found` when
 *   there is no such account (never created, or deleted).
 * - `DELETE /accounts/:sub` (the person's own proof: `Authorization: Bearer` with the access token
 *   of their sign-in at a first-party application, at most AUTH_REAUTH_MAX_AGE_SECONDS old,
 *   provider/recent-sign-in.ts) → 204: the account and everything of it are removed
 *   (users/account-lifecycle.ts `deleteAccount`). A client's own credentials never delete anyone
 *   (403 `forbidden`); a token of another account 403; a dead token 401 `invalid_token`; a sign-in
 *   too old 401 `insufficient_user_authentication` with `max_age` (RFC 9470).
 *
 * The client authenticates with HTTP Basic exactly as at the token endpoint. Missing or wrong
 * credentials: 401 `invalid_client` with `WWW-Authenticate`, counted by the token endpoint's
 * failed-client-authentication throttle (429 `slow_down` with `Retry-After` once over a cap). An
 * authenticated client that is not first-party: 403 `forbidden`. A `:sub` that is not an account
 * id (a UUID): 400 `invalid_request`. The database, or Redis when a failure must be counted, not
 * answering: 503 `temporarily_unavailable` with `Retry-After` (a failure that cannot be counted is
 * not answered: the throttle fails closed here). Every answer is JSON with `no-store`.
 */
export function accountsApi(deps: AccountsApiDeps): Middleware {
  const { provider, db, throttle, logger } = deps;

  async function refuseClient(ctx: Context, clientId: string | undefined): Promise<void> {
    const wait = await throttle.recordFailure(ctx.ip, clientId, { failOpen: false });
    logger.info({ endpoint: 'accounts', client_id: clientId, ip: ctx.ip }, 'accounts API: client refused');
    if (wait > 0) {
      ctx.set('Retry-After', String(wait));
      return json(ctx, 429, {
        error: 'slow_down',
        error_description: 'too many failed client authentication attempts, retry later',
      });
    }
    ctx.set('WWW-Authenticate', CHALLENGE);
    json(ctx, 401, { error: 'invalid_client', error_description: 'client authentication failed' });
  }

  const forbidden = (ctx: Context, description: string) =>
    json(ctx, 403, { error: 'forbidden', error_description: description });

  /** `DELETE` with the person's own access token: the proof that they asked, recently signed in. */
  async function deleteAsPerson(ctx: Context, sub: string, bearer: string): Promise<void> {
    const proof = await personsProof(provider, bearer, sub, deps.reauthMaxAgeSeconds);
    if (!proof.proved) {
      logger.info({ endpoint: 'accounts', reason: proof.reason }, 'accounts API: deletion refused');
      if (proof.reason === 'forbidden') return forbidden(ctx, 'this token may not delete this account');
      const stale = proof.reason === 'insufficient_user_authentication';
      const description = stale
        ? 'the sign-in is too old: sign in again (max_age) and retry'
        : 'the access token is not active';
      const maxAge = stale ? `, max_age=${deps.reauthMaxAgeSeconds}` : '';
      ctx.set(
        'WWW-Authenticate',
        `Bearer realm="accounts", error="${proof.reason}", error_description="${description}"${maxAge}`,
      );
      return json(ctx, 401, {
        error: proof.reason,
        error_description: description,
        ...(stale ? { max_age: deps.reauthMaxAgeSeconds } : {}),
      });
    }
    const { deleted, providerRows } = await deleteAccount(db, sub);
    if (deleted) {
      logger.info(
        { client_id: proof.clientId, account_id: sub.toLowerCase(), provider_rows: providerRows },
        'account deleted',
      );
    }
    json(ctx, 204);
  }

  async function handle(ctx: Context, sub: string): Promise<void> {
    const bearer = BEARER.exec(ctx.get('authorization'))?.[1];
    if (bearer !== undefined && ctx.method === 'DELETE') {
      if (!isAccountId(sub)) return json(ctx, 400, INVALID_SUB);
      return deleteAsPerson(ctx, sub, bearer);
    }
    const auth = await authenticateBasicClient(provider, ctx.get('authorization') || undefined);
    if (!auth.authenticated) return refuseClient(ctx, auth.clientId);
    const clientId = auth.client.clientId;
    if (!isFirstParty(auth.client)) {
      logger.info({ endpoint: 'accounts', client_id: clientId }, 'accounts API: client not first-party');
      return forbidden(ctx, 'only first-party applications may use the accounts API');
    }
    if (!isAccountId(sub)) return json(ctx, 400, INVALID_SUB);
    if (ctx.method === 'DELETE') {
      logger.info({ endpoint: 'accounts', client_id: clientId }, 'accounts API: deletion refused');
      return forbidden(
        ctx,
        "an application's credentials do not delete an account: send the person's own access token " +
          'from a recent sign-in (Authorization: Bearer)',
      );
    }
    const status = await accountStatus(db, sub);
    if (!status) return json(ctx, 404, { error: 'not_found', error_description: 'no such account' });
    json(ctx, 200, { sub: status.sub, active: status.active });
  }

  return async (ctx, next) => {
    const match = ACCOUNT.exec(ctx.path);
    if (!match) {
      await next();
      return;
    }
    ctx.state.route = ROUTE_LABEL;
    if (!['GET', 'HEAD', 'DELETE'].includes(ctx.method)) {
      ctx.set('Allow', 'GET, HEAD, DELETE');
      return json(ctx, 405, { error: 'invalid_request', error_description: 'method not allowed' });
    }
    try {
      await handle(ctx, pathSegment(match[1]!));
    } catch (err) {
      if (
        err instanceof DependencyUnavailable ||
        err instanceof ClientAuthThrottleUnavailable ||
        isConnectionError(err)
      ) {
        const dependency = err instanceof ClientAuthThrottleUnavailable ? 'redis' : 'database';
        logger.warn({ err: (err as Error).message, dependency }, 'accounts API unavailable');
        ctx.set('Retry-After', RETRY_AFTER_UNAVAILABLE);
        return json(ctx, 503, {
          error: 'temporarily_unavailable',
          error_description: `the ${dependency} is unavailable, retry later`,
        });
      }
      throw err;
    }
  };
}
