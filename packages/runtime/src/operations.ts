import type { Readiness } from './readiness';

/** What `/metrics` serves: a prom-client Registry satisfies it. */
export interface MetricsSource {
  readonly contentType: string;
  metrics(): Promise<string>;
}

export interface OperationsDeps {
  readiness: Readiness;
  registry: MetricsSource;
}

/** A complete answer, for any framework to send as it is. */
export interface OperationsResponse {
  status: number;
  contentType: string;
  body: string;
}

/** The paths operationsResponse answers; request logs leave them out. */
export const OPERATIONS_PATHS: readonly string[] = ['/healthz', '/readyz', '/metrics'];

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
 * - `/metrics`: the registry in Prometheus text format, with the registry's content type.
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
    case '/metrics':
      return deps.registry.metrics().then((body) => ({
        status: 200,
        contentType: deps.registry.contentType,
        body,
      }));
    default:
      return undefined;
  }
}
