import { type Logger, createLogger } from '@secret-push/logger';

export interface Closable {
  close(): Promise<void>;
}

/**
 * The configuration of this process from its environment; a bad one prints every problem (the
 * loader's error message) and exits 1. Entry points that run once (migrations) use it directly.
 */
export function loadConfigOrExit<C>(loadConfig: (env: NodeJS.ProcessEnv) => C): C {
  try {
    return loadConfig(process.env);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
}

/**
 * The body of every long-running `main*.ts`: parse the configuration (a bad one prints every
 * problem and exits 1), create the logger, start, and on SIGTERM or SIGINT close gracefully (stop
 * accepting, finish what is in flight, close pools) exactly once.
 */
export function runService<C extends { logLevel: string }>(
  name: string,
  loadConfig: (env: NodeJS.ProcessEnv) => C,
  start: (config: C, logger: Logger) => Promise<Closable>,
): void {
  const config = loadConfigOrExit(loadConfig);
  const logger = createLogger({ name, level: config.logLevel });
  start(config, logger).then(
    (service) => {
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        logger.info({ signal }, 'shutting down: finishing in-flight work');
        service.close().then(
          () => {
            logger.info('stopped');
            // Everything is closed; a client still retrying a dead dependency must not keep us up.
            setTimeout(() => process.exit(), 1000).unref();
          },
          (err: Error) => {
            logger.error({ err }, 'unclean shutdown');
            process.exitCode = 1;
          },
        );
      };
      process.on('SIGTERM', () => stop('SIGTERM'));
      process.on('SIGINT', () => stop('SIGINT'));
    },
    (err: Error) => {
      logger.fatal({ err }, 'failed to start');
      process.exit(1);
    },
  );
}
