import { createTableStatements, type TableSpec } from '../schema.js';
import type { MigrationStep } from './step.js';

/**
 * The sessions of each page per settled day (rollups/value-pages.ts `pageSessionsBuildSql`): per
 * day, under the day's build id (`ver`, as `visitor_rollups`), per path, the sessions starting
 * that day with a pageview of it (whatever the pageview's day), their bounces, summed duration
 * and daily distinct visitors: what `page is path` selects for `/stats` and `/timeseries`.
 * Rows are only ever inserted.
 */
export const PAGE_SESSIONS_TABLE: TableSpec = {
  name: 'page_sessions',
  columns: 'site_id String, path String, day Date, ver UInt64, sessions Int64, bounces Int64, duration_ms Int64, visitors UInt64',
  engine: 'MergeTree() PARTITION BY toYYYYMM(day) ORDER BY (site_id, path, day, ver)',
  shardBy: 'sipHash64(site_id, day)',
};

/**
 * Version 18 (issue 41): the sessions per page (`page_sessions`), and `value_pages` rows per
 * page. Days built before it have neither, so, as version 15, each day of `day_marks` gets one
 * more write mark: every day is unsettled until its next build, which the reads start (three
 * days at once, the rest in the background) and which reads take raw meanwhile. Running it
 * again adds another mark: harmless.
 */
export const pageSessionsSchema: MigrationStep = {
  version: 18,
  description: 'sessions per page and day (page_sessions), pages per page in value_pages; every day rebuilt once',
  async up(ctx) {
    for (const sql of createTableStatements(ctx.target, PAGE_SESSIONS_TABLE, ctx.onCluster)) await ctx.ddl(sql);
    const marks = ctx.dataTable('day_marks');
    await ctx.data(
      `INSERT INTO ${marks} (site_id, day, ver, writes, builds)
       SELECT site_id, day, toUInt64(0), toUInt64(1), toUInt64(0) FROM ${marks} GROUP BY site_id, day`,
    );
  },
};
