import type { TableSpec } from '../schema.js';
import { tablesStep } from './step.js';

/**
 * The session breakdowns of each session value per settled day (rollups/value-breakdowns.ts):
 * per day, under the day's build id (`ver`, as `visitor_rollups`), per session attribute
 * (`dimension`: source, channel, country, device, browser, OS) and value, per breakdown
 * dimension (`breakdown`: source, channel, country, device, browser, OS, UTM) and its value
 * (`key`): the sessions starting that day with both values and their daily distinct visitors.
 * A marker row (`dimension` '', nothing else) says the day was counted. Rows are only ever inserted.
 */
export const VALUE_BREAKDOWNS_TABLE: TableSpec = {
  name: 'value_breakdowns',
  columns: 'site_id String, dimension String, value String, breakdown String, day Date, ver UInt64, key String, sessions Int64, visitors UInt64',
  engine: 'MergeTree() PARTITION BY toYYYYMM(day) ORDER BY (site_id, dimension, value, breakdown, day, ver, key)',
  shardBy: 'sipHash64(site_id, day)',
};

/**
 * Version 16 (issue 41): the breakdowns per session value. A new table only: the step is
 * idempotent, and the days built before it are counted in the background when first read.
 */
export const valueBreakdownsSchema = tablesStep(16, 'session breakdowns per session value and day (value_breakdowns)', [VALUE_BREAKDOWNS_TABLE]);
