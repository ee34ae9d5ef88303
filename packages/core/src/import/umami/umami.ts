/**
 * Umami's data as our events (docs/import-format.md, "Umami"): the rows of its `website_event`
 * table, with the attributes of its `session` table either joined on each row (the one CSV file
 * Umami Cloud's export and import use) or in a `session.csv` beside it, and optionally the
 * custom event properties of `event_data.csv`. Columns by header name, as Umami's schema names
 * them (umami-software/umami db/postgresql/schema.prisma, db/clickhouse/schema.sql).
 */
import type { Readable } from 'node:stream';
import { ImportError } from '../../errors.js';
import type { Storage } from '../../storage/types.js';
import { csvRecords, headerIndex } from '../formats/csv.js';
import { exportFiles } from '../formats/files.js';
import { openLookup, type Lookup } from '../formats/lookup.js';
import { importParsed, type ImportOptions, type ImportSummary } from '../import.js';
import { parseImportObject } from '../line-schema.js';
import { umamiEvent, type UmamiColumns } from './umami-row.js';

export interface UmamiImportOptions extends Pick<ImportOptions, 'onProgress' | 'stageAfterEvents'> {
  /** The site the events are imported into (an existing site). */
  siteId: string;
}

const EVENT_FILE = /^website_event.*\.csv$/i;
const SESSION_FILE = /^session\.csv$/i;
const EVENT_DATA_FILE = /^event_data\.csv$/i;

/**
 * Imports an Umami export (a CSV file of `website_event` rows, or a zip or directory with
 * `website_event.csv` and optionally `session.csv` and `event_data.csv`) as events of a site,
 * through the one import of decisions.md section 8: all or nothing, errors with the row's line,
 * the same data refused a second time. A visit (`visit_id`) is a session; Umami's `session_id`
 * is the visitor, so a visitor per Umami session and day.
 *
 * @example
 * const summary = await importUmami(storage, 'website_event.csv', { siteId: 'ST-blog' });
 */
export async function importUmami(storage: Storage, path: string, options: UmamiImportOptions): Promise<ImportSummary> {
  const { files, close } = await exportFiles(path);
  const events = files.filter((f) => EVENT_FILE.test(f.name) || (files.length === 1 && f.name.toLowerCase().endsWith('.csv')));
  const sessionFile = files.find((f) => SESSION_FILE.test(f.name));
  const dataFile = files.find((f) => EVENT_DATA_FILE.test(f.name));
  if (events.length === 0) {
    close();
    throw new ImportError('No website_event rows: give a CSV file of them, or a zip or directory holding website_event.csv.');
  }
  const sessions = sessionFile ? openLookup() : undefined;
  const data = dataFile ? openLookup() : undefined;
  try {
    if (sessionFile) await fill(await sessionFile.open(), sessions!, 'session_id', ['browser', 'os', 'device', 'country']);
    if (dataFile) await fill(await dataFile.open(), data!, ['website_event_id', 'event_id'], ['data_key', 'event_key', 'string_value', 'number_value', 'date_value', 'data_type']);
    return await importParsed(storage, async (take, hash) => {
      for (const file of events) {
        let columns: UmamiColumns | undefined;
        for await (const { line, fields } of csvRecords(await file.open(), hash)) {
          if (!columns) {
            const { index, missing } = headerIndex(fields, ['session_id', 'created_at', 'url_path', 'event_type']);
            if (missing.length > 0) throw new ImportError(`${file.name} line ${line}: missing column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}; nothing was imported.`);
            columns = { index, sessions, data };
            continue;
          }
          const converted = umamiEvent(fields, columns, options.siteId);
          const pending = take(line, undefined, 'event' in converted ? parseImportObject(converted.event) : 'skip' in converted ? converted : { ok: false, reason: converted.reason }, events.length > 1 ? file.name : undefined);
          if (pending) await pending;
        }
      }
    }, options);
  } finally {
    sessions?.close();
    data?.close();
    close();
  }
}

/** Fills a lookup from a side file: key column (the first of `keyColumns` the file has) -> the named columns ('' when absent). */
async function fill(input: Readable, lookup: Lookup, keyColumns: string | string[], valueColumns: string[]): Promise<void> {
  let key = -1;
  let values: number[] = [];
  for await (const { fields } of csvRecords(input)) {
    if (key < 0) {
      const { index } = headerIndex(fields, []);
      key = [keyColumns].flat().map((c) => index.get(c) ?? -1).find((i) => i >= 0) ?? -1;
      if (key < 0) throw new ImportError(`A side file has none of the columns ${[keyColumns].flat().join(', ')}; nothing was imported.`);
      values = valueColumns.map((c) => index.get(c) ?? -1);
      continue;
    }
    lookup.add(fields[key] ?? '', values.map((i) => (i < 0 ? '' : (fields[i] ?? ''))));
  }
}
