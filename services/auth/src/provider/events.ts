import type { KoaContextWithOIDC, Provider } from 'oidc-provider';
import type { Logger } from '@secret-push/logger';
import type { AuthMetrics } from '../observability/metrics';
import type { ClientAuthThrottle } from '../policy/client-auth-throttle';

interface ProviderError extends Error {
  error?: string;
  error_detail?: string;
  statusCode?: number;
}

const ENDPOINT_EVENTS = {
  'grant.error': 'token',
  'introspection.error': 'introspection',
  'revocation.error': 'revocation',
  'authorization.error': 'authorization',
  'userinfo.error': 'userinfo',
  'end_session.error': 'end_session',
  'end_session_confirm.error': 'end_session_confirm',
} as const;

/**
 * Logs and counts through the provider's events. Failed client authentications are not recorded
 * here: `installClientThrottle` marks them and `throttleFailedClientAuth` (http/) counts them, so
 * that counting and the 429 decision happen in one place; `throttle` is accepted and unused.
 */
export function attachProviderEvents(
  provider: Provider,
  deps: { logger: Logger; metrics: AuthMetrics; throttle?: ClientAuthThrottle },
): void {
  const { logger, metrics } = deps;

  provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
    metrics.tokensIssued.inc({ client_id: ctx.oidc.client?.clientId ?? 'none' });
  });

  for (const [event, endpoint] of Object.entries(ENDPOINT_EVENTS)) {
    provider.on(event as 'grant.error', (ctx: KoaContextWithOIDC, err: ProviderError) => {
      const clientId = ctx.oidc?.client?.clientId;
      const error = err.error ?? 'unknown';
      metrics.refusals.inc({ endpoint, error, client_id: clientId ?? 'none' });
      logger.info(
        { endpoint, error, detail: err.error_detail, client_id: clientId, ip: ctx.ip },
        'oauth request refused',
      );
    });
  }

  provider.on('end_session.success', (ctx: KoaContextWithOIDC) => {
    logger.info({ client_id: ctx.oidc.client?.clientId, ip: ctx.ip }, 'signed out');
  });

  provider.on('server_error', (ctx: KoaContextWithOIDC, err: Error) => {
    logger.error({ err, path: ctx.path, route: ctx.oidc?.route }, 'auth server error');
  });
}
