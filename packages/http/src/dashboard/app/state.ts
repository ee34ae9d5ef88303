/**
 * The view, kept in the page's URL so it can be bookmarked, reloaded and shared: the API's
 * own parameters (`site_id`, `period` or `from`/`to`, `filters`, `compare`, `interval`,
 * `breakdown`), `range` for the ranges the dashboard computes (`yesterday`, `month`,
 * `last_month`, `12mo`: a bookmark of "Month to date" stays month to date), the chart's
 * `metric` and the Funnels panel's `funnel`. What the URL does not say takes its default; the
 * URL is rewritten with only what differs from the defaults. Date rules live in dates.ts.
 */
import type { Breakdown, Compare, FilterCondition, FilterDimension, Interval, Period } from '@siteline/core';
import { type DayRange, defaultInterval, intervalsFor, type RangeName, rangeQuery } from './dates.js';

export type Metric = 'visitors' | 'pageviews' | 'sessions';
export type CompareChoice = Compare | 'off';

export interface View {
  site: string;
  range: RangeName;
  /** The days of a custom range. */
  custom?: DayRange | undefined;
  compare: CompareChoice;
  /** The reader's pick of an interval; undefined: the range's default (dates.ts `intervalOf`). */
  interval?: Interval | undefined;
  filters: FilterCondition[];
  breakdown: Breakdown;
  metric: Metric;
  /** The saved funnel the Funnels panel shows; undefined: the site's first. */
  funnel?: string | undefined;
}

export const INTERVALS: readonly Interval[] = ['hour', 'day', 'week', 'month'];
export const BREAKDOWNS: readonly Breakdown[] = ['device_type', 'browser', 'os'];
export const METRICS: readonly Metric[] = ['visitors', 'pageviews', 'sessions'];
/** The comparison is off until the reader asks for one. */
export const COMPARES: readonly CompareChoice[] = ['off', 'previous_period', 'year_over_year'];
const DIMENSIONS: readonly FilterDimension[] = [
  'entry_page', 'source', 'channel', 'country', 'device_type', 'browser', 'os', 'utm_source', 'utm_medium', 'utm_campaign', 'page', 'event', 'goal',
];
/** A dimension the view keeps: a fixed one, or `prop:` and a key (the API checks the key's length). */
const isDimension = (value: unknown): value is FilterDimension =>
  typeof value === 'string' && ((DIMENSIONS as readonly string[]).includes(value) || (value.startsWith('prop:') && value.length > 5));
const OPERATORS = ['is', 'is_not', 'contains', 'contains_not'];

const DEFAULTS = { range: '30d', compare: 'off', breakdown: 'device_type', metric: 'visitors' } as const;
/** The API's periods in the URL, and the ranges they name. */
const PERIOD_RANGES: Record<Period, RangeName> = { '1d': 'today', '7d': '7d', '30d': '30d' };
/** Ranges the dashboard computes, named by `range=` in the URL. */
const COMPUTED: readonly RangeName[] = ['yesterday', 'month', 'last_month', '12mo'];

const isDate = (value: string | null): value is string => value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));
const oneOf = <T extends string>(list: readonly T[], value: string | null, fallback: T): T => (list as readonly (string | null)[]).includes(value) ? (value as T) : fallback;

/** Conditions read from the URL: kept only when each has the API's shape; the API checks the rest. */
function parseFilters(text: string | null): FilterCondition[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return value.filter((c): c is FilterCondition =>
      Array.isArray(c) && c.length === 3 && OPERATORS.includes(c[0]) && isDimension(c[1]) &&
      Array.isArray(c[2]) && c[2].length > 0 && c[2].every((v: unknown) => typeof v === 'string'));
  } catch {
    return [];
  }
}

/** The view a query string describes; `fallbackSite` when it names none. */
export function readView(search: string, fallbackSite: string): View {
  const params = new URLSearchParams(search);
  const from = params.get('from');
  const to = params.get('to');
  const custom = isDate(from) && isDate(to) && from <= to;
  const period = params.get('period') as Period | null;
  const named = oneOf(COMPUTED, params.get('range'), period && PERIOD_RANGES[period] ? PERIOD_RANGES[period] : DEFAULTS.range);
  const interval = params.get('interval');
  return {
    site: params.get('site_id') || fallbackSite,
    range: custom ? 'custom' : named,
    ...(custom ? { custom: { from, to } } : {}),
    compare: oneOf(COMPARES, params.get('compare'), DEFAULTS.compare),
    ...(INTERVALS.includes(interval as Interval) ? { interval: interval as Interval } : {}),
    filters: parseFilters(params.get('filters')),
    breakdown: oneOf(BREAKDOWNS, params.get('breakdown'), DEFAULTS.breakdown),
    metric: oneOf(METRICS, params.get('metric'), DEFAULTS.metric),
    ...(params.get('funnel') ? { funnel: params.get('funnel')! } : {}),
  };
}

/** The query string of a view (leading `?`), defaults left out. */
export function writeView(view: View): string {
  const params = new URLSearchParams({ site_id: view.site });
  const period = (Object.keys(PERIOD_RANGES) as Period[]).find((p) => PERIOD_RANGES[p] === view.range);
  if (view.range === 'custom' && view.custom) {
    params.set('from', view.custom.from);
    params.set('to', view.custom.to);
  } else if (period) {
    if (view.range !== DEFAULTS.range) params.set('period', period);
  } else params.set('range', view.range);
  if (view.filters.length > 0) params.set('filters', JSON.stringify(view.filters));
  if (view.compare !== DEFAULTS.compare) params.set('compare', view.compare);
  if (view.interval) params.set('interval', view.interval);
  if (view.breakdown !== DEFAULTS.breakdown) params.set('breakdown', view.breakdown);
  if (view.metric !== DEFAULTS.metric) params.set('metric', view.metric);
  if (view.funnel) params.set('funnel', view.funnel);
  return `?${params}`;
}

/**
 * The API parameters every report of the view shares (dates, filters, compare); undefined
 * while the range needs the site's `today` and it is not known yet.
 */
export function reportParams(view: View, today: string | undefined): URLSearchParams | undefined {
  const range = rangeQuery(view.range, today, view.custom);
  if (!range) return undefined;
  const params = new URLSearchParams({ site_id: view.site, ...range });
  if (view.filters.length > 0) params.set('filters', JSON.stringify(view.filters));
  if (view.compare !== 'off') params.set('compare', view.compare);
  return params;
}

/**
 * The view over another range of `days` days: the reader's interval is kept only where
 * that range allows it (Hour, then 30 days: days), so no request is refused.
 */
export function withRange(view: View, range: RangeName, custom: DayRange | undefined, days: number, hours: boolean): View {
  const interval = view.interval && intervalsFor(days, hours).includes(view.interval) && view.interval !== defaultInterval(days, hours) ? view.interval : undefined;
  return { ...view, range, custom: range === 'custom' ? custom : undefined, interval };
}

/** The view drawn by `interval` (kept as a pick only when it is not the range's default). */
export function withInterval(view: View, interval: Interval, days: number, hours: boolean): View {
  return { ...view, interval: interval === defaultInterval(days, hours) ? undefined : interval };
}

/**
 * The view with one more condition. A row names one value of its dimension, so it replaces
 * an earlier condition on the same dimension (two `is` conditions on one dimension would
 * select nothing).
 */
export function withFilter(view: View, conditions: readonly FilterCondition[]): View {
  const dimensions = new Set(conditions.map((c) => c[1]));
  return { ...view, filters: [...view.filters.filter((c) => !dimensions.has(c[1])), ...conditions] };
}

export function withoutFilter(view: View, index: number): View {
  return { ...view, filters: view.filters.filter((_, i) => i !== index) };
}
