import type { TableSpec } from '../schema.js';
import { tablesStep } from './step.js';

/**
 * The imports of daily totals (issue 39, a Plausible export): one row per change, the newest
 * `version` of a (site, id) wins, `deleted` 1 removes the import (its rows stop counting at
 * once; `deleteImport` then deletes them with a mutation). `partial`: the session tables the
 * import has no pageviews for, comma-separated.
 */
export const IMPORTED_DATASETS_TABLE: TableSpec = {
  name: 'imported_datasets',
  columns: `site_id String, id String, source String, hash String, from_day String, to_day String, rows UInt64, partial String,
    imported_at String, deleted UInt8, version UInt64`,
  engine: 'ReplacingMergeTree(version) ORDER BY (site_id, id)',
  shardBy: 'sipHash64(site_id)',
};

/**
 * The imported rows, per site, table, local day and key (`k0` to `k4` in the order of core's
 * imported/tables.ts); reads sum them, counting only the rows of imports that exist.
 */
export const IMPORTED_ROWS_TABLE: TableSpec = {
  name: 'imported_rows',
  columns: `site_id String, tbl String, day Date, import_id String, k0 String, k1 String, k2 String, k3 String, k4 String,
    visitors UInt64, sessions UInt64, pageviews UInt64, bounces UInt64, duration_s UInt64, events UInt64, timed_views UInt64,
    time_on_page_s UInt64`,
  engine: 'MergeTree() PARTITION BY toYYYYMM(day) ORDER BY (site_id, tbl, day, import_id)',
  shardBy: 'sipHash64(import_id)',
};

/** Version 11: imported daily totals (`imported_datasets`, `imported_rows`). */
export const importedSchema = tablesStep(11, 'imported daily totals (imported_datasets, imported_rows)', [IMPORTED_DATASETS_TABLE, IMPORTED_ROWS_TABLE]);
