/**
 * Which rows of each report body a CSV holds, declared once per endpoint: an endpoint gets
 * `format=csv` by declaring its rows here (a compile error until it does). A CSV has the
 * JSON field names as its header, in the order of the JSON rows.
 *
 * - `rows`: the body's array of rows, or `null` when the body is itself the one row (`/stats`).
 * - `fields`: the row's fields; `context`: fields of the body beside the rows, repeated on
 *   every record in front (`/devices`' `breakdown`, `/properties`' `name` and `property`, so
 *   a file says what it breaks down).
 * - `comparison`: with `compare`, the compared fields, each written as `comparison_<field>`;
 *   read from the row's own `comparison` object (`row`) or from the body's `comparison`
 *   (`body`): an object for the one-row `/stats`, an array for `/stats/timeseries`, whose
 *   records are paired by position (record i holds bucket i of both ranges; when the
 *   ranges have different bucket counts the shorter side's cells are empty).
 */
import type { ComparableEndpoint } from '../types.js';
import type { CsvValue } from './csv-writer.js';

type Record_ = Readonly<Record<string, unknown>>;

interface CsvTable {
  readonly rows: string | null;
  readonly context?: readonly string[];
  readonly fields: readonly string[];
  readonly comparison: { readonly from: 'row' | 'body'; readonly fields: readonly string[] };
}

const SUMMARY = ['visitors', 'pageviews', 'sessions', 'bounce_rate', 'avg_duration'] as const;
const TIMESERIES = ['date', 'visitors', 'pageviews', 'sessions'] as const;
const SESSION_METRICS = ['visitors', 'sessions'] as const;
const PAGE_METRICS = ['pageviews', 'visitors', 'bounce_rate', 'avg_duration'] as const;

const COUNTS = ['count', 'visitors'] as const;
const GOAL_METRICS = ['visitors', 'conversions', 'conversion_rate'] as const;
const FUNNEL_METRICS = ['visitors', 'dropoff', 'dropoff_rate', 'conversion_rate', 'conversion_rate_step'] as const;

/**
 * The CSV rows of every endpoint that takes `format` (all but `/live`); a function where the
 * body has two shapes (`/properties`: an event's keys, or with `property` one key's values).
 */
export const CSV_TABLES: { readonly [E in ComparableEndpoint]: CsvTable | ((body: Record_) => CsvTable) } = {
  stats: { rows: null, fields: SUMMARY, comparison: { from: 'body', fields: ['from', 'to', ...SUMMARY] } },
  timeseries: { rows: 'timeseries', fields: TIMESERIES, comparison: { from: 'body', fields: TIMESERIES } },
  pages: { rows: 'pages', fields: ['url', ...PAGE_METRICS], comparison: { from: 'row', fields: PAGE_METRICS } },
  referrers: { rows: 'referrers', fields: ['source', ...SESSION_METRICS], comparison: { from: 'row', fields: SESSION_METRICS } },
  channels: { rows: 'channels', fields: ['channel', ...SESSION_METRICS], comparison: { from: 'row', fields: SESSION_METRICS } },
  locations: { rows: 'locations', fields: ['country', 'country_code', 'visitors'], comparison: { from: 'row', fields: ['visitors'] } },
  devices: { rows: 'devices', context: ['breakdown'], fields: ['name', 'visitors'], comparison: { from: 'row', fields: ['visitors'] } },
  events: { rows: 'events', fields: ['name', 'count'], comparison: { from: 'row', fields: ['count'] } },
  campaigns: {
    rows: 'campaigns', fields: ['source', 'medium', 'campaign', ...SESSION_METRICS], comparison: { from: 'row', fields: SESSION_METRICS },
  },
  properties: (body) => ('values' in body
    ? { rows: 'values', context: ['name', 'property'], fields: ['value', ...COUNTS], comparison: { from: 'row', fields: COUNTS } }
    : { rows: 'properties', context: ['name'], fields: ['property', ...COUNTS], comparison: { from: 'row', fields: COUNTS } }),
  goals: { rows: 'goals', fields: ['goal', ...GOAL_METRICS], comparison: { from: 'row', fields: GOAL_METRICS } },
  funnels: { rows: 'steps', fields: ['step', ...FUNNEL_METRICS], comparison: { from: 'row', fields: FUNNEL_METRICS } },
};

/**
 * The header and records of a report body as `toCsv` takes them.
 * @example csvTable('pages', { pages: [{ url: '/', pageviews: 3, visitors: 2, bounce_rate: 50, avg_duration: 12.5 }] }, false)
 * // { header: ['url', 'pageviews', 'visitors', 'bounce_rate', 'avg_duration'], rows: [['/', 3, 2, 50, 12.5]] }
 */
export function csvTable(endpoint: ComparableEndpoint, body: object, compared: boolean): { header: string[]; rows: CsvValue[][] } {
  const whole = body as Record_;
  const entry = CSV_TABLES[endpoint];
  const table = typeof entry === 'function' ? entry(whole) : entry;
  const context = table.context ?? [];
  const comparisonFields = compared ? table.comparison.fields : [];
  const header = [...context, ...table.fields, ...comparisonFields.map((f) => `comparison_${f}`)];
  const list = table.rows === null ? [whole] : ((whole[table.rows] ?? []) as Record_[]);
  const bodyComparison = compared && table.comparison.from === 'body' ? whole.comparison : undefined;
  const pairedRows = Array.isArray(bodyComparison) ? (bodyComparison as Record_[]) : [];
  const count = Math.max(list.length, pairedRows.length);
  const rows: CsvValue[][] = [];
  for (let i = 0; i < count; i++) {
    const row = list[i];
    const other = !compared
      ? undefined
      : table.comparison.from === 'row'
        ? (row?.comparison as Record_ | undefined)
        : Array.isArray(bodyComparison) ? pairedRows[i] : (bodyComparison as Record_ | undefined);
    rows.push([
      ...context.map((f) => whole[f] as CsvValue),
      ...table.fields.map((f) => row?.[f] as CsvValue),
      ...comparisonFields.map((f) => other?.[f] as CsvValue),
    ]);
  }
  return { header, rows };
}
