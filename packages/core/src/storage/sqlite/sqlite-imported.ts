/**
 * Imported daily totals in the SQLite store (migration 12): an import's dataset row and its rows
 * written in one transaction, summed per request, deleted together.
 */
import type Database from 'better-sqlite3';
import { DuplicateImportError } from '../../errors.js';
import { MAX_IMPORTED_KEYS } from '../../imported/tables.js';
import type { DayBounds, ImportedDataset, ImportedRow, ImportedTable, ImportedTotals, ImportedTotalsRequest } from '../../imported/types.js';
import type { Condition } from '../types.js';
import { batchInsert } from './sqlite-batch.js';

const ROW_COLUMNS = [
  'site_id', 'tbl', 'day', 'import_id', 'k0', 'k1', 'k2', 'k3', 'k4',
  'visitors', 'sessions', 'pageviews', 'bounces', 'duration_s', 'events', 'timed_views', 'time_on_page_s',
];
const SUMS = `SUM(visitors) AS visitors, SUM(sessions) AS sessions, SUM(pageviews) AS pageviews, SUM(bounces) AS bounces,
  SUM(duration_s) AS durationS, SUM(events) AS events, SUM(timed_views) AS timedViews, SUM(time_on_page_s) AS timeOnPageS`;

interface DatasetRow {
  id: string;
  site_id: string;
  source: string;
  hash: string;
  from_day: string;
  to_day: string;
  rows: number;
  partial: string;
  imported_at: string;
}

const toDataset = (r: DatasetRow): ImportedDataset => ({
  id: r.id, siteId: r.site_id, source: 'plausible', hash: r.hash, from: r.from_day, to: r.to_day, rows: r.rows,
  partial: r.partial === '' ? [] : (r.partial.split(',') as ImportedTable[]), importedAt: r.imported_at,
});

/** A condition as SQL on a key column, its values bound (`instr` is SQLite's byte-exact substring test on text). */
function conditionSql(column: string, c: Condition, params: unknown[]): string {
  params.push(...c.values);
  const marks = c.values.map(() => '?').join(', ');
  switch (c.operator) {
    case 'is':
      return `${column} IN (${marks})`;
    case 'is_not':
      return `${column} NOT IN (${marks})`;
    case 'contains':
      return `(${c.values.map(() => `instr(${column}, ?) > 0`).join(' OR ')})`;
    case 'contains_not':
      return `(${c.values.map(() => `instr(${column}, ?) = 0`).join(' AND ')})`;
  }
}

/** The imported-data part of the SQLite store. */
export function createImported(db: Database.Database) {
  const insertDataset = db.prepare(
    'INSERT INTO imported_datasets (id, site_id, source, hash, from_day, to_day, rows, partial, imported_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const knownHash = db.prepare<[string, string], number>('SELECT 1 FROM imported_datasets WHERE site_id = ? AND hash = ?').pluck();
  const rows = batchInsert(db, 'imported_rows', ROW_COLUMNS, 50);
  const list = db.prepare<[string], DatasetRow>('SELECT * FROM imported_datasets WHERE site_id = ? ORDER BY imported_at, id');
  const removeDataset = db.prepare('DELETE FROM imported_datasets WHERE site_id = ? AND id = ?');
  const removeRows = db.prepare('DELETE FROM imported_rows WHERE site_id = ? AND import_id = ?');
  // The events table is keyed by (site_id, ts, id): a day's first event is one seek.
  const anyEvent = db.prepare<[string, number, number], number>('SELECT 1 FROM events WHERE site_id = ? AND ts >= ? AND ts < ? LIMIT 1').pluck();

  const write = db.transaction((dataset: ImportedDataset, batches: Iterable<readonly ImportedRow[]>) => {
    if (knownHash.get(dataset.siteId, dataset.hash) !== undefined) throw new DuplicateImportError(dataset.hash);
    for (const batch of batches) {
      for (const r of batch) {
        const values: unknown[] = [dataset.siteId, r.table, r.day, dataset.id];
        for (let k = 0; k < MAX_IMPORTED_KEYS; k++) values.push(r.keys[k] ?? '');
        values.push(r.visitors, r.sessions, r.pageviews, r.bounces, r.durationS, r.events, r.timedViews, r.timeOnPageS);
        rows.add(values);
      }
    }
    rows.flush();
    insertDataset.run(
      dataset.id, dataset.siteId, dataset.source, dataset.hash, dataset.from, dataset.to, dataset.rows, dataset.partial.join(','), dataset.importedAt,
    );
  });
  const remove = db.transaction((siteId: string, importId: string) => {
    const gone = removeDataset.run(siteId, importId).changes > 0;
    if (gone) removeRows.run(siteId, importId);
    return gone;
  });

  return {
    writeImported: (dataset: ImportedDataset, batches: Iterable<readonly ImportedRow[]>): void => void write.immediate(dataset, batches),
    listImports: (siteId: string): ImportedDataset[] => list.all(siteId).map(toDataset),
    deleteImport: (siteId: string, importId: string): boolean => remove.immediate(siteId, importId),
    nativeDays: (siteId: string, days: readonly DayBounds[]): string[] =>
      days.filter((d) => anyEvent.get(siteId, d.startMs, d.endMs) !== undefined).map((d) => d.day),
    importedTotals(request: ImportedTotalsRequest): ImportedTotals[] {
      if (request.days.length === 0 || request.importIds.length === 0) return [];
      const params: unknown[] = [request.siteId, request.table];
      const where = ['site_id = ?', 'tbl = ?'];
      where.push(`(${request.days.map((run) => (params.push(run.from, run.to), 'day BETWEEN ? AND ?')).join(' OR ')})`);
      where.push(`import_id IN (${request.importIds.map((id) => (params.push(id), '?')).join(', ')})`);
      for (const c of request.conditions) where.push(conditionSql(`k${c.key}`, c, params));
      const groups = [...request.groupBy.map((k) => `k${k}`), ...(request.byDay ? ['day'] : [])];
      const select = [...request.groupBy.map((k, i) => `k${k} AS g${i}`), ...(request.byDay ? ['day'] : []), SUMS].join(', ');
      const sql = `SELECT ${select} FROM imported_rows WHERE ${where.join(' AND ')}${groups.length ? ` GROUP BY ${groups.join(', ')}` : ''}`;
      return (db.prepare(sql).all(...params) as Record<string, unknown>[])
        .filter((r) => r.visitors !== null)
        .map((r) => {
          const totals: ImportedTotals = {
            keys: request.groupBy.map((_, i) => r[`g${i}`] as string),
            visitors: Number(r.visitors), sessions: Number(r.sessions), pageviews: Number(r.pageviews), bounces: Number(r.bounces),
            durationS: Number(r.durationS), events: Number(r.events), timedViews: Number(r.timedViews), timeOnPageS: Number(r.timeOnPageS),
          };
          if (request.byDay) totals.day = r.day as string;
          return totals;
        });
    },
  };
}
