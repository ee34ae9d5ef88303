import type { DayRange, DayTotals, Selection, SummaryTotals } from '@siteline/core';
import { outsideDateType, readDay } from '../schema/days.js';
import type { RollupDimension } from '../schema/migrations/002-rollups.js';
import { valueDaySumsSql } from '../reads/queries.js';
import type { SchemaTarget } from '../schema/schema.js';
import type { WriterIO } from '../write/writer.js';
import type { VisitorReads } from './visitors.js';

/**
 * The session attributes whose values the rollups keep per day: sessions, bounces and
 * duration in `dim_totals`, daily visitors in `visitor_rollups` (entry pages have no
 * visitor counts there, UTM values are kept as one triple).
 */
const PER_VALUE = ['referrerSource', 'channel', 'countryCode', 'deviceType', 'browser', 'os'] as const satisfies readonly RollupDimension[];
type PerValue = (typeof PER_VALUE)[number];

/** A condition `dimension is value` the rollups answer per value. */
export interface OneValue {
  dimension: PerValue;
  value: string;
}

/**
 * The one condition of `selection` when it is `attribute is value`, one value, on an
 * attribute of `PER_VALUE`, and nothing else: the dashboard's usual filter (a click on a
 * country, a channel, a browser). `undefined` for any other selection.
 */
export function oneValue(selection: Selection): OneValue | undefined {
  const [only] = selection.session;
  const others = selection.page.length + selection.event.length + (selection.prop?.length ?? 0) + (selection.goal?.length ?? 0);
  if (selection.session.length !== 1 || others > 0 || only!.operator !== 'is' || only!.values.length !== 1) return undefined;
  const dimension = PER_VALUE.find((d) => d === only!.attribute);
  return dimension === undefined ? undefined : { dimension, value: only!.values[0]! };
}

/** What the one-value reads take from the filtered reads (reads/selection.ts). */
export interface SelectedPageviews {
  pageviewsBySession(r: DayRange, selection: Selection): Promise<number>;
  pageviewDays(r: DayRange, selection: Selection): Promise<Map<string, number>>;
}

/**
 * `summary`, `summaryVisitors` and `timeseries` under one condition `attribute is value`
 * (`oneValue`), from the rollups instead of a scan of the range's session rows:
 * sessions, bounces and duration are the value's per-day sums in `dim_totals`, visitors its
 * daily counts in `visitor_rollups` on settled days (the raw rows of that value on the
 * others), through `visitorsBy` (visitors.ts). A session has one value, so these are exactly the sums
 * of the matching sessions. Pageviews are the matching sessions' own: by session for the
 * summary (their `pageview_count`, and the range's pageviews of those crossing its ends),
 * per day from the pageview rows for the timeseries.
 */
export function createOneValueReads(
  io: Pick<WriterIO, 'rows'>,
  target: SchemaTarget,
  options: { visitorsBy: VisitorReads; selected: SelectedPageviews },
) {
  const condition = (selection: Selection) => {
    const one = oneValue(selection);
    if (!one) throw new Error('one-value reads take one condition `is` with one value on a per-value attribute');
    return one;
  };
  const sums = (r: DayRange, { dimension, value }: OneValue) =>
    io.rows<{ d: string; n: string; b: string; dur: string }>(valueDaySumsSql(target, r, dimension, value));
  const visitors = (r: DayRange, { dimension, value }: OneValue) => options.visitorsBy(r, dimension, value);
  const total = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);

  return {
    async summary(r: DayRange, selection: Selection): Promise<SummaryTotals> {
      const totals = { visitors: 0, sessions: 0, bounces: 0, durationMs: 0, pageviews: 0 };
      if (outsideDateType(r)) return totals;
      const one = condition(selection);
      const [days, byDay, pageviews] = await Promise.all([sums(r, one), visitors(r, one), options.selected.pageviewsBySession(r, selection)]);
      for (const d of days) {
        totals.sessions += Number(d.n);
        totals.bounces += Number(d.b);
        totals.durationMs += Number(d.dur);
      }
      return { ...totals, visitors: total(byDay.values()), pageviews };
    },

    async visitors(r: DayRange, selection: Selection): Promise<number> {
      if (outsideDateType(r)) return 0;
      return total((await visitors(r, condition(selection))).values());
    },

    async timeseries(r: DayRange, selection: Selection): Promise<DayTotals[]> {
      if (outsideDateType(r)) return [];
      const one = condition(selection);
      const [days, byDay, views] = await Promise.all([sums(r, one), visitors(r, one), options.selected.pageviewDays(r, selection)]);
      const out = new Map<string, DayTotals>();
      for (const d of days) {
        const day = readDay(d.d);
        out.set(day, { day, visitors: byDay.get(day) ?? 0, sessions: Number(d.n), pageviews: 0 });
      }
      for (const [day, pageviews] of views) out.set(day, { day, visitors: 0, sessions: 0, ...out.get(day), pageviews });
      return [...out.values()];
    },
  };
}
