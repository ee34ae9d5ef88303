/**
 * The view, kept in the page's URL so it can be bookmarked, reloaded and shared: the
 * parameters are the API's own (`site_id`, `period`, `from`, `to`, `filters`, `compare`,
 * `interval`, `breakdown`) plus the chart's `metric`. What the URL does not say takes its
 * default; the URL is rewritten with only what differs from the defaults.
 */
import type { Breakdown, Compare, FilterCondition, FilterDimension, Interval, Period } from '@siteline/core';

export type Metric = 'visitors' | 'pageviews' | 'sessions';
export type CompareChoice = Compare | 'off';

export interface View {
  site: string;
  /** A period, or a custom range when `from`/`to` are set. */
  period: Period;
  from?: string;
  to?: string;
  compare: CompareChoice;
  interval: Interval;
  filters: FilterCondition[];
  breakdown: Breakdown;
  metric: Metric;
}

export const PERIODS: readonly Period[] = ['1d', '7d', '30d'];
export const INTERVALS: readonly Interval[] = ['hour', 'day', 'week', 'month'];
export const BREAKDOWNS: readonly Breakdown[] = ['device_type', 'browser', 'os'];
export const METRICS: readonly Metric[] = ['visitors', 'pageviews', 'sessions'];
const COMPARES: readonly CompareChoice[] = ['previous_period', 'year_over_year', 'off'];
const DIMENSIONS: readonly FilterDimension[] = [
  'entry_page', 'source', 'channel', 'country', 'device_type', 'browser', 'os', 'utm_source', 'utm_medium', 'utm_campaign', 'page', 'event', 'goal',
];
/** A dimension the view keeps: a fixed one, or `prop:` and a key (the API checks the key's length). */
const isDimension = (value: unknown): value is FilterDimension =>
  typeof value === 'string' && ((DIMENSIONS as readonly string[]).includes(value) || (value.startsWith('prop:') && value.length > 5));
const OPERATORS = ['is', 'is_not', 'contains', 'contains_not'];

const DEFAULTS = { period: '30d', compare: 'previous_period', interval: 'day', breakdown: 'device_type', metric: 'visitors' } as const;

const DAY_MS = 86_400_000;
const isDate = (value: string | null): value is string => value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));
const oneOf = <T extends string>(list: readonly T[], value: string | null, fallback: T): T => (list as readonly (string | null)[]).includes(value) ? (value as T) : fallback;

/** Days the view covers (a period's, or the custom range's). */
export function rangeDays(view: Pick<View, 'period' | 'from' | 'to'>): number {
  if (view.from && view.to) return Math.round((Date.parse(view.to) - Date.parse(view.from)) / DAY_MS) + 1;
  return { '1d': 1, '7d': 7, '30d': 30 }[view.period];
}

/** Hours are only offered for ranges of up to 7 days (the API's rule). */
export const hourAllowed = (view: Pick<View, 'period' | 'from' | 'to'>) => rangeDays(view) <= 7;

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
  const view: View = {
    site: params.get('site_id') || fallbackSite,
    period: oneOf(PERIODS, params.get('period'), DEFAULTS.period),
    compare: oneOf(COMPARES, params.get('compare'), DEFAULTS.compare),
    interval: oneOf(INTERVALS, params.get('interval'), DEFAULTS.interval),
    filters: parseFilters(params.get('filters')),
    breakdown: oneOf(BREAKDOWNS, params.get('breakdown'), DEFAULTS.breakdown),
    metric: oneOf(METRICS, params.get('metric'), DEFAULTS.metric),
    ...(custom ? { from, to } : {}),
  };
  if (view.interval === 'hour' && !hourAllowed(view)) view.interval = 'day';
  return view;
}

/** The query string of a view (leading `?`), defaults left out. */
export function writeView(view: View): string {
  const params = new URLSearchParams({ site_id: view.site });
  if (view.from && view.to) {
    params.set('from', view.from);
    params.set('to', view.to);
  } else if (view.period !== DEFAULTS.period) params.set('period', view.period);
  if (view.filters.length > 0) params.set('filters', JSON.stringify(view.filters));
  if (view.compare !== DEFAULTS.compare) params.set('compare', view.compare);
  if (view.interval !== DEFAULTS.interval) params.set('interval', view.interval);
  if (view.breakdown !== DEFAULTS.breakdown) params.set('breakdown', view.breakdown);
  if (view.metric !== DEFAULTS.metric) params.set('metric', view.metric);
  return `?${params}`;
}

/** The API parameters every report of the view shares (dates, filters, compare). */
export function reportParams(view: View): URLSearchParams {
  const params = new URLSearchParams({ site_id: view.site });
  if (view.from && view.to) {
    params.set('from', view.from);
    params.set('to', view.to);
  } else params.set('period', view.period);
  if (view.filters.length > 0) params.set('filters', JSON.stringify(view.filters));
  if (view.compare !== 'off') params.set('compare', view.compare);
  return params;
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
