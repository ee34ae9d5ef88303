/**
 * The CSV files of a Plausible export and how each row becomes an imported row. Columns are
 * read by header name, so the column sets of every Plausible version are accepted: the set
 * its exporter writes today (plausible/analytics lib/plausible/exports.ex) and the older ones
 * its CSV importer still reads (lib/plausible/imported/csv_importer.ex: `pages` with `exits`
 * and `time_on_page`, `sources` without `referrer` or `utm_source`, breakdowns without
 * `pageviews`). docs/import-format.md says what is kept and what is lost.
 */
import { classifyChannel } from '../../derive/channel.js';
import { browserName, osName } from '../../derive/device-names.js';
import { normalizeCountryCode } from '../../derive/geo.js';
import { DIRECT_NONE, referrerHost, referrerSource } from '../../derive/referrer.js';
import type { ImportedMetrics, ImportedRow, ImportedTable } from '../../imported/types.js';
import { MAX_EVENT_NAME_LENGTH } from '../../query/messages.js';
import type { Site } from '../../types.js';

/** A row's fields by column name (`undefined`: the file has no such column). */
export type Fields = (column: string) => string | undefined;

/** A rule a row breaks; the reader reports it with the file and line. */
export class RowError extends Error {}

/** What a row is: an imported row, or a row left out on purpose and why. */
export type RowResult = ImportedRow | { skip: string };

interface FileSpec {
  /** The table of imported rows it fills; undefined: read and checked, not kept. */
  table: ImportedTable | undefined;
  required: readonly string[];
  /** Session tables: rows have pageviews only in newer exports. */
  pageviews?: 'optional';
  row(fields: Fields, site: Site): Omit<ImportedRow, 'table' | 'day'> | { skip: string };
}

const ZERO: ImportedMetrics = { visitors: 0, sessions: 0, pageviews: 0, bounces: 0, durationS: 0, events: 0, timedViews: 0, timeOnPageS: 0 };
const MAX_TEXT = 4096;

/** A whole number >= 0 from a column (empty reads as 0: ClickHouse writes NULL so in CSV). */
export function count(fields: Fields, column: string): number {
  const text = fields(column);
  if (text === undefined || text === '' || text === '\\N') return 0;
  if (!/^\d{1,15}$/.test(text)) throw new RowError(`${column} must be a whole number >= 0, got ${JSON.stringify(text.slice(0, 40))}`);
  return Number(text);
}

function text(fields: Fields, column: string, max = MAX_TEXT): string {
  const value = fields(column) ?? '';
  if (value.length > max) throw new RowError(`${column} must have at most ${max} characters`);
  return value;
}

/** Visitors, sessions, bounces, durations and pageviews of a session table's row. */
const sessions = (fields: Fields, sessionsColumn = 'visits'): ImportedMetrics => ({
  ...ZERO,
  visitors: count(fields, 'visitors'),
  sessions: count(fields, sessionsColumn),
  bounces: count(fields, 'bounces'),
  durationS: count(fields, 'visit_duration'),
  pageviews: count(fields, 'pageviews'),
});

/** Plausible's name for "not known". */
const unset = (value: string): boolean => value === '' || value === '(not set)' || value === '\\N';
const SESSION_COLUMNS = ['visitors', 'visits', 'visit_duration', 'bounces'];
const PLAUSIBLE_INTERNAL_EVENTS = new Set(['pageleave', 'engagement']);

/** The referrer source and channel of a `sources` row, by our rules (decisions.md section 4). */
function sourceKeys(fields: Fields, site: Site): string[] {
  const source = text(fields, 'source');
  const referrer = text(fields, 'referrer');
  const utmSource = text(fields, 'utm_source', 500);
  const utmMedium = text(fields, 'utm_medium', 500);
  const utmCampaign = text(fields, 'utm_campaign', 500);
  if (referrer !== '') {
    const shown = referrerSource(referrer, [site.domain ?? '']);
    const host = shown === DIRECT_NONE ? null : referrerHost(referrer);
    return [shown, classifyChannel({ referrerHost: host, utmSource, utmMedium }), utmSource, utmMedium, utmCampaign];
  }
  if (!unset(source) && source !== DIRECT_NONE && source.toLowerCase() !== utmSource.toLowerCase()) {
    // Exports without `referrer` name the source only (`Google`): kept as Plausible spells it, and the channel
    // read from the name as the channel rules read a utm_source (the source list knows `google`, `twitter`, ...).
    return [source, classifyChannel({ referrerHost: null, utmSource: utmSource || source, utmMedium }), utmSource, utmMedium, utmCampaign];
  }
  return [DIRECT_NONE, classifyChannel({ referrerHost: null, utmSource, utmMedium }), utmSource, utmMedium, utmCampaign];
}

/** Every file of an export by its table name (`imported_` prefix optional, as Plausible's importer reads them). */
export const PLAUSIBLE_FILES: Record<string, FileSpec> = {
  visitors: {
    table: 'visitors',
    required: ['visitors', 'pageviews', 'bounces', 'visits', 'visit_duration'],
    row: (f) => ({ keys: [], ...sessions(f) }),
  },
  sources: {
    table: 'sources',
    required: ['source', ...SESSION_COLUMNS],
    pageviews: 'optional',
    row: (f, site) => ({ keys: sourceKeys(f, site), ...sessions(f) }),
  },
  pages: {
    table: 'pages',
    required: ['page', 'visitors', 'pageviews'],
    row(f) {
      const pageviews = count(f, 'pageviews');
      const metrics = { ...ZERO, visitors: count(f, 'visitors'), pageviews };
      if (f('total_time_on_page') !== undefined && f('total_time_on_page_visits') !== undefined) {
        // Today's exports: engagement time summed per page, and the sessions it was measured in.
        metrics.timedViews = count(f, 'total_time_on_page_visits');
        metrics.timeOnPageS = count(f, 'total_time_on_page');
      } else if (f('time_on_page') !== undefined && f('exits') !== undefined) {
        // Older exports: time to the next pageview summed, over the pageviews that were not exits.
        metrics.timedViews = Math.max(0, pageviews - count(f, 'exits'));
        metrics.timeOnPageS = count(f, 'time_on_page');
      }
      return { keys: [pagePath(text(f, 'page'))], ...metrics };
    },
  },
  entry_pages: {
    table: 'entry_pages',
    required: ['entry_page', 'visitors', 'entrances', 'visit_duration', 'bounces'],
    pageviews: 'optional',
    row: (f) => ({ keys: [pagePath(text(f, 'entry_page'))], ...sessions(f, 'entrances') }),
  },
  exit_pages: {
    table: undefined,
    required: ['exit_page', 'visitors', 'exits'],
    row: (f) => (count(f, 'visitors'), { skip: 'exit pages: Siteline has no exit-page report (the pages file carries exits for time on page)' }),
  },
  custom_events: {
    table: 'custom_events',
    required: ['name', 'visitors', 'events'],
    row(f) {
      const name = text(f, 'name');
      const metrics = { ...ZERO, visitors: count(f, 'visitors'), events: count(f, 'events') };
      if (PLAUSIBLE_INTERNAL_EVENTS.has(name)) return { skip: `custom event "${name}": Plausible's own engagement measurement, not a custom event` };
      if (name.length < 1 || name.length > MAX_EVENT_NAME_LENGTH) throw new RowError(`name must have 1 to ${MAX_EVENT_NAME_LENGTH} characters`);
      return { keys: [name], ...metrics };
    },
  },
  locations: {
    table: 'locations',
    required: ['country', ...SESSION_COLUMNS],
    pageviews: 'optional',
    row(f) {
      const country = text(f, 'country', 10).trim();
      if (country !== '' && country !== '\0\0' && !/^[A-Za-z]{2}$/.test(country)) throw new RowError('country must be an ISO 3166-1 alpha-2 code such as DE');
      return { keys: [country === '' || country === '\0\0' ? 'XX' : normalizeCountryCode(country)], ...sessions(f) };
    },
  },
  devices: {
    table: 'devices',
    required: ['device', ...SESSION_COLUMNS],
    pageviews: 'optional',
    row: (f) => ({ keys: [deviceType(text(f, 'device', 100))], ...sessions(f) }),
  },
  browsers: {
    table: 'browsers',
    required: ['browser', ...SESSION_COLUMNS],
    pageviews: 'optional',
    row: (f) => ({ keys: [named(text(f, 'browser', 100), browserName)], ...sessions(f) }),
  },
  operating_systems: {
    table: 'operating_systems',
    required: ['operating_system', ...SESSION_COLUMNS],
    pageviews: 'optional',
    row: (f) => ({ keys: [named(text(f, 'operating_system', 100), osName)], ...sessions(f) }),
  },
};

const named = (value: string, spell: (name: string) => string): string => (unset(value) ? 'Unknown' : spell(value));

/** Plausible's screen-size classes as our device types: a laptop is a desktop computer. */
function deviceType(device: string): string {
  const lower = device.toLowerCase();
  if (lower === 'desktop' || lower === 'laptop') return 'Desktop';
  if (lower === 'mobile') return 'Mobile';
  if (lower === 'tablet') return 'Tablet';
  return 'Unknown';
}

/** A page path as we store one: never empty. */
const pagePath = (path: string): string => (path === '' ? '/' : path);

/**
 * The table and date range of a file name, `imported_<table>_<YYYYMMDD>_<YYYYMMDD>.csv` (or without
 * `imported_`), or undefined for another name.
 * @example parseFileName('imported_pages_20250101_20250630.csv') // { table: 'pages', from: '2025-01-01', to: '2025-06-30' }
 */
export function parseFileName(name: string): { table: string; from: string; to: string } | undefined {
  const match = /^(?:imported_)?([a-z_]+?)_(\d{4})(\d{2})(\d{2})_(\d{4})(\d{2})(\d{2})\.csv$/.exec(name);
  if (!match || !(match[1]! in PLAUSIBLE_FILES)) return undefined;
  const [, table, y1, m1, d1, y2, m2, d2] = match;
  return { table: table!, from: `${y1}-${m1}-${d1}`, to: `${y2}-${m2}-${d2}` };
}

export type { FileSpec };
