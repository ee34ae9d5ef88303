/**
 * Builds and counts (rollups.ts, goal-visitors.ts, funnel-visitors.ts, property-counts.ts)
 * never fail a read: a statement that fails leaves its days to be read raw, and is tried
 * again later. Answers stay right, but slower, so the failure must still be seen: every
 * statement they run goes through `reportingCommand`, which tells `report` (the server's log)
 * what failed, at most once a minute for the same work and message.
 */

/** A build or count statement that failed; its days are read raw until one succeeds. */
export interface BackgroundFailure {
  /** What was being built: `visitor rollups`, `goal counts`, `funnel counts` or `property counts`. */
  work: string;
  /** The server's message, at most `MAX_MESSAGE` characters. */
  error: string;
  /** Failures of the same work and message left unreported in the minute before this one. */
  repeated: number;
}

/** Same work and message reported at most once in this long. */
const QUIET_MS = 60_000;
const MAX_MESSAGE = 500;
/** Distinct (work, message) pairs remembered; past it the memory starts over. */
const MAX_REMEMBERED = 100;

/**
 * Wraps commands so each failure reaches `report` (then is thrown on, as before).
 * @example
 * const wrap = reportingCommand((f) => logger({ level: 'warn', msg: 'build failed', ...f }));
 * const goalCommand = wrap('goal counts', command);
 */
export function reportingCommand(report: ((failure: BackgroundFailure) => void) | undefined, now: () => number = Date.now) {
  const seen = new Map<string, { at: number; held: number }>();
  return (work: string, command: (query: string) => Promise<void>) =>
    async (query: string): Promise<void> => {
      try {
        await command(query);
      } catch (error) {
        if (report) {
          const message = (error instanceof Error ? error.message : String(error)).trim().slice(0, MAX_MESSAGE);
          const key = `${work}\u0000${message}`;
          const last = seen.get(key);
          if (last && now() - last.at < QUIET_MS) last.held++;
          else {
            if (seen.size >= MAX_REMEMBERED) seen.clear();
            seen.set(key, { at: now(), held: 0 });
            try {
              report({ work, error: message, repeated: last?.held ?? 0 });
            } catch {
              // a logger that throws must not turn a slower read into a failed one
            }
          }
        }
        throw error;
      }
    };
}
