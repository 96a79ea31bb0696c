export { runService, loadConfigOrExit, type Closable } from './run-service';
export {
  OPERATIONS_HTTP_LIMITS,
  closeHttpServer,
  createHttpServer,
  listening,
  type HttpServerLimits,
} from './http-server';
export { DeadlineExceeded, withDeadline } from './deadline';
export { createMetricsRegistry, httpRequestDuration } from './metrics-registry';
export {
  DEFAULT_CHECK_TIMEOUT_MS,
  createReadiness,
  type CheckState,
  type DependencyCheck,
  type Readiness,
  type ReadinessReport,
} from './readiness';
export { exportDependencyStates } from './dependency-gauge';
export {
  HEALTH_PATHS,
  JSON_CONTENT_TYPE,
  OPERATIONS_PATHS,
  operationsResponse,
  type MetricsSource,
  type OperationsDeps,
  type OperationsResponse,
} from './operations';
export { startOperationsServer, type OperationsServer } from './operations-server';
