/**
 * Counts of beacons by outcome. Beacons never read their answers, so dropped ones (bots,
 * foreign hosts, unknown sites, malformed bodies) are only visible here and in the log.
 */
import type { Logger } from '../log.js';
import type { CollectOutcome } from './collector.js';

/** What became of a beacon: a collector outcome, a malformed body, or refused by the client's budget. */
export type CollectCount = CollectOutcome | 'invalid' | 'limited';

/** How often the summary is logged: one line a minute, not one per beacon. */
const LOG_EVERY_MS = 60_000;

/**
 * Totals since start, plus a summary log line each minute that had traffic.
 * @example handler.stats.totals() // { accepted: 3, bot: 1, unknown_site: 0, foreign_host: 0, unavailable: 0, invalid: 0, limited: 0 }
 */
export class CollectStats {
  private readonly total = zero();
  private window = zero();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly logger: Logger) {
    this.timer = setInterval(() => this.report(), LOG_EVERY_MS).unref();
  }

  count(outcome: CollectCount): void {
    this.total[outcome]++;
    this.window[outcome]++;
  }

  /** Beacons by outcome since the handler was created. */
  totals(): Record<CollectCount, number> {
    return { ...this.total };
  }

  /** Logs what is left of the current window and stops the timer (on close). */
  stop(): void {
    clearInterval(this.timer);
    this.report();
  }

  private report(): void {
    const counts = this.window;
    this.window = zero();
    if (Object.values(counts).some((n) => n > 0)) this.logger({ level: 'info', msg: 'collect summary', ...counts });
  }
}

function zero(): Record<CollectCount, number> {
  return { accepted: 0, bot: 0, unknown_site: 0, foreign_host: 0, unavailable: 0, invalid: 0, limited: 0 };
}
