import { UnsupportedQueryError } from '../errors.js';
import { averageSeconds, bounceRate } from '../metrics/metrics.js';
import type { Query } from '../query/parse.js';
import type { DayRange, Storage, SummaryTotals } from '../storage/types.js';
import type { ComparedStatsResponse, ComparedTimeseriesResponse, StatsResponse, TimeseriesResponse, TimeseriesRow } from '../types.js';
import { dayBuckets, hourBuckets } from './buckets.js';
import { readBoth, type ReportOptions, type ResolvedQuery, resolveQuery } from './resolve.js';

const summaryOf = (t: SummaryTotals): StatsResponse => ({
  visitors: t.visitors,
  pageviews: t.pageviews,
  sessions: t.sessions,
  bounce_rate: bounceRate(t.bounces, t.sessions),
  avg_duration: averageSeconds(t.durationMs, t.sessions),
});

/**
 * `/stats`: visitors, pageviews, sessions, bounce rate and average duration;
 * with `compare`, the same for the compared range in `comparison`.
 * @example
 * const stats = await getStats(storage, parseQuery('stats', { site_id: 'ST-demo' }));
 */
export async function getStats(storage: Storage, query: Query, options?: ReportOptions): Promise<StatsResponse | ComparedStatsResponse> {
  const resolved = await resolveQuery(storage, query, options);
  const [main, other] = await readBoth(resolved, (range) => storage.summary(range, resolved.selection));
  if (!other) return summaryOf(main);
  const { from, to } = resolved.compared!;
  return { ...summaryOf(main), comparison: { from, to, ...summaryOf(other) } };
}

/**
 * `/stats/timeseries`: one row per day (or hour, ISO week, month: `interval`) of the
 * range, ascending, buckets without data as zeros; with `compare`, the compared
 * range's rows in `comparison`.
 * @example
 * const { timeseries } = await getTimeseries(storage, parseQuery('timeseries', { site_id: 'ST-demo', period: '7d' }));
 */
export async function getTimeseries(storage: Storage, query: Query, options?: ReportOptions): Promise<TimeseriesResponse | ComparedTimeseriesResponse> {
  const resolved = await resolveQuery(storage, query, options);
  const [timeseries, comparison] = await readBoth(resolved, (range) => rowsOf(storage, query, resolved, range));
  return comparison ? { timeseries, comparison } : { timeseries };
}

async function rowsOf(storage: Storage, query: Query, { site, selection }: ResolvedQuery, range: DayRange): Promise<TimeseriesRow[]> {
  if (query.interval !== 'hour') return dayBuckets(range.from, range.to, await storage.timeseries(range, selection), query.interval);
  if (!storage.hourBuckets) throw new UnsupportedQueryError(`The ${storage.kind} storage does not implement interval=hour (Storage.hourBuckets).`);
  const { starts, labels } = hourBuckets(range.startMs, range.endMs, site.timezone);
  const byStart = new Map((await storage.hourBuckets(range, starts, selection)).map((row) => [row.start, row]));
  return starts.map((start, i) => {
    const row = byStart.get(start);
    return { date: labels[i]!, visitors: row?.visitors ?? 0, pageviews: row?.pageviews ?? 0, sessions: row?.sessions ?? 0 };
  });
}
