/**
 * What each table of imported daily totals holds, and which filter dimension and which
 * report each one answers: the one definition the plan (plan.ts), the merge (merge.ts),
 * the Plausible reader and the adapters read.
 */
import type { FilterDimension } from '../types.js';
import type { ImportedTable } from './types.js';

/** The key of each table's rows, position by position (the values as our reports name them). */
export const IMPORTED_TABLE_KEYS = {
  visitors: [],
  sources: ['source', 'channel', 'utm_source', 'utm_medium', 'utm_campaign'],
  pages: ['page'],
  entry_pages: ['entry_page'],
  custom_events: ['event'],
  locations: ['country'],
  devices: ['device_type'],
  browsers: ['browser'],
  operating_systems: ['os'],
} as const satisfies Record<ImportedTable, readonly FilterDimension[]>;

/** Most keys a table has (`sources`): adapters store `k0` to `k4`. */
export const MAX_IMPORTED_KEYS = 5;

/**
 * Tables whose rows are sessions grouped by one of their attributes, each with visitors,
 * sessions, bounces, durations and pageviews: a `/stats` or `/stats/timeseries` filtered
 * by that attribute alone reads it instead of `visitors`.
 */
export const SESSION_TABLES: readonly ImportedTable[] = ['sources', 'entry_pages', 'locations', 'devices', 'browsers', 'operating_systems'];

/** A filter dimension that one imported table answers: the table and the key position. */
export function dimensionTable(dimension: FilterDimension): { table: ImportedTable; key: number } | undefined {
  for (const [table, keys] of Object.entries(IMPORTED_TABLE_KEYS) as [ImportedTable, readonly FilterDimension[]][]) {
    const key = keys.indexOf(dimension);
    if (key >= 0) return { table, key };
  }
  return undefined;
}

/** How a dimension is named in a reason a body gives. */
export const DIMENSION_WORDS: Partial<Record<FilterDimension, string>> = {
  entry_page: 'entry page', source: 'source', channel: 'channel', country: 'country', device_type: 'device type', browser: 'browser',
  os: 'operating system', utm_source: 'UTM source', utm_medium: 'UTM medium', utm_campaign: 'UTM campaign', page: 'page', event: 'event',
  goal: 'goal',
};
