import { createHash, randomBytes } from 'node:crypto';
import { ImportError, type ImportLineError } from '../../errors.js';
import { SESSION_TABLES } from '../../imported/tables.js';
import type { ImportedDataset, ImportedTable } from '../../imported/types.js';
import type { Storage } from '../../storage/types.js';
import { isCalendarDate } from '../../query/schema.js';
import { dayStart, shiftDay } from '../../time/zone.js';
import { csvRecords, headerIndex } from '../formats/csv.js';
import { exportFiles } from '../formats/files.js';
import { type Fields, parseFileName, PLAUSIBLE_FILES, RowError } from './plausible-tables.js';
import { openRowStage } from './plausible-stage.js';

export interface PlausibleImportOptions {
  /** The site the export is imported into (an existing site). */
  siteId: string;
  /** Called every 10,000 rows with the rows read so far. */
  onProgress?: (rows: number) => void;
}

/** What a Plausible import stored, and what it did not and why. */
export interface PlausibleImportSummary {
  /** The import's id: `siteline import delete --site <id> --import <this>` removes it. */
  importId: string;
  siteId: string;
  /** The days the export covers (its file names' range). */
  from: string;
  to: string;
  /** Rows read, header lines not counted. */
  rowsRead: number;
  /** Imported daily rows stored. */
  rowsWritten: number;
  /** Distinct days with stored rows. */
  days: number;
  /** Rows read and left out on purpose, by reason. */
  skipped: { reason: string; rows: number }[];
  /**
   * Days with stored rows on which the site has native events now: they do not count as
   * imported while it has (the native events win, so nothing is counted twice).
   */
  overlapDays: string[];
  /** sha256 of the files: the same export is refused while this import exists. */
  hash: string;
}

const MAX_REPORTED_ERRORS = 100;
const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `imp_` and 16 random lowercase letters or digits (about 82 bits). */
const newImportId = (): string => `imp_${Array.from(randomBytes(16), (b) => ID_ALPHABET[b % ID_ALPHABET.length]).join('')}`;

/**
 * Imports a Plausible CSV export (the zip of Site settings > Imports & Exports, a directory
 * of its CSV files, or one of them) as imported daily totals of a site, all or nothing: every
 * row of every file is checked first, and any bad one rejects the import with the file and
 * line of the first 100 (`ImportError`). The same export is refused a second time
 * (`DuplicateImportError`) while the first import exists. Memory stays flat in the export's
 * size: rows wait in a temporary file between the check and the write.
 *
 * @example
 * const summary = await importPlausible(storage, 'plausible_example_com_20251130.zip', { siteId: 'ST-blog' });
 * console.log(`${summary.rowsWritten} rows over ${summary.days} days (${summary.importId})`);
 */
export async function importPlausible(storage: Storage, path: string, options: PlausibleImportOptions): Promise<PlausibleImportSummary> {
  if (!storage.capabilities?.imported || !storage.writeImported || !storage.nativeDays) {
    throw new ImportError(`The ${storage.kind} storage does not keep imported daily totals (Storage.capabilities.imported).`);
  }
  const site = await storage.getSite(options.siteId);
  if (!site) throw new ImportError(`Site ${options.siteId} does not exist.`);
  const { files, close } = await exportFiles(path);
  const stage = openRowStage();
  try {
    const errors: ImportLineError[] = [];
    let bad = 0;
    const fail = (file: string, line: number, reason: string) => {
      bad++;
      if (errors.length < MAX_REPORTED_ERRORS) errors.push({ file, line, reason });
    };
    const hash = createHash('sha256');
    const skipped = new Map<string, number>();
    const partial = new Set<ImportedTable>();
    const tables = new Set<string>();
    let from = '';
    let to = '';
    let rowsRead = 0;
    let rowsWritten = 0;
    for (const file of files) {
      const named = parseFileName(file.name);
      if (!named) {
        fail(file.name, 0, 'not a file of a Plausible export (imported_<table>_<YYYYMMDD>_<YYYYMMDD>.csv)');
        continue;
      }
      if (!isCalendarDate(named.from) || !isCalendarDate(named.to) || named.from > named.to) {
        fail(file.name, 0, 'the dates in the file name are not a range of real days');
        continue;
      }
      tables.add(named.table);
      from = from === '' || named.from < from ? named.from : from;
      to = to === '' || named.to > to ? named.to : to;
      const spec = PLAUSIBLE_FILES[named.table]!;
      hash.update(`${file.name}\u0000`);
      let index: Map<string, number> | undefined;
      for await (const { line, fields } of csvRecords(await file.open(), hash)) {
        if (!index) {
          const header = headerIndex(fields, ['date', ...spec.required]);
          if (header.missing.length > 0) {
            fail(file.name, line, `missing column${header.missing.length === 1 ? '' : 's'} ${header.missing.join(', ')}`);
            break;
          }
          index = header.index;
          if (spec.pageviews === 'optional' && spec.table && !index.has('pageviews')) partial.add(spec.table);
          continue;
        }
        rowsRead++;
        if (rowsRead % 10_000 === 0) options.onProgress?.(rowsRead);
        const columns = index;
        const get: Fields = (column) => {
          const i = columns.get(column);
          return i === undefined ? undefined : (fields[i] ?? '');
        };
        const day = get('date') ?? '';
        if (!isCalendarDate(day)) {
          fail(file.name, line, `date must be a day YYYY-MM-DD, got ${JSON.stringify(day.slice(0, 40))}`);
          continue;
        }
        if (day < named.from || day > named.to) {
          fail(file.name, line, `date ${day} is outside the file's range ${named.from} to ${named.to}`);
          continue;
        }
        try {
          const row = spec.row(get, site);
          if ('skip' in row) skipped.set(row.skip, (skipped.get(row.skip) ?? 0) + 1);
          else if (bad === 0) {
            stage.add({ ...row, table: spec.table!, day });
            rowsWritten++;
          }
        } catch (error) {
          if (!(error instanceof RowError)) throw error;
          fail(file.name, line, error.message);
        }
      }
    }
    if (files.length > 0 && !tables.has('visitors')) fail('', 0, 'the export has no imported_visitors file (the totals every report starts from)');
    if (files.length === 0) fail('', 0, 'no files found');
    options.onProgress?.(rowsRead);
    if (bad > 0) throw new ImportError(`${bad} invalid row${bad === 1 ? '' : 's'} or file${bad === 1 ? '' : 's'}; nothing was imported.`, errors, bad);

    const dataset: ImportedDataset = {
      id: newImportId(),
      siteId: site.id,
      source: 'plausible',
      hash: hash.digest('hex'),
      from,
      to,
      rows: rowsWritten,
      partial: SESSION_TABLES.filter((t) => partial.has(t)),
      importedAt: new Date().toISOString(),
    };
    await storage.writeImported(dataset, stage.batches());
    const days = stage.days();
    const bounds = days.map((day) => ({ day, startMs: dayStart(day, site.timezone), endMs: dayStart(shiftDay(day, 1), site.timezone) }));
    return {
      importId: dataset.id, siteId: site.id, from, to, rowsRead, rowsWritten, days: days.length,
      skipped: [...skipped].map(([reason, rows]) => ({ reason, rows })),
      overlapDays: await storage.nativeDays(site.id, bounds),
      hash: dataset.hash,
    };
  } finally {
    stage.close();
    close();
  }
}
