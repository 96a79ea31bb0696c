import type { Middleware } from 'koa';
import { type OperationsDeps, operationsResponse } from '@secret-push/runtime';

/**
 * `GET /healthz`, `/readyz` and `/metrics`, answered by the runtime's operations kit; their
 * request metrics are labelled `healthz`, `readyz` and `metrics`.
 */
export function operationalEndpoints(deps: OperationsDeps): Middleware {
  return async (ctx, next) => {
    const answer = ctx.method === 'GET' ? operationsResponse(ctx.path, deps) : undefined;
    if (!answer) {
      await next();
      return;
    }
    (ctx.state as { route?: string }).route = ctx.path.slice(1);
    const { status, contentType, body } = await answer;
    ctx.status = status;
    ctx.type = contentType;
    ctx.body = body;
  };
}
