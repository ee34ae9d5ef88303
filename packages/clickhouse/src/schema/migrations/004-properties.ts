import { sqlIdent, sqlString } from '../../connection/escape.js';
import { createTableStatements, onClusterClause, type TableSpec } from '../schema.js';
import type { MigrationStep } from './step.js';

/**
 * The goals of each site (properties-goals.md section 4): one row per change, the newest
 * `version` of a (site, display name) wins, `deleted` 1 ends a goal. Rows are only ever
 * inserted, as for sites and keys.
 */
export const GOALS_TABLE: TableSpec = {
  name: 'goals',
  columns: 'site_id String, name String, type String, value String, created_at String, deleted UInt8, version UInt64',
  engine: 'ReplacingMergeTree(version) ORDER BY (site_id, name)',
  shardBy: 'sipHash64(site_id)',
};

/** The columns this step adds to `events`: a custom event's property keys and values, in the same order (none for pageviews). */
const PROP_COLUMNS = ['prop_keys', 'prop_values'] as const;

/**
 * Version 4: custom event properties and goals. `events` gets two parallel
 * `Array(String)` columns (`prop_keys`, `prop_values`): 18.16 has no `Map`, and two
 * columns on the event's own row keep every property condition a `WHERE` on that row
 * (`prop_values[indexOf(prop_keys, key)]`). Existing rows get empty arrays (they had
 * no properties). 18.16 has no `ADD COLUMN IF NOT EXISTS`, so the step adds only the
 * columns `system.columns` does not list (idempotent); on a cluster the physical table
 * and its `Distributed` table both get them.
 */
export const propertiesSchema: MigrationStep = {
  version: 4,
  description: 'custom event properties (events.prop_keys, events.prop_values) and goals',
  async up(ctx) {
    const { target, onCluster } = ctx;
    const tables = target.cluster ? ['events_local', 'events'] : ['events'];
    for (const table of tables) {
      const have = await ctx.query<{ name: string }>(
        `SELECT name FROM system.columns WHERE database = ${sqlString(target.database)} AND table = ${sqlString(table)}`,
      );
      for (const column of PROP_COLUMNS) {
        if (have.some((c) => c.name === column)) continue;
        await ctx.ddl(`ALTER TABLE ${sqlIdent(target.database)}.${sqlIdent(table)}${onClusterClause(target, onCluster)} ADD COLUMN ${column} Array(String)`);
      }
    }
    for (const sql of createTableStatements(target, GOALS_TABLE, onCluster)) await ctx.ddl(sql);
  },
};
