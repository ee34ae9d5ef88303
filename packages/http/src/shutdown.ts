import type { Logger } from './log.js';

export interface ShutdownOptions {
  /** Longest wait for in-flight requests before exiting anyway; default 10 s. */
  timeoutMs?: number;
  logger?: Logger;
  /** Default `process.exit`; tests pass a recorder. */
  exit?: (code: number) => void;
  signals?: readonly NodeJS.Signals[];
}

/** How long a graceful shutdown may take before it is forced. */
export const SHUTDOWN_TIMEOUT_MS = 10_000;

/**
 * Graceful shutdown on SIGTERM/SIGINT: the first signal runs `close` (stop
 * accepting, finish in-flight requests, close the database) and exits 0, or
 * 1 if closing failed. A second signal, or `timeoutMs` without `close`
 * finishing, exits 1 at once: an operator pressing Ctrl-C twice means it.
 * Returns a function that removes the handlers.
 *
 * @example
 * const running = await startServer(config);
 * exitGracefullyOnSignals(() => running.close());
 */
export function exitGracefullyOnSignals(close: () => Promise<void>, options: ShutdownOptions = {}): () => void {
  const { timeoutMs = SHUTDOWN_TIMEOUT_MS, logger = () => {}, exit = (code) => process.exit(code) } = options;
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  let stopping = false;

  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger({ level: 'warn', msg: 'forced exit', reason: `second ${signal}` });
      return exit(1);
    }
    stopping = true;
    logger({ level: 'info', msg: 'shutting down', signal });
    const timer = setTimeout(() => {
      logger({ level: 'warn', msg: 'forced exit', reason: `requests still running after ${timeoutMs} ms` });
      exit(1);
    }, timeoutMs);
    close().then(
      () => {
        clearTimeout(timer);
        exit(0);
      },
      (error: unknown) => {
        clearTimeout(timer);
        logger({ level: 'error', msg: 'shutdown failed', error: error instanceof Error ? error.message : String(error) });
        exit(1);
      },
    );
  };
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}
