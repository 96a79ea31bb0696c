import type { Readiness } from './readiness';

/** What `/metrics` serves: a prom-client Registry satisfies it. */
export interface MetricsSource {
  readonly contentType: string;
  metrics(): Promise<string>;
}

export interface OperationsDeps {
  readiness: Readiness;
  /**
   * Absent: `/metrics` is not answered here (a port the Ingress routes serves health only; the
   * metrics are on a port of their own, reachable from the monitoring namespace alone).
   */
  registry?: MetricsSource;
}

/** A complete answer, for any framework to send as it is. */
export interface OperationsResponse {
  status: number;
  contentType: string;
  body: string;
}

/** The paths operationsResponse answers; request logs leave them out. */
export const OPERATIONS_PATHS: readonly string[] = ['/healthz', '/readyz', '/metrics'];

/** The operations paths a service's main (routed) port serves: health, never metrics. */
export const HEALTH_PATHS: readonly string[] = ['/healthz', '/readyz'];

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

const json = (status: number, body: unknown): OperationsResponse => ({
  status,
  contentType: JSON_CONTENT_TYPE,
  body: JSON.stringify(body),
});

/**
 * The operations endpoints of every process, framework-neutral:
 * - `/healthz` (the process is up): 200 `{"status":"ok"}`;
 * - `/readyz` (its dependencies answer): 200 `{"status":"ready","checks":{…}}` or 503
 *   `{"status":"unavailable","checks":{…}}`;
 * - `/metrics`: the registry in Prometheus text format, with the registry's content type (only
 *   when a registry is given).
 * Any other path is `undefined`, returned synchronously, so a request that is not for these
 * endpoints goes on without waiting a turn.
 */
export function operationsResponse(
  path: string,
  deps: OperationsDeps,
): Promise<OperationsResponse> | undefined {
  switch (path) {
    case '/healthz':
      return Promise.resolve(json(200, { status: 'ok' }));
    case '/readyz':
      return deps
        .readiness()
        .then(({ ready, checks }) =>
          json(ready ? 200 : 503, { status: ready ? 'ready' : 'unavailable', checks }),
        );
    case '/metrics': {
      const { registry } = deps;
      if (!registry) return undefined;
      return registry.metrics().then((body) => ({ status: 200, contentType: registry.contentType, body }));
    }
    default:
      return undefined;
  }
}
