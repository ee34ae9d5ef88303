/**
 * The first filtered read of a cold range (issue 26): a week of the data, filtered
 * (`country is DE`), read first thing on a fresh connection to the database with nothing
 * warmed, as a server answers a range it has not loaded (a week before the warmed month,
 * a comparison's previous period): from the raw tables while the days load. Each of the
 * data's four full weeks on a connection of its own; p50 and max, the longest event-loop
 * block during the read, and the same read once its days have loaded.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseQuery } from '../../packages/core/src/query/parse.js';
import { REPORTS } from '../../packages/core/src/reports/index.js';
import { createSqliteStore } from '../../packages/core/src/storage/sqlite/sqlite-storage.js';
import { localDay, shiftDay } from '../../packages/core/src/time/zone.js';
import { ms, percentile, table } from './measure.js';

export interface ColdReadResult {
  /** First reads, one per week, ms. */
  cold: number[];
  /** Longest event-loop delay during each first read, ms. */
  blocks: number[];
  /** The same reads once loaded, p50 over `runs`, ms. */
  warmP50: number;
  /** The first week's answer, to show it is not empty. */
  answer: unknown;
}

const FILTERS = JSON.stringify([['is', 'country', ['DE']]]);

/** The data's last four full weeks before `endMs` (in the site's time zone), newest first. */
export function weeks(endMs: number, timezone: string): { from: string; to: string }[] {
  const last = localDay(endMs, timezone);
  return [0, 1, 2, 3].map((w) => ({ from: shiftDay(last, -7 * w - 6), to: shiftDay(last, -7 * w) }));
}

export async function benchColdRead(o: { file: string; siteId: string; timezone: string; endMs: number; runs: number }): Promise<ColdReadResult> {
  const result: ColdReadResult = { cold: [], blocks: [], warmP50: Number.NaN, answer: undefined };
  const warm: number[] = [];
  for (const week of weeks(o.endMs, o.timezone)) {
    const store = createSqliteStore(o.file, { now: () => o.endMs });
    const query = parseQuery('stats', { site_id: o.siteId, ...week, filters: FILTERS });
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    // A timer beside the read, as requests beside it would be: the delay monitor measures how long each waited.
    const ticker = setInterval(() => {}, 5);
    const started = performance.now();
    const answer = await REPORTS.stats(store, query, { now: o.endMs });
    result.cold.push(performance.now() - started);
    // The monitor records a block when its timer fires late: let it fire after the read's last step.
    await sleep(10);
    clearInterval(ticker);
    delay.disable();
    result.blocks.push(delay.max / 1e6);
    result.answer ??= answer;
    // The days it read from the raw tables load after it: the warm reads come once they have.
    await store.columnCacheFilled();
    for (let i = 0; i < o.runs; i++) {
      const t = performance.now();
      await REPORTS.stats(store, query, { now: o.endMs });
      warm.push(performance.now() - t);
    }
    await store.close();
  }
  result.warmP50 = percentile([...warm].sort((a, b) => a - b), 50);
  return result;
}

/** The cold-read row of the report. */
export function coldReadTable(r: ColdReadResult): string {
  const sorted = [...r.cold].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  return table(
    ['read (stats, country is DE, a week, first on a fresh connection)', 'runs', 'p50 ms', 'max ms', 'longest event-loop block, max of runs', 'warm p50 ms', 'cold / warm', 'target p50 <= 200 ms'],
    [['each of the data\'s four full weeks', String(r.cold.length), ms(p50), ms(sorted[sorted.length - 1]!), `${ms(Math.max(...r.blocks))} ms`, ms(r.warmP50), `${(p50 / r.warmP50).toFixed(0)}x`, p50 <= 200 ? 'met' : 'not met']],
  );
}
