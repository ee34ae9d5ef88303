import type { TableSpec } from '../schema.js';
import { tablesStep } from './step.js';

/**
 * Daily property counts of settled days (rollups/property-counts.ts): per day, under the
 * day's build id (`ver`, as `visitor_rollups`), the custom events named `name` and their
 * daily distinct visitors, per property key (`level` 0, `value` '') or per value of one key
 * (`level` 1). A `marker` row (1, counts 0) says the day was counted for the name (level 0,
 * `key` '') or for the name and key (level 1); rows are only ever inserted.
 */
export const PROPERTY_COUNTS_TABLE: TableSpec = {
  name: 'property_counts',
  columns: 'site_id String, day Date, ver UInt64, name String, level UInt8, key String, marker UInt8, value String, events UInt64, visitors UInt64',
  engine: 'MergeTree() PARTITION BY toYYYYMM(day) ORDER BY (site_id, name, level, key, day, ver, marker, value)',
  shardBy: 'sipHash64(site_id, day)',
};

/** Version 14 (issue 41): daily property counts. A new table only: the step is idempotent. */
export const propertyCountsSchema = tablesStep(14, 'daily property counts (property_counts)', [PROPERTY_COUNTS_TABLE]);
