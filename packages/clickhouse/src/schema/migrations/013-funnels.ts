import type { TableSpec } from '../schema.js';
import { tablesStep } from './step.js';

/**
 * The saved funnels of each site (funnels.md section 4): one row per change, the newest
 * `version` of a (site, name) wins, `deleted` 1 ends a funnel; `steps` is the funnel's own
 * steps as the JSON array the API takes. Rows are only ever inserted, as for goals.
 */
export const FUNNELS_TABLE: TableSpec = {
  name: 'funnels',
  columns: 'site_id String, name String, steps String, created_at String, deleted UInt8, version UInt64',
  engine: 'ReplacingMergeTree(version) ORDER BY (site_id, name)',
  shardBy: 'sipHash64(site_id)',
};

/** Version 13 (issue 36): saved funnels. A new table only: the step is idempotent. */
export const funnelsSchema = tablesStep(13, 'saved funnels (funnels)', [FUNNELS_TABLE]);
