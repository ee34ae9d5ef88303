import type { TableSpec } from '../schema.js';
import { tablesStep } from './step.js';

/**
 * The goals and saved funnels' steps of each session value per settled day
 * (rollups/value-goals.ts): per day, under the day's build id (`ver`, as `visitor_rollups`),
 * per session attribute (`dimension`: source, channel, country, device, browser, OS) and value,
 * per goal (`kind` 'goal', `key` the goal's definition) or funnel step (`kind` 'funnel', `key`
 * the step's number and the funnel's steps): the events of that day meeting the goal whose
 * session has the value (`conversions`; 0 for steps), and the daily distinct visitors of the
 * sessions starting that day with the value that convert on the goal or reach the step
 * (`visitors`). A marker row (`dimension` '', the kind and key) says the day was counted for
 * that key. Rows are only ever inserted.
 */
export const VALUE_GOALS_TABLE: TableSpec = {
  name: 'value_goals',
  columns: 'site_id String, dimension String, value String, kind String, key String, day Date, ver UInt64, conversions UInt64, visitors UInt64',
  engine: 'MergeTree() PARTITION BY toYYYYMM(day) ORDER BY (site_id, dimension, value, kind, key, day, ver)',
  shardBy: 'sipHash64(site_id, day)',
};

/**
 * Version 17 (issue 41): the goals and saved funnels per session value. A new table only: the
 * step is idempotent, and the days built before it are counted in the background when first read.
 */
export const valueGoalsSchema = tablesStep(17, 'goals and funnel steps per session value and day (value_goals)', [VALUE_GOALS_TABLE]);
