import { UnsupportedQueryError } from '../errors.js';
import type { ExportQuery } from '../query/parse.js';
import { resolveRange, type ReportOptions } from '../reports/resolve.js';
import type { DayRange, Storage } from '../storage/types.js';
import { exportLine } from './export-line.js';

/** Events read per storage call: bounds the memory of an export whatever its size. */
export const EXPORT_PAGE_SIZE = 5_000;

/** An export ready to stream: the site was found and readable, the range resolved. */
export interface EventExport {
  /** `<site>-export-<from>-<to>.ndjson`; only `[A-Za-z0-9.-]`. */
  filename: string;
  /** NDJSON text, one chunk of whole lines per storage page. */
  chunks: AsyncGenerator<string>;
}

/**
 * The site's events of the query's days as NDJSON in the import format (`exportLine`), in
 * `(ts, seq)` order, read page by page (`Storage.eventPage`). Site access is checked and
 * the range resolved before this resolves, so a missing site is an error before anything
 * is sent. The chunks are pulled: the next page is read only when the consumer asks for
 * the next chunk, so a consumer that waits for a slow client (`res.write()` returning
 * false) keeps memory at one page. Importing the output into an empty store with the same
 * site stores the same events.
 *
 * @example
 * const { chunks } = await openExport(storage, parseExportQuery({ site_id: 'ST-blog', from: '2026-11-01', to: '2026-11-30' }));
 * for await (const chunk of chunks) process.stdout.write(chunk);
 */
export async function openExport(storage: Storage, query: ExportQuery, options: ReportOptions & { pageSize?: number } = {}): Promise<EventExport> {
  const { range } = await resolveRange(storage, query, options);
  const read = storage.eventPage?.bind(storage);
  if (!read) throw new UnsupportedQueryError(`The ${storage.kind} storage does not implement export (Storage.eventPage).`);
  return { filename: `${query.siteId}-export-${range.from}-${range.to}.ndjson`, chunks: pages(read, range, options.pageSize ?? EXPORT_PAGE_SIZE) };
}

async function* pages(read: NonNullable<Storage['eventPage']>, range: DayRange, pageSize: number): AsyncGenerator<string> {
  let after: string | undefined;
  do {
    const page = await read(range, after, pageSize);
    let chunk = '';
    for (const event of page.events) chunk += `${exportLine(event)}\n`;
    if (chunk !== '') yield chunk;
    after = page.next;
  } while (after !== undefined);
}
