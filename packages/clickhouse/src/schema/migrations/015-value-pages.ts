import { createTableStatements, type TableSpec } from '../schema.js';
import type { MigrationStep } from './step.js';

/**
 * The pages of each session value per settled day (rollups/value-pages.ts): per day, under the
 * day's build id (`ver`, as `visitor_rollups`), per session attribute (`dimension`: source,
 * channel, country, device, browser, OS) and value, per path: the pageviews of the sessions
 * with that value, their daily distinct visitors, their timed views and time on page, and
 * the sessions entering there and their bounces (by the session's start day). Rows are only
 * ever inserted.
 */
export const VALUE_PAGES_TABLE: TableSpec = {
  name: 'value_pages',
  columns: `site_id String, dimension String, value String, day Date, ver UInt64, path String,
    pageviews UInt64, visitors UInt64, timed_views Int64, time_on_page_ms Int64, entries Int64, bounces Int64`,
  engine: 'MergeTree() PARTITION BY toYYYYMM(day) ORDER BY (site_id, dimension, value, day, ver, path)',
  shardBy: 'sipHash64(site_id, day)',
};

/**
 * Version 15 (issue 41): the pages per session value (`value_pages`). Days built before it
 * have no such rows, so each day of `day_marks` gets one more write mark: every day is
 * unsettled until its next build, which the reads start (three days at once, the rest in the
 * background) and which reads take raw meanwhile. Running it again adds another mark: harmless.
 */
export const valuePagesSchema: MigrationStep = {
  version: 15,
  description: 'pages per session value and day (value_pages); every day rebuilt once',
  async up(ctx) {
    for (const sql of createTableStatements(ctx.target, VALUE_PAGES_TABLE, ctx.onCluster)) await ctx.ddl(sql);
    const marks = ctx.dataTable('day_marks');
    await ctx.data(
      `INSERT INTO ${marks} (site_id, day, ver, writes, builds)
       SELECT site_id, day, toUInt64(0), toUInt64(1), toUInt64(0) FROM ${marks} GROUP BY site_id, day`,
    );
  },
};
