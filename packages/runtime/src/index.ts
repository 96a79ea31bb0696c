export { runService, type Closable } from './run-service';
export { closeHttpServer, listening } from './http-server';
