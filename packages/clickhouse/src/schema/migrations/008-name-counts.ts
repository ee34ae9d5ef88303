import { createTableStatements, createViewStatement, dropTableStatements, onClusterClause, tableName, type TableSpec } from '../schema.js';
import { SESSION_ATTRIBUTE_COLUMNS, STATE, TABLES as ROLLUP_TABLES, VIEWS as ROLLUP_VIEWS } from './002-rollups.js';
import { SESSION_COLUMNS as V6_SESSION_COLUMNS } from './006-filter-layout.js';
import type { MigrationContext, MigrationStep } from './step.js';

/**
 * Version 8: a session state counts its custom events per name
 * (`name_counts`, beside `names` and in their order), so that the custom
 * events of the sessions that lie wholly inside a range are read from the
 * session rows (`/events` under a page or goal condition): no pass over the
 * `session_id` of every event row of the range to find the matching
 * sessions' events. Only sessions crossing an end of the range still read
 * their events, on the days where they cross it (selection.ts).
 *
 * Session states derive from `events`, so the step drops and rebuilds
 * `sessions` and `session_state` as version 6 does, with their views: the
 * sums that `day_totals` and `dim_totals` already hold are not added twice
 * (their views from `sessions` are dropped first and made again last).
 * `pageview_gaps` and `stale_sessions` are kept. Run again after an
 * interruption, it starts over and ends the same.
 */

/** Columns of a session state since version 8, in order (`session_state`; `sessions` adds `sign`). */
export const SESSION_COLUMNS = [...V6_SESSION_COLUMNS, 'name_counts'] as const;

const ARRAYS = 'paths Array(String), names Array(String), name_counts Array(UInt64)';
const specOf = (name: string): TableSpec => ROLLUP_TABLES.find((t) => t.name === name)!;

const TABLES: TableSpec[] = [
  { ...specOf('session_state'), columns: `${STATE}, ${ARRAYS}` },
  { ...specOf('sessions'), columns: `${STATE}, ${ARRAYS}, sign Int8` },
];

/** The state view, made before the states are refilled (it fills `session_state`). */
const STATE_VIEW = {
  name: 'sessions_state_mv', from: 'sessions', into: 'session_state',
  select: (from: string) => `SELECT ${SESSION_COLUMNS.join(', ')} FROM ${from} WHERE sign = 1`,
};

/** The session sums of version 2 (unchanged), made again after the refill. */
const SUM_VIEWS = ROLLUP_VIEWS.filter((v) => v.name === 'sessions_totals_mv' || v.name === 'sessions_dims_mv');

/** Events per refill pass (hash buckets of session ids), as in versions 2 and 6. */
const EVENTS_PER_PASS = 10_000_000;

/** One state per session (version 1) from its events, as version 6 makes them, with its custom events counted per name
 * (`sumMap` takes no string keys on 18.16, and its lambdas lose an outer column when the table read has no rows:
 * `replicate` hands them the session's names as a second array). */
async function refill(ctx: MigrationContext): Promise<void> {
  const t = (name: string) => ctx.dataTable(name);
  const [count] = await ctx.query<{ n: string }>(`SELECT count() AS n FROM ${t('events')}`);
  const passes = Math.max(1, Math.ceil(Number(count?.n ?? 0) / EVENTS_PER_PASS));
  const first = ['day', 'visitor_id', 'ts', 'seq', ...SESSION_ATTRIBUTE_COLUMNS];
  const f = (column: string) => `tupleElement(f, ${first.indexOf(column) + 1})`;
  for (let pass = 0; pass < passes; pass++) {
    await ctx.data(
      `INSERT INTO ${t('sessions')} (${SESSION_COLUMNS.join(', ')}, sign)
       SELECT site_id, session_id, toUInt64(1), ${f('day')}, ${f('visitor_id')}, ${f('ts')}, ${f('seq')},
         tupleElement(l, 1), tupleElement(l, 2), tupleElement(l, 3), tupleElement(l, 4), tupleElement(l, 5), pv, ce,
         ${SESSION_ATTRIBUTE_COLUMNS.map(f).join(', ')}, pths, nms, arrayMap((n, all) -> toUInt64(countEqual(all, n)), nms, replicate(all_names, nms)), toInt8(1)
       FROM (SELECT site_id, session_id, argMin((${first.join(', ')}), (ts, seq)) AS f,
           argMax((ts, seq, day, type, path), (ts, seq)) AS l, countIf(type = 'pageview') AS pv, countIf(type = 'event') AS ce,
           arraySort(groupUniqArrayIf(path, type = 'pageview')) AS pths,
           groupArrayIf(name, type = 'event') AS all_names, arraySort(arrayDistinct(all_names)) AS nms
         FROM ${t('events')} WHERE cityHash64(session_id) % ${passes} = ${pass} GROUP BY site_id, session_id)`,
    );
  }
}

export const nameCountsSchema: MigrationStep = {
  version: 8,
  description: 'custom events per name on session states (name_counts)',
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
