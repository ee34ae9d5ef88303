/**
 * When imported daily totals count, decided once for every report (docs/behaviour.md,
 * "Imported data"):
 *
 * - A day counts as imported only where the site has no native events (Plausible's rule),
 *   so an import that overlaps live data never counts a day twice.
 * - A query without filters reads the report's own table; a query whose filters all name
 *   dimensions of one table reads that table, when the report can be answered from it
 *   (`/stats` from any session table, a breakdown from its own table); any other query
 *   leaves the imported days out and says why, as does `imported=exclude`.
 * - A body says so (`imported`) only on sites with imported days that count in the range:
 *   other bodies do not change by a byte.
 */
import { dayStart, daysBetween, runsOf, shiftDay } from '../time/zone.js';
import type { Query } from '../query/parse.js';
import type { DayRange, Storage } from '../storage/types.js';
import type { ImportedNote, Site } from '../types.js';
import { DIMENSION_WORDS, dimensionTable, SESSION_TABLES } from './tables.js';
import type { DayRun, ImportedDataset, ImportedTable, ImportedTotals, KeyCondition } from './types.js';

/** What a report reads, as far as imported totals go. */
export type ImportedRead =
  | { kind: 'summary' }
  | { kind: 'breakdown'; table: ImportedTable }
  | { kind: 'pages' }
  | { kind: 'events' }
  /** A read imported totals cannot answer at all, with the reason a body gives. */
  | { kind: 'never'; reason: string };

const TABLE_WORDS: Record<ImportedTable, string> = {
  visitors: 'visitor totals', sources: 'sources', pages: 'pages', entry_pages: 'entry pages', custom_events: 'custom events',
  locations: 'locations', devices: 'device types', browsers: 'browsers', operating_systems: 'operating systems',
};

/** The imported rows a report adds to its native totals, range by range. */
export interface ImportedPlan {
  /** The body's `imported` field, or undefined: no imported day counts in the range(s). */
  note: ImportedNote | undefined;
  /**
   * Sums of `table` (the plan's, or another for a report reading two: `/pages` reads entry
   * pages too) over the imported days of `range` that count, with the filters' conditions
   * and `extra` ones, grouped by `groupBy` key positions (and by day with `byDay`); empty
   * when the imported days are left out or the range has none.
   */
  rows(range: DayRange, groupBy: readonly number[], options?: { table?: ImportedTable; byDay?: boolean; extra?: readonly KeyCondition[] }): Promise<ImportedTotals[]>;
}

const NONE: ImportedPlan = { note: undefined, rows: async () => [] };

/**
 * The plan of one report over the query's range and compared range (`datasets`: the site's
 * imports, from `Storage.listImports`).
 */
export async function planImported(
  storage: Storage,
  query: Pick<Query, 'filters' | 'imported'>,
  site: Site,
  ranges: { range: DayRange; compared: DayRange | undefined },
  datasets: readonly ImportedDataset[],
  read: ImportedRead,
): Promise<ImportedPlan> {
  if (datasets.length === 0 || !storage.importedTotals || !storage.nativeDays) return NONE;
  const candidates = (range: DayRange | undefined) => (range ? importedDaysIn(datasets, range) : []);
  const mainDays = candidates(ranges.range);
  const comparedDays = candidates(ranges.compared);
  if (mainDays.length + comparedDays.length === 0) return NONE;
  const all = [...new Set([...mainDays, ...comparedDays])];
  const native = new Set(await storage.nativeDays(site.id, all.map((day) => ({ day, startMs: dayStart(day, site.timezone), endMs: dayStart(shiftDay(day, 1), site.timezone) }))));
  const counting = new Map<DayRange, string[]>();
  counting.set(ranges.range, mainDays.filter((d) => !native.has(d)));
  if (ranges.compared) counting.set(ranges.compared, comparedDays.filter((d) => !native.has(d)));
  const mainCount = counting.get(ranges.range)!.length;
  if (mainCount + (ranges.compared ? counting.get(ranges.compared)!.length : 0) === 0) return NONE;

  const decision = decide(query, read, datasets);
  if ('reason' in decision) return { note: { included: false, days: mainCount, reason: decision.reason }, rows: async () => [] };
  const importIds = datasets.map((d) => d.id);
  const totals = storage.importedTotals.bind(storage);
  return {
    note: { included: true, days: mainCount },
    async rows(range, groupBy, options = {}) {
      const days = counting.get(range) ?? [];
      if (days.length === 0) return [];
      return totals({
        siteId: site.id, importIds, table: options.table ?? decision.table, days: runsOf(days),
        conditions: [...decision.conditions, ...(options.extra ?? [])], groupBy, byDay: options.byDay ?? false,
      });
    },
  };
}

/** The table a query reads and the conditions on its keys, or why imported totals cannot answer it. */
function decide(query: Pick<Query, 'filters' | 'imported'>, read: ImportedRead, datasets: readonly ImportedDataset[]): { table: ImportedTable; conditions: KeyCondition[] } | { reason: string } {
  if (query.imported === 'exclude') return { reason: 'Left out on request (imported=exclude).' };
  if (read.kind === 'never') return { reason: read.reason };
  let table: ImportedTable | undefined;
  const conditions: KeyCondition[] = [];
  const dimensions = [...new Set(query.filters.map(([, dimension]) => dimension))];
  for (const [operator, dimension, values] of query.filters) {
    const found = dimensionTable(dimension);
    if (!found) return { reason: `Imported data has no ${DIMENSION_WORDS[dimension] ?? 'event properties'} to filter by.` };
    if (table !== undefined && found.table !== table) {
      return { reason: `Imported data is daily totals per dimension: no imported table holds ${wordsOf(dimensions)} together.` };
    }
    table = found.table;
    conditions.push({ key: found.key, operator, values });
  }
  const filterWords = wordsOf(dimensions);
  switch (read.kind) {
    case 'summary': {
      if (table === undefined) return { table: 'visitors', conditions };
      if (!SESSION_TABLES.includes(table)) return { reason: `Imported ${TABLE_WORDS[table]} have no sessions, bounce rates or visit durations.` };
      if (datasets.some((d) => d.partial.includes(table!))) return { reason: `An imported export has no pageviews per ${filterWords}.` };
      return { table, conditions };
    }
    case 'breakdown':
    case 'pages':
    case 'events': {
      const own: ImportedTable = read.kind === 'breakdown' ? read.table : read.kind === 'pages' ? 'pages' : 'custom_events';
      if (table !== undefined && table !== own) return { reason: `Imported ${TABLE_WORDS[own]} have no ${filterWords}.` };
      return { table: own, conditions };
    }
  }
}

const wordsOf = (dimensions: readonly string[]): string => {
  const words = dimensions.map((d) => DIMENSION_WORDS[d as keyof typeof DIMENSION_WORDS] ?? d);
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
};

/** The days of `range` some dataset covers, ascending. */
export function importedDaysIn(datasets: readonly ImportedDataset[], range: Pick<DayRange, 'from' | 'to'>): string[] {
  const days = new Set<string>();
  for (const d of datasets) {
    const from = d.from > range.from ? d.from : range.from;
    const to = d.to < range.to ? d.to : range.to;
    if (from <= to) for (const day of daysBetween(from, to)) days.add(day);
  }
  return [...days].sort();
}

/**
 * The days of a site that count as imported now (in any import's range, without native
 * events), as runs: what the dashboard shades on its chart.
 * @example await importedDayRuns(storage, site) // [{ from: '2026-06-01', to: '2026-08-22' }]
 */
export async function importedDayRuns(storage: Storage, site: Site): Promise<DayRun[]> {
  if (!storage.listImports || !storage.nativeDays) return [];
  const datasets = await storage.listImports(site.id);
  if (datasets.length === 0) return [];
  const from = datasets.reduce((min, d) => (d.from < min ? d.from : min), datasets[0]!.from);
  const to = datasets.reduce((max, d) => (d.to > max ? d.to : max), datasets[0]!.to);
  const days = importedDaysIn(datasets, { from, to });
  const native = new Set(await storage.nativeDays(site.id, days.map((day) => ({ day, startMs: dayStart(day, site.timezone), endMs: dayStart(shiftDay(day, 1), site.timezone) }))));
  return runsOf(days.filter((d) => !native.has(d)));
}
