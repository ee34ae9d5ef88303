/**
 * Imported daily totals in ClickHouse (schema 11). No transactions here, so an import's rows
 * count only once its dataset row exists, written last: a write that fails half-way leaves
 * rows no read counts (and a retry of the same export is not refused, its hash unknown).
 * Deleting marks the dataset deleted (its rows stop counting at once), then deletes exactly
 * its rows with a mutation on every server holding them.
 */
import type { ClickHouseClient } from '@clickhouse/client';
import {
  type Condition, type DayBounds, DuplicateImportError, type ImportedDataset, type ImportedRow, type ImportedTable, type ImportedTotals,
  type ImportedTotalsRequest, MAX_IMPORTED_KEYS,
} from '@siteline/core';
import { connect } from '../connection/client.js';
import { sqlDate, sqlIdent, sqlInt, sqlString } from '../connection/escape.js';
import { conditionSql } from '../reads/conditions.js';
import { readDay } from '../schema/days.js';
import { storageTableName, tableName, type SchemaTarget } from '../schema/schema.js';
import type { WriterIO } from '../write/writer.js';

interface DatasetRead {
  id: string;
  d: [string, string, string, string, string, string | number, string, string, number];
}

/** Where the mutation of a delete runs: every node of a cluster given its nodes, else the store's client (`ON CLUSTER` on a cluster). */
export interface ImportedOptions {
  client: ClickHouseClient;
  nodes?: readonly string[];
  username?: string;
  password?: string;
}

const METRICS = ['visitors', 'sessions', 'pageviews', 'bounces', 'duration_s', 'events', 'timed_views', 'time_on_page_s'] as const;
const TOTALS = ['visitors', 'sessions', 'pageviews', 'bounces', 'durationS', 'events', 'timedViews', 'timeOnPageS'] as const;

/** The imported-data part of the ClickHouse store. */
export function createImported(io: WriterIO, target: SchemaTarget, options: ImportedOptions, now: () => number = Date.now) {
  let lastVersion = 0;
  const version = () => (lastVersion = Math.max(now() * 1000, lastVersion + 1));
  const datasets = tableName(target, 'imported_datasets');
  const rowsTable = tableName(target, 'imported_rows');

  /** The site's imports, newest version of each, deleted ones left out. */
  async function list(siteId: string): Promise<ImportedDataset[]> {
    const found = await io.rows<DatasetRead>(
      `SELECT id, d FROM (SELECT id, argMax((source, hash, from_day, to_day, partial, rows, imported_at, site_id, deleted), version) AS d
         FROM ${datasets} WHERE site_id = ${sqlString(siteId)} GROUP BY id)
       WHERE tupleElement(d, 9) = 0 ORDER BY tupleElement(d, 7), id`,
    );
    return found.map(({ id, d }) => ({
      id, siteId, source: 'plausible', hash: d[1], from: d[2], to: d[3], partial: d[4] === '' ? [] : (d[4].split(',') as ImportedTable[]),
      rows: Number(d[5]), importedAt: d[6],
    }));
  }

  const datasetRow = (d: ImportedDataset, deleted: boolean) => ({
    site_id: d.siteId, id: d.id, source: d.source, hash: d.hash, from_day: d.from, to_day: d.to, rows: d.rows, partial: d.partial.join(','),
    imported_at: d.importedAt, deleted: deleted ? 1 : 0, version: version(),
  });

  /** Runs a statement on every server holding rows. */
  async function everyNode(run: (client: ClickHouseClient, on: string) => Promise<void>): Promise<void> {
    const nodes = options.nodes ?? [];
    if (!target.cluster || nodes.length === 0) return run(options.client, target.cluster ? ` ON CLUSTER ${sqlIdent(target.cluster)}` : '');
    for (const url of nodes) {
      const node = connect({ url, username: options.username, password: options.password });
      try {
        await run(node, '');
      } finally {
        await node.close();
      }
    }
  }

  return {
    async writeImported(dataset: ImportedDataset, batches: Iterable<readonly ImportedRow[]>): Promise<void> {
      if ((await list(dataset.siteId)).some((d) => d.hash === dataset.hash)) throw new DuplicateImportError(dataset.hash);
      for (const batch of batches) {
        await io.insert('imported_rows', batch.map((r) => {
          const row: Record<string, string | number> = { site_id: dataset.siteId, tbl: r.table, day: r.day, import_id: dataset.id };
          for (let k = 0; k < MAX_IMPORTED_KEYS; k++) row[`k${k}`] = r.keys[k] ?? '';
          METRICS.forEach((m, i) => (row[m] = r[TOTALS[i]!]));
          return row;
        }));
      }
      await io.insert('imported_datasets', [datasetRow(dataset, false)]);
    },

    listImports: list,

    async deleteImport(siteId: string, importId: string): Promise<boolean> {
      const dataset = (await list(siteId)).find((d) => d.id === importId);
      if (!dataset) return false;
      await io.insert('imported_datasets', [datasetRow(dataset, true)]);
      const where = `site_id = ${sqlString(siteId)} AND import_id = ${sqlString(importId)}`;
      await everyNode(async (node, on) => {
        const local = storageTableName(target, 'imported_rows');
        await node.command({ query: `ALTER TABLE ${local}${on} DELETE WHERE ${where}` });
        // 18.16 has no mutations_sync: wait for the server's mutations of the table to finish.
        for (let waited = 0; waited < 60_000; waited += 100) {
          const [left] = await (await node.query({
            query: `SELECT count() AS n FROM system.mutations WHERE database = ${sqlString(target.database)} AND table = ${sqlString(target.cluster ? 'imported_rows_local' : 'imported_rows')} AND is_done = 0`,
            format: 'JSONEachRow',
          })).json<{ n: string }>();
          if (Number(left?.n) === 0) return;
          await new Promise((r) => setTimeout(r, 100));
        }
      });
      return true;
    },

    async nativeDays(siteId: string, days: readonly DayBounds[]): Promise<string[]> {
      if (days.length === 0) return [];
      const found = await io.rows<{ d: string }>(
        `SELECT DISTINCT day AS d FROM ${tableName(target, 'events')} WHERE site_id = ${sqlString(siteId)} AND day IN (${days.map((b) => sqlDate(b.day)).join(', ')})`,
      );
      return found.map((r) => readDay(r.d));
    },

    async importedTotals(request: ImportedTotalsRequest): Promise<ImportedTotals[]> {
      if (request.days.length === 0 || request.importIds.length === 0) return [];
      const where = [
        `site_id = ${sqlString(request.siteId)}`,
        `tbl = ${sqlString(request.table)}`,
        `(${request.days.map((run) => `day BETWEEN ${sqlDate(run.from)} AND ${sqlDate(run.to)}`).join(' OR ')})`,
        `import_id IN (${request.importIds.map(sqlString).join(', ')})`,
        ...request.conditions.map((c: Condition & { key: number }) => conditionSql(`k${sqlInt(c.key)}`, c)),
      ];
      const groups = [...request.groupBy.map((k) => `k${sqlInt(k)}`), ...(request.byDay ? ['day'] : [])];
      const select = [
        ...request.groupBy.map((k, i) => `k${sqlInt(k)} AS g${i}`),
        ...(request.byDay ? ['day AS d'] : []),
        ...METRICS.map((m, i) => `sum(${m}) AS ${TOTALS[i]}`),
        'count() AS n',
      ];
      const found = await io.rows<Record<string, string | number>>(
        `SELECT ${select.join(', ')} FROM ${rowsTable} WHERE ${where.join(' AND ')}${groups.length ? ` GROUP BY ${groups.join(', ')}` : ''}`,
      );
      return found
        .filter((r) => Number(r.n) > 0)
        .map((r) => {
          const totals = { keys: request.groupBy.map((_, i) => String(r[`g${i}`])) } as ImportedTotals;
          for (const t of TOTALS) totals[t] = Number(r[t]);
          if (request.byDay) totals.day = readDay(String(r.d));
          return totals;
        });
    },
  };
}
