import type { Middleware } from 'koa';
import { HEALTH_PATHS, type Readiness, operationsResponse } from '@secret-push/runtime';

/**
 * `GET /healthz` and `/readyz`, answered by the runtime's operations kit; their request metrics
 * are labelled `healthz` and `readyz`. `/metrics` is not served here (the Ingress routes this
 * port): server.ts serves it on the metrics port, `AUTH_METRICS_PORT`.
 */
export function operationalEndpoints(deps: { readiness: Readiness }): Middleware {
  return async (ctx, next) => {
    const answer =
      ctx.method === 'GET' && HEALTH_PATHS.includes(ctx.path)
        ? operationsResponse(ctx.path, deps)
        : undefined;
    if (!answer) {
      await next();
      return;
    }
    ctx.state.route = ctx.path.slice(1);
    const { status, contentType, body } = await answer;
    ctx.status = status;
    ctx.type = contentType;
    ctx.body = body;
  };
}
