/**
 * Imported daily totals (issue 39): what a Plausible export holds, kept per site, day and
 * dimension beside the events, and what a storage adapter stores and sums of them. The
 * rules that decide when they count live in `plan.ts`; the tables in `tables.ts`.
 */
import type { Condition } from '../storage/types.js';

/** The tables of imported daily totals, one per dimension of a Plausible export (tables.ts says what each holds). */
export const IMPORTED_TABLES = [
  'visitors', 'sources', 'pages', 'entry_pages', 'custom_events', 'locations', 'devices', 'browsers', 'operating_systems',
] as const;
export type ImportedTable = (typeof IMPORTED_TABLES)[number];

/** The metrics of an imported row; a table fills those it has and leaves the rest 0. */
export interface ImportedMetrics {
  /** Visitors of the day (the export's daily distinct visitors, so they add up as ours do). */
  visitors: number;
  /** Sessions (Plausible's `visits`, or `entrances` of an entry page). */
  sessions: number;
  pageviews: number;
  bounces: number;
  /** Sum of the sessions' durations, in seconds. */
  durationS: number;
  /** Custom events (`custom_events`). */
  events: number;
  /** Pageviews with a measured time on page (`pages`), and the sum of those times in seconds. */
  timedViews: number;
  timeOnPageS: number;
}

/**
 * One imported row: a table, a local day of the site, the row's key (the values of the
 * table's dimensions, `IMPORTED_TABLE_KEYS` in tables.ts, already in our vocabulary:
 * referrer host, channel, ISO country code, device and browser names) and its metrics.
 * Several rows may share a key (a country's regions and cities): reads sum them.
 */
export interface ImportedRow extends ImportedMetrics {
  table: ImportedTable;
  day: string;
  keys: readonly string[];
}

/** One import of daily totals, as stored beside its rows (`Storage.listImports`). */
export interface ImportedDataset {
  /** `imp_` and 16 lowercase letters or digits. */
  id: string;
  siteId: string;
  /** Where the totals come from (today only `plausible`). */
  source: 'plausible';
  /** sha256 of the import's files: the same export is refused a second time while this import exists. */
  hash: string;
  /** First and last day the export covers (its file names' range), local days of the site. */
  from: string;
  to: string;
  /** Rows stored. */
  rows: number;
  /**
   * Session tables (tables.ts, `SESSION_TABLES`) of this import without pageviews (exports
   * before Plausible added them): a filtered `/stats` read from such a table leaves the
   * import out rather than count no pageviews.
   */
  partial: readonly ImportedTable[];
  /** ISO 8601 instant. */
  importedAt: string;
}

/** A run of consecutive days, both inclusive. */
export interface DayRun {
  from: string;
  to: string;
}

/** A condition on one key of an imported table (`keys[key]`). */
export interface KeyCondition extends Condition {
  key: number;
}

/**
 * `Storage.importedTotals`: the rows of `table` of the given imports on the given days
 * whose keys meet every condition, summed by `groupBy` (key positions, in that order) and,
 * with `byDay`, by day.
 */
export interface ImportedTotalsRequest {
  siteId: string;
  importIds: readonly string[];
  table: ImportedTable;
  days: readonly DayRun[];
  conditions: readonly KeyCondition[];
  groupBy: readonly number[];
  byDay: boolean;
}

/** One group of `Storage.importedTotals`: its key values (in `groupBy` order), its day with `byDay`, its sums. */
export interface ImportedTotals extends ImportedMetrics {
  keys: string[];
  day?: string;
}

/** A day of a site with the UTC instants that bound it, `[startMs, endMs)`. */
export interface DayBounds {
  day: string;
  startMs: number;
  endMs: number;
}
