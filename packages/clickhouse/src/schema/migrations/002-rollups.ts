import { createTableStatements, createViewStatement, dropTableStatements, onClusterClause, tableName, type TableSpec } from '../schema.js';
import type { MigrationContext, MigrationStep } from './step.js';

/**
 * Version 2: reports read daily rollups instead of merging every session of
 * the range (see README, "Schema" and "Query plan").
 *
 * - `sessions`: each session's states by start day, as signed rows (a
 *   changed session is a -1 row of its old state and a +1 row of its new
 *   one);
 * - `session_state`: the +1 rows again, by session id (a view), for the
 *   writer's look-up of the sessions a write touches;
 * - `day_totals`, `dim_totals`, `page_totals`, `event_totals`: additive sums
 *   per day (and quarter hour, attribute value, path, event name), kept by
 *   materialized views from `events` and `sessions`, and by the writer's
 *   time-on-page deltas;
 * - `day_marks`, `visitor_rollups`: daily distinct visitor counts of settled
 *   days, computed once and invalid once a later write touches the day.
 *
 * Everything here derives from `events`, so the step drops and rebuilds it
 * all: run again after an interruption, it starts over and ends the same.
 */

/** The session attributes, taken from the session's first event by (ts, seq). */
export const SESSION_ATTRIBUTE_COLUMNS = [
  'entry_path', 'referrer_source', 'channel', 'utm_source', 'utm_medium', 'utm_campaign', 'country_code', 'device_type', 'browser', 'os',
] as const;

/** Columns of a session state, in order (`session_state`; `sessions` adds `sign`). */
export const SESSION_STATE_COLUMNS = [
  'site_id', 'session_id', 'version', 'day', 'visitor_id', 'start_ts', 'start_seq', 'end_ts', 'end_seq', 'end_day', 'end_type', 'end_path',
  'pageview_count', 'event_count', ...SESSION_ATTRIBUTE_COLUMNS,
] as const;

export const STATE = `site_id String, session_id String, version UInt64, day Date, visitor_id String,
  start_ts UInt64, start_seq UInt64, end_ts UInt64, end_seq UInt64, end_day Date,
  end_type Enum8('pageview' = 1, 'event' = 2), end_path String, pageview_count UInt64, event_count UInt64,
  ${SESSION_ATTRIBUTE_COLUMNS.map((c) => `${c} String`).join(', ')}`;

/**
 * The session attribute groups of `dim_totals` and `visitor_rollups`, and the
 * SQL of each group's value over a `sessions` row: the breakdown dimensions
 * of the storage contract plus `entryPath` (entry sessions and bounces of
 * `/pages`). `utm` joins the triple with NUL, as the SQLite store's rollups do.
 */
export const DIMENSION_VALUE_SQL = {
  referrerSource: 'referrer_source',
  channel: 'channel',
  countryCode: 'country_code',
  deviceType: 'device_type',
  browser: 'browser',
  os: 'os',
  utm: "concat(utm_source, '\\0', utm_medium, '\\0', utm_campaign)",
  entryPath: 'entry_path',
} as const;
export type RollupDimension = keyof typeof DIMENSION_VALUE_SQL;

/** `ARRAY JOIN` list of (dimension, value) pairs of a `sessions` row. */
export const DIMENSION_PAIRS_SQL = `[${Object.entries(DIMENSION_VALUE_SQL).map(([d, sql]) => `('${d}', ${sql})`).join(', ')}]`;

/** Quarter hour of an instant: every UTC offset in use is a whole number of quarter hours, so local hours are unions of slots. */
export const SLOT_SQL = (ts: string) => `toUInt32(intDiv(${ts}, 900000))`;

/** Bounce and duration of a `sessions` row, weighted by its sign. */
const SIGNED = {
  sessions: 'sum(toInt64(sign))',
  bounces: 'sum(toInt64(sign) * (pageview_count = 1 AND event_count = 0))',
  duration: 'sum(toInt64(sign) * toInt64(end_ts - start_ts))',
};

export const TABLES: TableSpec[] = [
  {
    name: 'session_state',
    columns: STATE,
    engine: 'ReplacingMergeTree(version) ORDER BY (site_id, session_id)',
    shardBy: 'sipHash64(session_id)',
  },
  {
    name: 'sessions',
    columns: `${STATE}, sign Int8`,
    engine: 'CollapsingMergeTree(sign) PARTITION BY toYYYYMM(day) ORDER BY (site_id, day, visitor_id, session_id, version)',
    shardBy: 'sipHash64(session_id)',
  },
  {
    name: 'day_totals',
    columns: 'site_id String, day Date, slot UInt32, sessions Int64, bounces Int64, duration_ms Int64, pageviews Int64',
    engine: 'SummingMergeTree() PARTITION BY toYYYYMM(day) ORDER BY (site_id, day, slot)',
    shardBy: 'sipHash64(site_id, day)',
  },
  {
    name: 'dim_totals',
    columns: 'site_id String, dimension String, day Date, value String, sessions Int64, bounces Int64, duration_ms Int64',
    engine: 'SummingMergeTree() PARTITION BY toYYYYMM(day) ORDER BY (site_id, dimension, day, value)',
    shardBy: 'sipHash64(site_id, day)',
  },
  {
    name: 'page_totals',
    columns: 'site_id String, day Date, path String, pageviews Int64, timed_views Int64, time_on_page_ms Int64',
    engine: 'SummingMergeTree() PARTITION BY toYYYYMM(day) ORDER BY (site_id, day, path)',
    shardBy: 'sipHash64(site_id, day)',
  },
  {
    name: 'event_totals',
    columns: 'site_id String, day Date, name String, custom_events Int64',
    engine: 'SummingMergeTree() PARTITION BY toYYYYMM(day) ORDER BY (site_id, day, name)',
    shardBy: 'sipHash64(site_id, day)',
  },
  {
    // Write marks (ver 0, writes 1) and finished builds (their ver, builds 1) of each day, summed per (day, ver):
    // one row of writes and one per build; `builds` keeps a build's row from being dropped as all zeros.
    name: 'day_marks',
    columns: 'site_id String, day Date, ver UInt64, writes UInt64, builds UInt64',
    engine: 'SummingMergeTree() ORDER BY (site_id, day, ver)',
    shardBy: 'sipHash64(site_id, day)',
  },
  {
    name: 'visitor_rollups',
    columns: 'site_id String, dimension String, day Date, ver UInt64, value String, visitors UInt64',
    engine: 'MergeTree() PARTITION BY toYYYYMM(day) ORDER BY (site_id, dimension, day, ver, value)',
    shardBy: 'sipHash64(site_id, day)',
  },
];

/**
 * The views. Output names never repeat a column name of their source table
 * (ClickHouse 18.16 substitutes aliases into the whole query), which is why
 * session rows say `pageview_count` and the rollups `pageviews`.
 */
export const VIEWS = [
  {
    // The writer inserts each new state once, into `sessions`; its +1 row is also the state the next write looks up.
    name: 'sessions_state_mv', from: 'sessions', into: 'session_state',
    select: (from: string) => `SELECT ${SESSION_STATE_COLUMNS.join(', ')} FROM ${from} WHERE sign = 1`,
  },
  {
    name: 'sessions_totals_mv', from: 'sessions', into: 'day_totals',
    select: (from: string) => `SELECT site_id, day, ${SLOT_SQL('start_ts')} AS slot, ${SIGNED.sessions} AS sessions,
      ${SIGNED.bounces} AS bounces, ${SIGNED.duration} AS duration_ms, toInt64(0) AS pageviews
      FROM ${from} GROUP BY site_id, day, slot`,
  },
  {
    name: 'sessions_dims_mv', from: 'sessions', into: 'dim_totals',
    select: (from: string) => `SELECT site_id, tupleElement(dv, 1) AS dimension, day, tupleElement(dv, 2) AS value,
      ${SIGNED.sessions} AS sessions, ${SIGNED.bounces} AS bounces, ${SIGNED.duration} AS duration_ms
      FROM ${from} ARRAY JOIN ${DIMENSION_PAIRS_SQL} AS dv GROUP BY site_id, dimension, day, value`,
  },
  {
    name: 'events_totals_mv', from: 'events', into: 'day_totals',
    select: (from: string) => `SELECT site_id, day, ${SLOT_SQL('ts')} AS slot, toInt64(0) AS sessions, toInt64(0) AS bounces,
      toInt64(0) AS duration_ms, toInt64(count()) AS pageviews
      FROM ${from} WHERE type = 'pageview' GROUP BY site_id, day, slot`,
  },
  {
    name: 'events_pages_mv', from: 'events', into: 'page_totals',
    select: (from: string) => `SELECT site_id, day, path, toInt64(count()) AS pageviews, toInt64(0) AS timed_views, toInt64(0) AS time_on_page_ms
      FROM ${from} WHERE type = 'pageview' GROUP BY site_id, day, path`,
  },
  {
    name: 'events_names_mv', from: 'events', into: 'event_totals',
    select: (from: string) => `SELECT site_id, day, name, toInt64(count()) AS custom_events
      FROM ${from} WHERE type = 'event' GROUP BY site_id, day, name`,
  },
];

/**
 * Events per backfill pass: each pass groups the sessions of about this many
 * events (hash buckets of session ids), which keeps a pass under ~1 GB.
 */
const EVENTS_PER_PASS = 10_000_000;

async function backfill(ctx: MigrationContext): Promise<void> {
  const t = (name: string) => ctx.dataTable(name);
  const [count] = await ctx.query<{ n: string }>(`SELECT count() AS n FROM ${t('events')}`);
  const passes = Math.max(1, Math.ceil(Number(count?.n ?? 0) / EVENTS_PER_PASS));
  const state = SESSION_STATE_COLUMNS.join(', ');
  const first = ['day', 'visitor_id', 'ts', 'seq', ...SESSION_ATTRIBUTE_COLUMNS];
  const f = (column: string) => `tupleElement(f, ${first.indexOf(column) + 1})`;
  for (let pass = 0; pass < passes; pass++) {
    const bucket = `cityHash64(session_id) % ${passes} = ${pass}`;
    // One state per session: first event's day, visitor and attributes, last event, counts. The views of
    // `sessions` fill `session_state` and the session sums of day_totals and dim_totals.
    await ctx.data(
      `INSERT INTO ${t('sessions')} (${state}, sign)
       SELECT site_id, session_id, toUInt64(1), ${f('day')}, ${f('visitor_id')}, ${f('ts')}, ${f('seq')},
         tupleElement(l, 1), tupleElement(l, 2), tupleElement(l, 3), tupleElement(l, 4), tupleElement(l, 5), pv, ce,
         ${SESSION_ATTRIBUTE_COLUMNS.map(f).join(', ')}, toInt8(1)
       FROM (SELECT site_id, session_id, argMin((${first.join(', ')}), (ts, seq)) AS f,
           argMax((ts, seq, day, type, path), (ts, seq)) AS l, countIf(type = 'pageview') AS pv, countIf(type = 'event') AS ce
         FROM ${t('events')} WHERE ${bucket} GROUP BY site_id, session_id)`,
    );
    // Time on page: each pageview followed by another event of its session, by (ts, seq).
    await ctx.data(
      `INSERT INTO ${t('page_totals')} (site_id, day, path, pageviews, timed_views, time_on_page_ms)
       SELECT site_id, tupleElement(g, 1) AS gday, tupleElement(g, 2) AS gpath, toInt64(0), toInt64(count()), toInt64(sum(tupleElement(g, 3)))
       FROM (SELECT site_id, arrayJoin(gaps) AS g FROM (
         SELECT site_id, arrayMap(i -> (evs[i].3, evs[i].4, toInt64(evs[i + 1].1) - toInt64(evs[i].1)),
             arrayFilter(i -> evs[i].5 = 1 AND i < length(evs),
               arrayEnumerate(arraySort(e -> (e.1, e.2), groupArray((ts, seq, day, path, toUInt8(type = 'pageview')))) AS evs))) AS gaps
         FROM ${t('events')} WHERE ${bucket} GROUP BY site_id, session_id))
       GROUP BY site_id, gday, gpath`,
    );
  }
  await ctx.data(
    `INSERT INTO ${t('day_totals')} (site_id, day, slot, sessions, bounces, duration_ms, pageviews)
     SELECT site_id, day, ${SLOT_SQL('ts')} AS qslot, toInt64(0), toInt64(0), toInt64(0), toInt64(count())
     FROM ${t('events')} WHERE type = 'pageview' GROUP BY site_id, day, qslot`,
  );
  await ctx.data(
    `INSERT INTO ${t('page_totals')} (site_id, day, path, pageviews, timed_views, time_on_page_ms)
     SELECT site_id, day, path, toInt64(count()), toInt64(0), toInt64(0) FROM ${t('events')} WHERE type = 'pageview' GROUP BY site_id, day, path`,
  );
  await ctx.data(
    `INSERT INTO ${t('event_totals')} (site_id, day, name, custom_events)
     SELECT site_id, day, name, toInt64(count()) FROM ${t('events')} WHERE type = 'event' GROUP BY site_id, day, name`,
  );
  // Every day with data is unsettled until its visitor counts are built.
  await ctx.data(
    `INSERT INTO ${t('day_marks')} (site_id, day, ver, writes, builds)
     SELECT site_id, day, toUInt64(0), toUInt64(1), toUInt64(0) FROM ${t('events')} GROUP BY site_id, day`,
  );
}

export const rollupSchema: MigrationStep = {
  version: 2,
  description: 'session states, signed sessions by start day, daily rollups and visitor builds',
  async up(ctx) {
    const { target, onCluster } = ctx;
    const on = onClusterClause(target, onCluster);
    // Views first (they hold their source and target), then tables, old and new: all derived from events.
    for (const view of ['sessions_mv', ...VIEWS.map((v) => v.name)]) await ctx.ddl(`DROP TABLE IF EXISTS ${tableName(target, view)}${on}`);
    for (const name of TABLES.map((table) => table.name)) for (const sql of dropTableStatements(target, name, onCluster)) await ctx.ddl(sql);
    for (const spec of TABLES) for (const sql of createTableStatements(target, spec, onCluster)) await ctx.ddl(sql);
    for (const view of VIEWS) await ctx.ddl(createViewStatement(target, view, onCluster));
    await backfill(ctx);
  },
};
