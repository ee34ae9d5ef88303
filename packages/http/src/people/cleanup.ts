/**
 * Every server process removes what can no longer be used (ended, idle and too old web
 * sessions, used and expired links, old sign-in attempts and two-factor steps) from the
 * backend: a minute after it starts, then every `CLEANUP_INTERVAL_MS`. Removing is
 * idempotent, so several processes on one backend may each run it.
 */
import { CLEANUP_INTERVAL_MS, type People } from '@siteline/core';
import type { Logger } from '../log.js';

/** The first run's delay: late enough not to slow the start, early enough that a process restarted often still cleans. */
export const FIRST_CLEANUP_MS = 60_000;

/**
 * Starts the timers (they do not keep the process alive); returns the function that stops them.
 * @example const stopCleanup = scheduleCleanup(people, logger); … stopCleanup();
 */
export function scheduleCleanup(people: People, logger: Logger, intervalMs = CLEANUP_INTERVAL_MS, firstMs = FIRST_CLEANUP_MS): () => void {
  const run = () =>
    people.removeExpired().then(
      () => logger({ level: 'info', msg: 'expired sessions and links removed' }),
      (error: unknown) => logger({ level: 'error', msg: 'removing expired sessions and links failed', error: error instanceof Error ? error.message : String(error) }),
    );
  let every: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    void run();
    every = setInterval(() => void run(), intervalMs).unref();
  }, firstMs).unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
