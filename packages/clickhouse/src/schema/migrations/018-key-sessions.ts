import { createTableStatements, type TableSpec } from '../schema.js';
import type { MigrationStep } from './step.js';

/**
 * The sessions of each page and each custom event name per settled day
 * (rollups/value-pages.ts `keySessionsBuildSql`): per day, under the day's build id (`ver`, as
 * `visitor_rollups`), per key (`dimension` 'page' and a path, or 'event' and a name), the
 * sessions starting that day with a pageview of the path or a custom event of the name
 * (whatever its day), their bounces, summed duration and daily distinct visitors: what `page
 * is path`, `event is name` and a goal condition on an event goal select for `/stats` and
 * `/timeseries`. Rows are only ever inserted.
 */
export const KEY_SESSIONS_TABLE: TableSpec = {
  name: 'key_sessions',
  columns: 'site_id String, dimension String, value String, day Date, ver UInt64, sessions Int64, bounces Int64, duration_ms Int64, visitors UInt64',
  engine: 'MergeTree() PARTITION BY toYYYYMM(day) ORDER BY (site_id, dimension, value, day, ver)',
  shardBy: 'sipHash64(site_id, day)',
};

/**
 * Version 18 (issue 41): the sessions per page and event name (`key_sessions`), and the rows
 * of each page and event name in `value_pages`. Days built before it have neither, so, as
 * version 15, each day of `day_marks` gets one more write mark: every day is unsettled until
 * its next build, which the reads start (three days at once, the rest in the background) and
 * which reads take raw meanwhile. Running it again adds another mark: harmless.
 */
export const keySessionsSchema: MigrationStep = {
  version: 18,
  description: 'sessions per page and event name and day (key_sessions), pages per page and event name in value_pages; every day rebuilt once',
  async up(ctx) {
    for (const sql of createTableStatements(ctx.target, KEY_SESSIONS_TABLE, ctx.onCluster)) await ctx.ddl(sql);
    const marks = ctx.dataTable('day_marks');
    await ctx.data(
      `INSERT INTO ${marks} (site_id, day, ver, writes, builds)
       SELECT site_id, day, toUInt64(0), toUInt64(1), toUInt64(0) FROM ${marks} GROUP BY site_id, day`,
    );
  },
};
