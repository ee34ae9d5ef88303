import type { Query } from '../query/parse.js';
import { REPORTS } from '../reports/index.js';
import { resolveRange, type ReportOptions } from '../reports/resolve.js';
import type { Storage } from '../storage/types.js';
import type { ComparableEndpoint } from '../types.js';
import { csvTable } from './csv-tables.js';
import { toCsv } from './csv-writer.js';

/** A report as a CSV file: its text and the file name to offer. */
export interface CsvReport {
  /** `<site>-<endpoint>-<from>-<to>.csv`, the resolved range's days; only `[A-Za-z0-9.-]`. */
  filename: string;
  text: string;
}

/**
 * The report of `endpoint` as CSV (the rows `CSV_TABLES` declares), with the file name
 * naming site, endpoint and the range the report covers (a `period` resolved in the
 * site's time zone). Same validation, site access and errors as the JSON report.
 *
 * @example
 * const { filename, text } = await csvReport(storage, 'pages', parseQuery('pages', { site_id: 'ST-blog', format: 'csv' }));
 * // filename: 'ST-blog-pages-2026-10-26-2026-11-24.csv', text: 'url,pageviews,...\r\n/,42,...\r\n'
 */
export async function csvReport(storage: Storage, endpoint: ComparableEndpoint, query: Query, options: ReportOptions = {}): Promise<CsvReport> {
  const body = await REPORTS[endpoint](storage, query, options);
  const { range } = await resolveRange(storage, query, options);
  const { header, rows } = csvTable(endpoint, body, query.compare !== undefined);
  // Site ids are `ST-` + letters and digits and days are YYYY-MM-DD: nothing to escape in a header.
  return { filename: `${query.siteId}-${endpoint}-${range.from}-${range.to}.csv`, text: toCsv(header, rows) };
}
