/**
 * The two plans of the raw filtered reads (sqlite-selection-raw.ts): how a read's
 * matching sessions and selected events are written in SQL.
 *
 * - `definition`: the definition of `Selection` (storage/types.ts) as it reads, with the
 *   reference predicates (`allHold`, `eventPasses`, `meetsGoal`) as SQL functions, each
 *   session's events looked up by the session (a correlated subquery per session) and each
 *   event's session joined. What the differential test and the bench's naive column hold
 *   the column cache (sqlite-columns.ts) to. Slow: a lookup per row.
 * - `sets` (the store's): conditions in plain SQL where they can be (attribute and page
 *   conditions, goals; `event` and `prop:` conditions call the reference predicate), each
 *   condition on events computed once, as the set of sessions having such an event in a
 *   window that holds every event of the candidate sessions, and an event's session tested
 *   against the set of matching sessions instead of joined. The candidates of a range's
 *   events are the sessions starting from the day of `LONG_SESSION_MS` before it, and the
 *   longer ones that reach into it, found by the partial index `sessions_long`
 *   (migrations.ts). The store reads the days its column cache does not hold with it.
 *
 * Values reach SQL only as bound parameters.
 */
import type { GoalDefinition } from '../../goals/goal.js';
import { localDay } from '../../time/zone.js';
import { hasConditions, SESSION_ATTRIBUTE_COLUMN } from '../selection.js';
import type { Condition, DayRange, Selection } from '../types.js';

/**
 * Sessions at least this long are in the partial index `sessions_long`; a shorter one with
 * events in a range started at most this long before it. `LONG` repeats the index's condition
 * word for word (SQLite uses a partial index only then).
 */
export const LONG_SESSION_MS = 43_200_000;
const LONG = 's.end_ts - s.start_ts >= 43200000';

/** A SQL condition and its bound values. */
export interface Clause {
  sql: string;
  args: unknown[];
}

/** A read's rows: `${with}SELECT ... ${sql}`, bound to `args` (the WITH clause's first). */
export interface Source extends Clause {
  with: string;
}

/** Each kind of a read's rows under a plan: matching sessions starting in the range, on alias `s`; selected events in it, on alias `e`. */
export interface Bound {
  sessions: Source;
  /** "Pageview `e` is selected": its path meets the `page` conditions. */
  paths: Clause;
  /** "Event `e` meets one of `goals`". */
  meets(goals: readonly GoalDefinition[]): Clause;
  /** Events of `type` (any when undefined) in the range for which `own` holds, of matching sessions. */
  events(type: 0 | 1 | undefined, own: Clause): Source;
}

export type RawPlan = 'definition' | 'sets';

export const TRUE: Clause = { sql: '1', args: [] };
export const and = (clauses: readonly Clause[]): Clause =>
  clauses.length === 0 ? TRUE : { sql: clauses.map((c) => c.sql).join(' AND '), args: clauses.flatMap((c) => c.args) };
const typed = (alias: string, type: 0 | 1 | undefined) => (type === undefined ? '' : ` AND ${alias}.type = ${type}`);

export const holds = (column: string, conditions: readonly Condition[]): Clause =>
  conditions.length === 0 ? TRUE : { sql: `siteline_holds(${column}, ?)`, args: [JSON.stringify(conditions)] };

/** "Custom event `alias` passes the `event` and `prop:` conditions" (`eventPasses`), as SQL. */
export const passes = (alias: string, selection: Selection): Clause =>
  selection.event.length + (selection.prop?.length ?? 0) === 0
    ? TRUE
    : { sql: `siteline_passes(${alias}.name, ${alias}.props, ?)`, args: [JSON.stringify({ event: selection.event, prop: selection.prop ?? [] })] };

/** "Event `alias` meets one of `goals`" (`meetsGoal`), as SQL. */
const meets = (alias: string, goals: readonly GoalDefinition[]): Clause => ({
  sql: `siteline_meets(${alias}.type, ${alias}.name, ${alias}.path, ?)`,
  args: [JSON.stringify(goals)],
});

/**
 * `holds` in plain SQL (the sets plan): `conditionHolds` (storage/selection.ts) on a TEXT column,
 * equality as `IN` (binary collation: byte equality) and a substring as `instr` on the UTF-8 bytes,
 * which is what its comment defines them as. SQLite needs no call into JavaScript per row.
 */
function sqlHolds(column: string, conditions: readonly Condition[]): Clause {
  return and(conditions.map(({ operator, values }) => {
    const marks = values.map(() => '?').join(', ');
    const substrings = (test: string, join: string) => `(${values.map(() => `instr(CAST(${column} AS BLOB), CAST(? AS BLOB)) ${test}`).join(join)})`;
    const sql = { is: `${column} IN (${marks})`, is_not: `${column} NOT IN (${marks})`, contains: substrings('> 0', ' OR '), contains_not: substrings('= 0', ' AND ') }[operator];
    return { sql, args: [...values] };
  }));
}

/** A goal pattern as a SQLite GLOB: its `*` stays the wildcard, the GLOB's other special characters are matched literally. */
const globOf = (pattern: string): string => pattern.replace(/[[?]/g, (c) => `[${c}]`);

/** `meets` in plain SQL (the sets plan): `meetsGoal` (goals/goal.ts), a page goal's pattern as a GLOB (case-sensitive, `*` any text). */
function sqlMeets(alias: string, goals: readonly GoalDefinition[]): Clause {
  if (goals.length === 0) return { sql: '0', args: [] };
  return {
    sql: `(${goals.map((g) => (g.type === 'event' ? `(${alias}.type = 1 AND ${alias}.name = ?)` : `(${alias}.type = 0 AND ${alias}.path GLOB ?)`)).join(' OR ')})`,
    args: goals.map((g) => (g.type === 'event' ? g.value : globOf(g.value))),
  };
}

/** How a plan writes the reference predicates: as calls of the registered functions, or in plain SQL. */
interface Predicates {
  holds: (column: string, conditions: readonly Condition[]) => Clause;
  meets: (alias: string, goals: readonly GoalDefinition[]) => Clause;
}
const CALLS: Predicates = { holds, meets };
const PLAIN: Predicates = { holds: sqlHolds, meets: sqlMeets };

/** A condition on a session's events: it has (or, `not`, has no) event of `type` on alias `x` for which `test` holds. */
interface EventTest {
  type: 0 | 1 | undefined;
  test: Clause;
  not: boolean;
}

/** "Session `s` matches" (storage/types.ts `Selection`): its attribute conditions as SQL on `s`, and its conditions on events. */
function conditions(selection: Selection, p: Predicates): { attributes: Clause; events: EventTest[] } {
  const attributes = and(selection.session.map((c) => p.holds(`s.${SESSION_ATTRIBUTE_COLUMN[c.attribute]}`, [c])));
  const events: EventTest[] = [];
  if (selection.page.length > 0) events.push({ type: 0, test: p.holds('x.path', selection.page), not: false });
  if (selection.event.length + (selection.prop?.length ?? 0) > 0) events.push({ type: 1, test: passes('x', selection), not: false });
  for (const goal of selection.goal ?? []) events.push({ type: undefined, test: p.meets('x', goal.goals), not: !goal.converts });
  return { attributes, events };
}

/** The definition: each session's events looked up by the session, each event's session joined. */
export function definitionPlan(range: DayRange, selection: Selection): Bound {
  const { attributes, events } = conditions(selection, CALLS);
  const matching = and([
    attributes,
    ...events.map(({ type, test, not }) => ({
      // A session's events all lie within [start_ts, end_ts] of its row: the time range finds them (events are keyed by time).
      sql: `${not ? 'NOT ' : ''}EXISTS (SELECT 1 FROM events x WHERE x.site_id = s.site_id AND x.ts BETWEEN s.start_ts AND s.end_ts
              AND x.session_id = s.session_id${typed('x', type)} AND ${test.sql})`,
      args: test.args,
    })),
  ]);
  return {
    sessions: {
      with: '',
      sql: `FROM sessions s WHERE s.site_id = ? AND s.day BETWEEN ? AND ? AND ${matching.sql}`,
      args: [range.siteId, range.from, range.to, ...matching.args],
    },
    paths: holds('e.path', selection.page),
    meets: (goals) => meets('e', goals),
    events: (type, own) => ({
      with: '',
      sql: `FROM events e JOIN sessions s ON s.site_id = e.site_id AND s.session_id = e.session_id
            WHERE e.site_id = ? AND e.ts >= ? AND e.ts < ?${typed('e', type)} AND ${own.sql} AND ${matching.sql}`,
      args: [range.siteId, range.startMs, range.endMs, ...own.args, ...matching.args],
    }),
  };
}

/**
 * What the sets plan reads besides its statement: the site's time zone, whether `sessions_long` exists (not in a
 * read-only store of an older file), one row of a query, and the windows already read for this read's range
 * (several plans of one read, such as a goal's, share it).
 */
export interface SetsContext {
  timezone: string;
  longIndex: boolean;
  get: (sql: string, args: unknown[]) => { first: number | null; last: number | null };
  windows: Map<string, number[]>;
}

/** The store's plan (see the file's comment). */
export function setsPlan(range: DayRange, selection: Selection, context: SetsContext): Bound {
  const { attributes, events } = conditions(selection, PLAIN);
  // Sessions that may have events in the range: those starting from `low`, and the longer ones started before it.
  const low = localDay(range.startMs - LONG_SESSION_MS, context.timezone);
  const near: Clause = { sql: 's.site_id = ? AND s.day BETWEEN ? AND ?', args: [range.siteId, low, range.to] };
  const long: Clause = { sql: `s.site_id = ? AND ${LONG} AND s.end_ts >= ? AND s.day < ?`, args: [range.siteId, range.startMs, low] };
  const longSessions = `sessions s${context.longIndex ? ' INDEXED BY sessions_long' : ''}`;
  // Every event of those sessions lies in [first, last]: a condition on events reads that window once.
  const windowKey = `${range.siteId}\u0000${range.startMs}\u0000${range.endMs}`;
  let window = context.windows.get(windowKey) ?? [0, -1];
  if (events.length > 0 && !context.windows.has(windowKey)) {
    const { first, last } = context.get(
      `SELECT MIN(first) AS first, MAX(last) AS last FROM (SELECT MIN(s.start_ts) AS first, MAX(s.end_ts) AS last FROM sessions s WHERE ${near.sql}
         UNION ALL SELECT MIN(s.start_ts), MAX(s.end_ts) FROM ${longSessions} WHERE ${long.sql})`,
      [...near.args, ...long.args],
    );
    if (first !== null && last !== null) window = [first, last];
    context.windows.set(windowKey, window);
  }
  const sets = events.map(({ type, test }, i) => ({
    sql: `h${i} AS MATERIALIZED (SELECT x.session_id FROM events x WHERE x.site_id = ? AND x.ts BETWEEN ? AND ?${typed('x', type)} AND ${test.sql})`,
    args: [range.siteId, ...window, ...test.args],
  }));
  const prefix = { with: sets.length === 0 ? '' : `WITH ${sets.map((c) => c.sql).join(', ')} `, args: sets.flatMap((c) => c.args) };
  const matching = and([attributes, ...events.map(({ not }, i) => ({ sql: `s.session_id ${not ? 'NOT ' : ''}IN (SELECT session_id FROM h${i})`, args: [] }))]);
  return {
    sessions: {
      with: prefix.with,
      sql: `FROM sessions s WHERE s.site_id = ? AND s.day BETWEEN ? AND ? AND ${matching.sql}`,
      args: [...prefix.args, range.siteId, range.from, range.to, ...matching.args],
    },
    paths: sqlHolds('e.path', selection.page),
    meets: (goals) => sqlMeets('e', goals),
    events: (type, own) => {
      const sql = `FROM events e WHERE e.site_id = ? AND e.ts >= ? AND e.ts < ?${typed('e', type)} AND ${own.sql}`;
      const args = [range.siteId, range.startMs, range.endMs, ...own.args];
      // Every event has its session: with no condition, every one is selected.
      if (!hasConditions(selection)) return { with: '', sql, args };
      return {
        with: prefix.with,
        sql: `${sql} AND e.session_id IN (SELECT s.session_id FROM sessions s WHERE ${near.sql} AND ${matching.sql}
                UNION ALL SELECT s.session_id FROM ${longSessions} WHERE ${long.sql} AND ${matching.sql})`,
        args: [...prefix.args, ...args, ...near.args, ...matching.args, ...long.args, ...matching.args],
      };
    },
  };
}
