import { averageSeconds, bounceRate } from '../metrics/metrics.js';
import type { Query } from '../query/parse.js';
import type { Storage } from '../storage/types.js';
import { daysBetween } from '../time/zone.js';
import type { StatsResponse, TimeseriesResponse } from '../types.js';
import { type ReportOptions, resolveRange } from './resolve.js';

/**
 * `/stats`: visitors, pageviews, sessions, bounce rate and average duration.
 * @example
 * const stats = await getStats(storage, parseQuery('stats', { site_id: 'ST-demo' }));
 */
export async function getStats(storage: Storage, query: Query, options?: ReportOptions): Promise<StatsResponse> {
  const { range } = await resolveRange(storage, query, options);
  const t = await storage.summary(range);
  return {
    visitors: t.visitors,
    pageviews: t.pageviews,
    sessions: t.sessions,
    bounce_rate: bounceRate(t.bounces, t.sessions),
    avg_duration: averageSeconds(t.durationMs, t.sessions),
  };
}

/**
 * `/stats/timeseries`: one row per day of the range, ascending, days without data as zeros.
 * @example
 * const { timeseries } = await getTimeseries(storage, parseQuery('timeseries', { site_id: 'ST-demo', period: '7d' }));
 */
export async function getTimeseries(storage: Storage, query: Query, options?: ReportOptions): Promise<TimeseriesResponse> {
  const { range } = await resolveRange(storage, query, options);
  const byDay = new Map((await storage.timeseries(range)).map((row) => [row.day, row]));
  return {
    timeseries: daysBetween(range.from, range.to).map((date) => {
      const row = byDay.get(date);
      return { date, visitors: row?.visitors ?? 0, pageviews: row?.pageviews ?? 0, sessions: row?.sessions ?? 0 };
    }),
  };
}
