/**
 * Storage going away is logged when it starts and when it ends, not once per beacon: a busy
 * site sends thousands a second, and an outage would otherwise bury everything else in the log.
 */
import type { Logger } from '../log.js';

/**
 * One `error` line when a run of failures starts and one `info` line when the next success
 * ends it, with how long it lasted and how many failures it had.
 *
 * @example
 * const outage = new OutageLog(logger, { down: 'collect write failed; beacons answered 503', up: 'collect writes work again' });
 * try { await write(); outage.recovered(); } catch (error) { outage.failed(error); }
 */
export class OutageLog {
  private since: number | undefined;
  private failures = 0;

  constructor(
    private readonly logger: Logger,
    private readonly messages: { down: string; up: string },
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the last attempt failed. */
  get down(): boolean {
    return this.since !== undefined;
  }

  /** A failure: logged (with `fields`) only when it is the first since the last success. */
  failed(error: unknown, fields: Record<string, unknown> = {}): void {
    this.failures++;
    if (this.since !== undefined) return;
    this.since = this.now();
    this.logger({ level: 'error', msg: this.messages.down, ...fields, error: describeError(error) });
  }

  /** A success: ends the outage, if there was one, with one line. */
  recovered(fields: Record<string, unknown> = {}): void {
    if (this.since === undefined) return;
    this.logger({ level: 'info', msg: this.messages.up, ...fields, failures: this.failures, outage_ms: this.now() - this.since });
    this.since = undefined;
    this.failures = 0;
  }
}

/** An error's stack (or message) for a log line. */
export function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
