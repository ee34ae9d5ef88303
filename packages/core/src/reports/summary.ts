import { UnsupportedQueryError } from '../errors.js';
import { averageSeconds, bounceRate } from '../metrics/metrics.js';
import type { Query } from '../query/parse.js';
import type { DayRange, Storage, SummaryTotals } from '../storage/types.js';
import type { ComparedStatsResponse, ComparedTimeseriesResponse, StatsResponse, TimeseriesResponse, TimeseriesRow } from '../types.js';
import { addDays, addSummary } from '../imported/merge.js';
import type { ImportedPlan } from '../imported/plan.js';
import { dayBuckets, hourBuckets } from './buckets.js';
import { importedPlan, readBoth, type ReportOptions, type ResolvedQuery, resolveQuery, withNote } from './resolve.js';

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
  const plan = await importedPlan(storage, resolved, { kind: 'summary' });
  const [main, other] = await readBoth(resolved, async (range) => {
    const [native, imported] = await Promise.all([storage.summary(range, resolved.selection), plan.rows(range, [])]);
    return addSummary(native, imported);
  });
  if (!other) return withNote(summaryOf(main), plan.note);
  const { from, to } = resolved.compared!;
  return withNote({ ...summaryOf(main), comparison: { from, to, ...summaryOf(other) } }, plan.note);
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
  const plan = await importedPlan(storage, resolved, query.interval === 'hour' ? { kind: 'never', reason: 'Imported data has daily totals, no hours.' } : { kind: 'summary' });
  const [timeseries, comparison] = await readBoth(resolved, (range) => rowsOf(storage, query, resolved, range, plan));
  return withNote(comparison ? { timeseries, comparison } : { timeseries }, plan.note);
}

async function rowsOf(storage: Storage, query: Query, { site, selection }: ResolvedQuery, range: DayRange, plan: ImportedPlan): Promise<TimeseriesRow[]> {
  if (query.interval !== 'hour') {
    const [native, imported] = await Promise.all([storage.timeseries(range, selection), plan.rows(range, [], { byDay: true })]);
    return dayBuckets(range.from, range.to, addDays(native, imported), query.interval);
  }
  if (!storage.hourBuckets) throw new UnsupportedQueryError(`The ${storage.kind} storage does not implement interval=hour (Storage.hourBuckets).`);
  const { starts, labels } = hourBuckets(range.startMs, range.endMs, site.timezone);
  const byStart = new Map((await storage.hourBuckets(range, starts, selection)).map((row) => [row.start, row]));
  return starts.map((start, i) => {
    const row = byStart.get(start);
    return { date: labels[i]!, visitors: row?.visitors ?? 0, pageviews: row?.pageviews ?? 0, sessions: row?.sessions ?? 0 };
  });
}
