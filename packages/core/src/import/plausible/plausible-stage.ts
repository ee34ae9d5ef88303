/**
 * Where the rows of a Plausible import wait between reading (all of them checked first: an
 * import is all or nothing) and writing: a temporary SQLite file, read back a batch at a
 * time, so memory does not grow with the export. Deleted when closed.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_IMPORTED_KEYS } from '../../imported/tables.js';
import type { ImportedRow, ImportedTable } from '../../imported/types.js';

const METRICS = ['visitors', 'sessions', 'pageviews', 'bounces', 'durationS', 'events', 'timedViews', 'timeOnPageS'] as const;
const COLUMNS = ['tbl', 'day', 'k0', 'k1', 'k2', 'k3', 'k4', ...METRICS];
/** Rows per INSERT, and per batch given to the storage. */
const ROWS_PER_INSERT = 50;
export const STAGE_BATCH_ROWS = 5_000;

/**
 * A new, empty stage.
 * @example const stage = openRowStage(); stage.add(row); for (const batch of stage.batches()) write(batch); stage.close();
 */
export function openRowStage() {
  const dir = mkdtempSync(join(tmpdir(), 'siteline-plausible-'));
  const db = new Database(join(dir, 'rows.db'));
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(`CREATE TABLE rows (${COLUMNS.map((c) => `${c} ${METRICS.includes(c as never) ? 'INTEGER' : 'TEXT'} NOT NULL`).join(', ')})`);
  const row = `(${COLUMNS.map(() => '?').join(', ')})`;
  const insertMany = db.prepare(`INSERT INTO rows VALUES ${Array(ROWS_PER_INSERT).fill(row).join(', ')}`);
  const insertOne = db.prepare(`INSERT INTO rows VALUES ${row}`);
  let pending: unknown[][] = [];
  const flush = db.transaction(() => {
    let i = 0;
    for (; i + ROWS_PER_INSERT <= pending.length; i += ROWS_PER_INSERT) insertMany.run(pending.slice(i, i + ROWS_PER_INSERT).flat());
    for (; i < pending.length; i++) insertOne.run(pending[i]);
    pending = [];
  });
  const toValues = (r: ImportedRow): unknown[] => {
    const values: unknown[] = [r.table, r.day];
    for (let k = 0; k < MAX_IMPORTED_KEYS; k++) values.push(r.keys[k] ?? '');
    for (const m of METRICS) values.push(r[m]);
    return values;
  };
  return {
    add(r: ImportedRow): void {
      pending.push(toValues(r));
      if (pending.length >= 10_000) flush();
    },
    /** Staged rows in batches, in the order they came. Call after the last `add`. */
    *batches(): Generator<ImportedRow[]> {
      flush();
      let batch: ImportedRow[] = [];
      for (const v of db.prepare(`SELECT ${COLUMNS.join(', ')} FROM rows ORDER BY rowid`).raw().iterate() as IterableIterator<unknown[]>) {
        const r = { table: v[0] as ImportedTable, day: v[1] as string, keys: v.slice(2, 7) as string[] } as unknown as ImportedRow;
        METRICS.forEach((m, i) => ((r as unknown as Record<string, number>)[m] = v[7 + i] as number));
        batch.push(r);
        if (batch.length >= STAGE_BATCH_ROWS) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    },
    /** The distinct days of the staged rows, ascending. */
    days(): string[] {
      flush();
      return db.prepare('SELECT DISTINCT day FROM rows ORDER BY day').pluck().all() as string[];
    },
    close(): void {
      if (db.open) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
