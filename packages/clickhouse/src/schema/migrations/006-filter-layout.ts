import { createTableStatements, createViewStatement, dropTableStatements, onClusterClause, tableName, type TableSpec } from '../schema.js';
import { SESSION_ATTRIBUTE_COLUMNS, SESSION_STATE_COLUMNS, STATE, TABLES as ROLLUP_TABLES, VIEWS as ROLLUP_VIEWS } from './002-rollups.js';
import type { MigrationContext, MigrationStep } from './step.js';

/**
 * Version 6: data laid out for filters (issue 24), so that every filter is a
 * `WHERE` on stored columns of the range's rows and `/pages` under a filter
 * does not reconstruct each pageview's next event:
 *
 * - `sessions` and `session_state` get `paths` and `names`: the distinct
 *   paths of the session's pageviews and names of its custom events, whatever
 *   their day. A page, event or goal condition ("the session has such a
 *   pageview / event") is `arrayExists` on the session's own row, not a set
 *   of session ids gathered from the events of `[lo, hi]`. The writer keeps
 *   them as it keeps the rest of the state: a new state's arrays are the
 *   stored ones plus the write's, so late and out-of-order events only add.
 * - `pageview_gaps`: time on page per pageview (`timed` 1 and its gap to the
 *   next event of its session), as signed changes: a gap that a later write
 *   splits is taken back by a row of `-1` and the negated gap
 *   (`SummingMergeTree` drops the pair once merged). A view sums it into
 *   `page_totals`, which the writer no longer writes itself. Each row carries
 *   its session's attributes as they were when it was written.
 * - `stale_sessions`: the sessions whose stored events or gaps may carry
 *   attributes other than the session's (its first event's): one of its
 *   events was stamped differently, or an earlier event arrived later and
 *   changed them. Every other session's events and gaps carry exactly its
 *   attributes, so a session condition on an event or gap is a `WHERE` on the
 *   row's own columns, and only the (few) stale sessions are looked up.
 *
 * Session states and gaps derive from `events`, so the step drops and
 * rebuilds them (and only them: `day_totals`, `dim_totals` and `page_totals`
 * already hold the same sums, so their views from `sessions` and
 * `pageview_gaps` are dropped first and made again last). Run again after an
 * interruption, it starts over and ends the same.
 */

/** Columns of a session state since version 6, in order (`session_state`; `sessions` adds `sign`). */
export const SESSION_COLUMNS = [...SESSION_STATE_COLUMNS, 'paths', 'names'] as const;

/** Columns of a `pageview_gaps` row, in order: the pageview, its gap, and its session's attributes when written. */
export const GAP_COLUMNS = ['site_id', 'day', 'path', 'session_id', 'ts', 'seq', 'timed', 'gap_ms', ...SESSION_ATTRIBUTE_COLUMNS] as const;

const ATTRIBUTES = SESSION_ATTRIBUTE_COLUMNS.map((c) => `${c} String`).join(', ');

const ARRAYS = 'paths Array(String), names Array(String)';
const specOf = (name: string): TableSpec => ROLLUP_TABLES.find((t) => t.name === name)!;

const TABLES: TableSpec[] = [
  { ...specOf('session_state'), columns: `${STATE}, ${ARRAYS}` },
  { ...specOf('sessions'), columns: `${STATE}, ${ARRAYS}, sign Int8` },
  {
    name: 'pageview_gaps',
    columns: `site_id String, day Date, path String, session_id String, ts UInt64, seq UInt64, timed Int64, gap_ms Int64, ${ATTRIBUTES}`,
    engine: 'SummingMergeTree() PARTITION BY toYYYYMM(day) ORDER BY (site_id, day, session_id, ts, seq)',
    shardBy: 'sipHash64(session_id)',
  },
  {
    name: 'stale_sessions',
    columns: 'site_id String, session_id String',
    engine: 'ReplacingMergeTree() ORDER BY (site_id, session_id)',
    shardBy: 'sipHash64(session_id)',
  },
];

/** The state view with the arrays; made before the states are refilled (it fills `session_state`). */
const STATE_VIEW = {
  name: 'sessions_state_mv', from: 'sessions', into: 'session_state',
  select: (from: string) => `SELECT ${SESSION_COLUMNS.join(', ')} FROM ${from} WHERE sign = 1`,
};

/** The views made after the refill: the session sums of version 2 (unchanged) and the gaps into `page_totals`. */
const SUM_VIEWS = [
  ...ROLLUP_VIEWS.filter((v) => v.name === 'sessions_totals_mv' || v.name === 'sessions_dims_mv'),
  {
    name: 'pageview_gaps_mv', from: 'pageview_gaps', into: 'page_totals',
    select: (from: string) => `SELECT site_id, day, path, toInt64(0) AS pageviews, toInt64(sum(timed)) AS timed_views, toInt64(sum(gap_ms)) AS time_on_page_ms
      FROM ${from} GROUP BY site_id, day, path`,
  },
];

/** Events per refill pass (hash buckets of session ids), as in version 2. */
const EVENTS_PER_PASS = 10_000_000;

async function refill(ctx: MigrationContext): Promise<void> {
  const t = (name: string) => ctx.dataTable(name);
  const [count] = await ctx.query<{ n: string }>(`SELECT count() AS n FROM ${t('events')}`);
  const passes = Math.max(1, Math.ceil(Number(count?.n ?? 0) / EVENTS_PER_PASS));
  const first = ['day', 'visitor_id', 'ts', 'seq', ...SESSION_ATTRIBUTE_COLUMNS];
  const f = (column: string) => `tupleElement(f, ${first.indexOf(column) + 1})`;
  for (let pass = 0; pass < passes; pass++) {
    const bucket = `cityHash64(session_id) % ${passes} = ${pass}`;
    // One state per session (version 1), as version 2 made them, plus its distinct paths and names.
    await ctx.data(
      `INSERT INTO ${t('sessions')} (${SESSION_COLUMNS.join(', ')}, sign)
       SELECT site_id, session_id, toUInt64(1), ${f('day')}, ${f('visitor_id')}, ${f('ts')}, ${f('seq')},
         tupleElement(l, 1), tupleElement(l, 2), tupleElement(l, 3), tupleElement(l, 4), tupleElement(l, 5), pv, ce,
         ${SESSION_ATTRIBUTE_COLUMNS.map(f).join(', ')}, pths, nms, toInt8(1)
       FROM (SELECT site_id, session_id, argMin((${first.join(', ')}), (ts, seq)) AS f,
           argMax((ts, seq, day, type, path), (ts, seq)) AS l, countIf(type = 'pageview') AS pv, countIf(type = 'event') AS ce,
           arraySort(groupUniqArrayIf(path, type = 'pageview')) AS pths, arraySort(groupUniqArrayIf(name, type = 'event')) AS nms
         FROM ${t('events')} WHERE ${bucket} GROUP BY site_id, session_id)`,
    );
    // Each pageview followed by another event of its session (by ts, seq) and its gap, with the session's attributes.
    await ctx.data(
      `INSERT INTO ${t('pageview_gaps')} (${GAP_COLUMNS.join(', ')})
       SELECT site_id, tupleElement(g, 3), tupleElement(g, 4), session_id, tupleElement(g, 1), tupleElement(g, 2), toInt64(1), tupleElement(g, 5),
         ${SESSION_ATTRIBUTE_COLUMNS.map((_, i) => `tupleElement(a, ${i + 1})`).join(', ')}
       FROM (SELECT site_id, session_id, a, arrayJoin(gaps) AS g FROM (
         SELECT site_id, session_id, argMin((${SESSION_ATTRIBUTE_COLUMNS.join(', ')}), (ts, seq)) AS a,
           arrayMap(i -> (evs[i].1, evs[i].2, evs[i].3, evs[i].4, toInt64(evs[i + 1].1) - toInt64(evs[i].1)),
             arrayFilter(i -> evs[i].5 = 1 AND i < length(evs),
               arrayEnumerate(arraySort(e -> (e.1, e.2), groupArray((ts, seq, day, path, toUInt8(type = 'pageview')))) AS evs))) AS gaps
         FROM ${t('events')} WHERE ${bucket} GROUP BY site_id, session_id))`,
    );
    // Sessions whose events were stamped with more than one set of attributes.
    await ctx.data(
      `INSERT INTO ${t('stale_sessions')} (site_id, session_id)
       SELECT site_id, session_id FROM ${t('events')} WHERE ${bucket}
       GROUP BY site_id, session_id HAVING uniqExact(${SESSION_ATTRIBUTE_COLUMNS.join(', ')}) > 1`,
    );
  }
}

export const filterLayoutSchema: MigrationStep = {
  version: 6,
  description: 'filter layout: paths and names on session states, time on page per pageview (pageview_gaps), stale_sessions',
  async up(ctx) {
    const { target, onCluster } = ctx;
    const on = onClusterClause(target, onCluster);
    for (const view of [STATE_VIEW, ...SUM_VIEWS]) await ctx.ddl(`DROP TABLE IF EXISTS ${tableName(target, view.name)}${on}`);
    for (const spec of TABLES) for (const sql of dropTableStatements(target, spec.name, onCluster)) await ctx.ddl(sql);
    for (const spec of TABLES) for (const sql of createTableStatements(target, spec, onCluster)) await ctx.ddl(sql);
    await ctx.ddl(createViewStatement(target, STATE_VIEW, onCluster));
    await refill(ctx);
    for (const view of SUM_VIEWS) await ctx.ddl(createViewStatement(target, view, onCluster));
  },
};
