import type { ClickHouseSettings } from '@clickhouse/client';
import {
  type BreakdownTotals, type BucketTotals, type Condition, type DayRange, type DayTotals, type EventTotals, type GoalDefinition, type PageTotals,
  hasConditions, type Selection, SESSION_ATTRIBUTE_COLUMN, type SessionDimension, type SummaryTotals,
} from '@siteline/core';
import { clampDay, outsideDateType, readDay } from './days.js';
import { likePattern, sqlDate, sqlInt, sqlString } from './escape.js';
import { DIMENSION_VALUE_SQL } from './migrations/002-rollups.js';
import { tableName, type SchemaTarget } from './schema.js';
import type { WriterIO } from './writer.js';

/**
 * Filtered reads (`Selection`, storage/types.ts in the core) and hour buckets,
 * from the raw rows of the range laid out for filters (schema version 6,
 * README "The filter layout"). The rollups hold sums per day and value, which
 * no filter on another attribute or on a page can split, so a filtered read
 * is a scan of a few columns of the range: every condition a `WHERE` on
 * stored columns. SQL only: no CTEs, window functions or query parameters
 * (18.16), values through escape.ts, aliases never a column name.
 *
 * A session's rows are its signed states by start day (`sessions`), each with
 * its attributes and every path and event name it has (`paths`, `names`);
 * its current state is the `(session_id, version)` whose signs sum above
 * zero. Its events lie between its start day and its `end_day`. Session
 * reads (visitors, sessions, bounces, entries) select those rows by `WHERE`.
 *
 * Event reads (pageviews, custom events, time on page) select the range's
 * `events` and `pageview_gaps` rows. Each carries its session's attributes,
 * exactly, unless the session is in `stale_sessions` (an event stamped
 * otherwise, or attributes changed by a late first event): a session
 * condition is a `WHERE` on the row's own columns, and when the site has
 * stale sessions, theirs are matched on their session rows instead. A page,
 * event or goal condition the row cannot test itself is a set of session ids
 * from the sessions' arrays; the **bounds** of the range (one read of two
 * date columns) limit it: the earliest start day `lo` of a session that
 * reaches into the range and the latest `end_day` `hi` of one that touches
 * it. Sessions starting in `[lo, to]` are every session an event of the
 * range can belong to; `[lo, hi]` holds every event of those sessions (only
 * `prop:` conditions still look at events for a session's match).
 *
 * On a cluster every `IN (subquery)` runs shard-locally
 * (`distributed_product_mode = 'local'`): a session's events, states and gaps
 * live on one shard (all sharded by `session_id`).
 */

/**
 * A condition on a string column as ClickHouse SQL, exactly `conditionHolds`
 * of the core: `IN` / `NOT IN` compare bytes, `position(...) > 0` is a byte
 * substring (`''` is in every string, as in JavaScript).
 *
 * @example
 * conditionSql('path', { operator: 'contains', values: ['/blog/'] }) // "(position(path, '/blog/') > 0)"
 */
export function conditionSql(column: string, condition: Condition): string {
  const list = condition.values.map(sqlString).join(', ');
  const found = () => `(${condition.values.map((v) => (v === '' ? '1' : `position(${column}, ${sqlString(v)}) > 0`)).join(' OR ')})`;
  switch (condition.operator) {
    case 'is':
      return `${column} IN (${list})`;
    case 'is_not':
      return `${column} NOT IN (${list})`;
    case 'contains':
      return found();
    case 'contains_not':
      return `NOT ${found()}`;
  }
}

const allSql = (column: string, conditions: readonly Condition[]): string[] => conditions.map((c) => conditionSql(column, c));

/**
 * "One element `x` of the array column `array` passes every condition", as
 * `arrayExists`: a page or event condition on a session's own `paths` or
 * `names` (schema version 6). List membership is `has([...], x)` here: the
 * lambda reads nothing but its element and constants.
 */
function someElementSql(array: 'paths' | 'names', conditions: readonly Condition[]): string {
  const [only] = conditions;
  // One `is` condition: `hasAny`, a look-up without a lambda over every element.
  if (conditions.length === 1 && only!.operator === 'is') return `hasAny(${array}, [${only!.values.map(sqlString).join(', ')}])`;
  const holds = conditions.map((c) => {
    const list = `[${c.values.map(sqlString).join(', ')}]`;
    if (c.operator === 'is') return `has(${list}, x)`;
    if (c.operator === 'is_not') return `NOT has(${list}, x)`;
    return conditionSql('x', c);
  });
  return `arrayExists(x -> ${holds.join(' AND ')}, ${array})`;
}

/** The value of property `key` on an `events` row, `''` when the row lacks the key (`propValue` of the core). */
export const propValueSql = (key: string): string => `if(has(prop_keys, ${sqlString(key)}), prop_values[indexOf(prop_keys, ${sqlString(key)})], '')`;

/** "A custom event row passes the `event` and `prop:` conditions" (`eventPasses` of the core), as `WHERE` terms. */
export const passesSql = (selection: Selection): string[] => [
  ...allSql('name', selection.event),
  ...(selection.prop ?? []).map((c) => conditionSql(propValueSql(c.key), c)),
];

/** A page goal's pattern without `*` names one path: equality, the same as `LIKE` of the escaped pattern. */
const exactPath = (goal: GoalDefinition): boolean => goal.type === 'page' && !goal.value.includes('*');

/** "A path matches the page goal's pattern": `LIKE` it, or equality when it has no `*`. */
export const pathMatchesSql = (goal: GoalDefinition): string =>
  (exactPath(goal) ? `path = ${sqlString(goal.value)}` : `path LIKE ${sqlString(likePattern(goal.value))}`);

/** "An `events` row meets the goal" (`meetsGoal` of the core): a custom event of its name, or a pageview whose path is `LIKE` its pattern. */
export const meetsSql = (goal: GoalDefinition): string => {
  if (goal.type === 'event') return `(type = 'event' AND name = ${sqlString(goal.value)})`;
  return `(type = 'pageview' AND ${pathMatchesSql(goal)})`;
};

/** "A session has an event meeting the goal", on its `sessions` row: one of its `names`, or one of its `paths` `LIKE` the pattern. */
export const sessionMeetsSql = (goal: GoalDefinition): string => {
  if (goal.type === 'event' || exactPath(goal)) return `has(${goal.type === 'event' ? 'names' : 'paths'}, ${sqlString(goal.value)})`;
  return `arrayExists(x -> x LIKE ${sqlString(likePattern(goal.value))}, paths)`;
};

/** "An `events` row meets one of the goals" (`0` for none). */
export const meetsAnySql = (goals: readonly GoalDefinition[]): string => (goals.length === 0 ? '0' : `(${goals.map(meetsSql).join(' OR ')})`);

export const NONE: Selection = { session: [], page: [], event: [], prop: [], goal: [] };

/** What a filtered read looks at beyond its own rows (see the module comment). */
export interface Bounds {
  /** Earliest start day of a session with events in the range (`from` when none started earlier). */
  lo: string;
  /** Latest last-event day of a session touching the range (at least `to`). */
  hi: string;
  /** The site has stale sessions (`stale_sessions`) and the selection has session conditions: those sessions are looked up. */
  stale: boolean;
  /**
   * Where sessions cross an end of the range (read with `lo` and `hi`): the
   * latest `end_day` of one starting before `from` (`early`) and the earliest
   * start day of one ending after `to` (`late`), each absent when there is
   * none. A crossing session's events in the range lie in `[from, early]` or
   * `[late, to]`.
   */
  crossing?: { early?: string; late?: string };
}

/** `lo` and `hi` of the range: sessions starting by `to` and ending on or after `from` (superseded states only widen them). */
export function boundsSql(t: SchemaTarget, r: DayRange): string {
  const from = sqlDate(clampDay(r.from));
  const to = sqlDate(clampDay(r.to));
  return `SELECT countIf(day < ${from}) AS early, toString(minIf(day, day < ${from})) AS lo_day, toString(max(end_day)) AS hi_day,
      toString(maxIf(end_day, day < ${from})) AS early_end, countIf(end_day > ${to}) AS late, toString(minIf(day, end_day > ${to})) AS late_start
    FROM ${tableName(t, 'sessions')}
    WHERE site_id = ${sqlString(r.siteId)} AND day <= ${to} AND end_day >= ${from}`;
}

/**
 * The table of the rows of `type`: custom events have one of their own (`custom_events`,
 * schema version 9, the same columns), a few percent of `events`, which holds both.
 */
export const eventTable = (t: SchemaTarget, type: 'pageview' | 'event'): string => tableName(t, type === 'event' ? 'custom_events' : 'events');

/** Session ids with a custom event in `[from, to]` for which every term holds. */
function sessionsWithSql(t: SchemaTarget, siteId: string, from: string, to: string, terms: readonly string[]): string {
  return `SELECT session_id FROM ${eventTable(t, 'event')}
    WHERE site_id = ${sqlString(siteId)} AND day >= ${sqlDate(clampDay(from))} AND day <= ${sqlDate(clampDay(to))} AND ${[...terms, '1'].join(' AND ')}`;
}

/**
 * `WHERE` of the `sessions` rows of the matching sessions starting in
 * `[startFrom, to]`: their attributes hold, and page, event and goal
 * conditions hold on their `paths` and `names` (every pageview path and event
 * name of the session, whatever the day). Only `prop:` conditions, which
 * must hold on the same custom event as the `event` ones, look at `events`:
 * the session has such an event in `[startFrom, hi]`. Every row of a state
 * (its `+1` and, once superseded, its `-1`) carries the same session,
 * attributes and arrays, so the rows kept are whole states: signed sums over
 * them are the sums over the current states of the matching sessions.
 */
export function matchingRowsWhere(t: SchemaTarget, r: DayRange, startFrom: string, hi: string, selection: Selection): string {
  const where = [
    `site_id = ${sqlString(r.siteId)}`,
    `day >= ${sqlDate(clampDay(startFrom))}`,
    `day <= ${sqlDate(clampDay(r.to))}`,
    ...selection.session.map((c) => conditionSql(SESSION_ATTRIBUTE_COLUMN[c.attribute], c)),
  ];
  if (selection.page.length > 0) where.push(someElementSql('paths', selection.page));
  if ((selection.prop?.length ?? 0) > 0) where.push(`session_id IN (${sessionsWithSql(t, r.siteId, startFrom, hi, passesSql(selection))})`);
  else if (selection.event.length > 0) where.push(someElementSql('names', selection.event));
  // A goal condition: converts on one of its goals (or on none), judged on all of the session's events.
  for (const { converts, goals } of selection.goal ?? []) {
    const any = goals.length === 0 ? '0' : `(${goals.map(sessionMeetsSql).join(' OR ')})`;
    where.push(converts ? any : `NOT ${any}`);
  }
  return where.join(' AND ');
}

/**
 * Ids of the matching sessions starting in `[startFrom, to]`: those whose
 * kept rows' signs sum above zero (a current state matched). `among`: only
 * the sessions of this id subquery.
 */
export function matchingSessionsSql(t: SchemaTarget, r: DayRange, startFrom: string, hi: string, selection: Selection, among?: string): string {
  const only = among === undefined ? '' : ` AND session_id IN (${among})`;
  return `SELECT session_id FROM ${tableName(t, 'sessions')} WHERE ${matchingRowsWhere(t, r, startFrom, hi, selection)}${only}
    GROUP BY session_id HAVING sum(sign) > 0`;
}

/**
 * Whether a session matching `selection` in one state matches in every later
 * one: its paths and names only grow, so "has such a pageview / event" stays
 * true once true. Attributes (a late first event changes them) and "converts
 * on none" are not.
 */
const monotone = (selection: Selection): boolean => selection.session.length === 0 && (selection.goal ?? []).every((g) => g.converts);

/**
 * Ids of sessions starting in `[startFrom, to]` matching `selection` in
 * their current state. For a monotone selection any kept row will do (an
 * earlier state that matched means the current one does, and the current
 * one is in the range): no grouping. `withEvents`: only sessions with custom
 * events (for a set that selects custom events; `event_count` only grows too,
 * so the current row has it; at 1M pageviews 12% of the sessions, whose
 * arrays alone are then read).
 */
export function sessionSetSql(t: SchemaTarget, r: DayRange, startFrom: string, hi: string, selection: Selection, withEvents = false): string {
  if (!monotone(selection)) return matchingSessionsSql(t, r, startFrom, hi, selection);
  return `SELECT session_id FROM ${tableName(t, 'sessions')} WHERE ${withEvents ? 'event_count > 0 AND ' : ''}${matchingRowsWhere(t, r, startFrom, hi, selection)}`;
}

/** Ids of the site's stale sessions (`stale_sessions`: their events and gaps may carry other attributes than theirs). */
const staleIdsSql = (t: SchemaTarget, siteId: string): string =>
  `SELECT session_id FROM ${tableName(t, 'stale_sessions')} WHERE site_id = ${sqlString(siteId)}`;

/** Whether the site has stale sessions. */
export const staleCountSql = (t: SchemaTarget, siteId: string): string =>
  `SELECT count() AS n FROM ${tableName(t, 'stale_sessions')} WHERE site_id = ${sqlString(siteId)}`;

/** Signed sums of a `sessions` row: session, bounce, duration. */
const LIVE = 'toInt64(sign)';
const BOUNCE = `${LIVE} * (pageview_count = 1 AND event_count = 0)`;
const DURATION = `${LIVE} * toInt64(end_ts - start_ts)`;

/**
 * Per `key` (SQL over a `sessions` row, output as `k`): the matching
 * sessions starting in the range (`n`) and the visitors (`v`) counted per `k`
 * (and `perDay`: per day of it; a visitor counts in a group when the signs of
 * their kept rows there sum above zero, i.e. one of their sessions there is
 * current); with `shape`, bounces (`b`) and summed duration (`dur`) too, which
 * only the summary needs (two and three more columns read).
 */
function sessionSumsSql(t: SchemaTarget, r: DayRange, b: Bounds, selection: Selection, key: string, { perDay = false, shape = false } = {}): string {
  return `SELECT k, sum(live) AS n${shape ? ', sum(bounced) AS b, sum(dur) AS dur' : ''}, countIf(live > 0) AS v FROM (
      SELECT ${key} AS k, sum(${LIVE}) AS live${shape ? `, sum(${BOUNCE}) AS bounced, sum(${DURATION}) AS dur` : ''}
      FROM ${tableName(t, 'sessions')} WHERE ${matchingRowsWhere(t, r, r.from, b.hi, selection)}
      GROUP BY k, ${perDay ? 'day, ' : ''}visitor_id
    ) GROUP BY k HAVING n > 0`;
}

/**
 * The conditions a selected event of `type` cannot test on its own row and
 * which its session's arrays answer: for a pageview the goal, `event` and
 * `prop:` conditions, for a custom event the goal and page conditions (its own
 * path, name and properties are tested on the row itself).
 */
const sessionSetPart = (selection: Selection, type: 'pageview' | 'event'): Selection | undefined => {
  const part: Selection = type === 'pageview'
    ? { ...NONE, event: selection.event, prop: selection.prop ?? [], goal: selection.goal ?? [] }
    : { ...NONE, page: selection.page, goal: selection.goal ?? [] };
  return hasConditions(part) ? part : undefined;
};

/**
 * `WHERE` of the selected events of `type` whose own day is in the range,
 * without the type itself; `pageview_gaps` rows are pageviews and carry the
 * same columns. A session condition is a `WHERE` on the attributes the row
 * carries, which are its session's unless the session is stale; when the
 * site has stale sessions, theirs are matched on their session rows instead.
 * Page, event and goal conditions the row cannot test itself are a set of
 * session ids from the sessions' arrays.
 */
function selectedTerms(t: SchemaTarget, r: DayRange, b: Bounds, selection: Selection, type: 'pageview' | 'event'): string[] {
  const own = type === 'pageview' ? allSql('path', selection.page) : passesSql(selection);
  const where = [`site_id = ${sqlString(r.siteId)}`, `day >= ${sqlDate(clampDay(r.from))}`, `day <= ${sqlDate(clampDay(r.to))}`, ...own];
  const part = sessionSetPart(selection, type);
  const viaSession = [
    ...selection.session.map((c) => conditionSql(SESSION_ATTRIBUTE_COLUMN[c.attribute], c)),
    ...(part ? [`session_id IN (${sessionSetSql(t, r, b.lo, b.hi, part, type === 'event')})`] : []),
  ];
  if (selection.session.length === 0 || !b.stale) return [...where, ...viaSession];
  const stale = staleIdsSql(t, r.siteId);
  const staleMatching = matchingSessionsSql(t, r, b.lo, b.hi, selection, stale);
  return [...where, `((session_id NOT IN (${stale}) AND ${viaSession.join(' AND ')}) OR session_id IN (${staleMatching}))`];
}

/** `WHERE` of the selected `events` rows of `type` whose own day is in the range. */
export function selectedEventsWhere(t: SchemaTarget, r: DayRange, b: Bounds, selection: Selection, type: 'pageview' | 'event'): string {
  return [`type = '${type}'`, ...selectedTerms(t, r, b, selection, type)].join(' AND ');
}

/** Sessions and daily visitors of the matching sessions starting in the range, per day (`k`); with `shape`, bounces and duration too. */
export function sessionDaysSql(t: SchemaTarget, r: DayRange, b: Bounds, selection: Selection, shape = false): string {
  return sessionSumsSql(t, r, b, selection, 'toString(day)', { shape });
}

/** Selected pageviews per own day (`d`). */
export function pageviewDaysSql(t: SchemaTarget, r: DayRange, b: Bounds, selection: Selection): string {
  return `SELECT toString(day) AS d, count() AS pv FROM ${tableName(t, 'events')} WHERE ${selectedEventsWhere(t, r, b, selection, 'pageview')} GROUP BY day`;
}

/** Matching sessions starting in the range by the dimension's value (`k`): sessions and daily visitors. */
export function breakdownSql(t: SchemaTarget, r: DayRange, b: Bounds, dimension: SessionDimension, selection: Selection): string {
  return sessionSumsSql(t, r, b, selection, DIMENSION_VALUE_SQL[dimension], { perDay: true });
}

/** Matching sessions starting in the range by entry page (`k`): sessions and bounces. */
export function entriesSql(t: SchemaTarget, r: DayRange, b: Bounds, selection: Selection): string {
  return `SELECT entry_path AS k, sum(${LIVE}) AS n, sum(${BOUNCE}) AS b FROM ${tableName(t, 'sessions')}
    WHERE ${matchingRowsWhere(t, r, r.from, b.hi, selection)} GROUP BY entry_path HAVING n > 0`;
}

/** Selected pageviews by path (`p`): pageviews and daily visitors. */
export function pageRowsSql(t: SchemaTarget, r: DayRange, b: Bounds, selection: Selection): string {
  return `SELECT path AS p, count() AS pv, uniqExact(day, visitor_id) AS vis FROM ${tableName(t, 'events')}
    WHERE ${selectedEventsWhere(t, r, b, selection, 'pageview')} GROUP BY path`;
}

/**
 * Time on page of the selected pageviews by path (`p`): those followed by
 * another event of their session (`tv`) and the summed gaps (`tm`), from the
 * stored gap of each pageview (`pageview_gaps`, signed changes that sum to
 * the current gap), under the same conditions as the pageviews themselves.
 */
export function pageGapsSql(t: SchemaTarget, r: DayRange, b: Bounds, selection: Selection): string {
  return `SELECT path AS p, sum(timed) AS tv, sum(gap_ms) AS tm FROM ${tableName(t, 'pageview_gaps')}
    WHERE ${selectedTerms(t, r, b, selection, 'pageview').join(' AND ')} GROUP BY path`;
}

/** Selected custom events by name (`nm`), optionally one name. */
export function eventRowsSql(t: SchemaTarget, r: DayRange, b: Bounds, selection: Selection, name?: string): string {
  const only = name === undefined ? '' : ` AND name = ${sqlString(name)}`;
  return `SELECT name AS nm, count() AS n FROM ${eventTable(t, 'event')} WHERE ${selectedEventsWhere(t, r, b, selection, 'event')}${only} GROUP BY name`;
}

/**
 * Whether the selected custom events are read by session (`eventsBySessionSql`):
 * a page or goal condition makes them the events of a set of sessions, and no
 * `prop:` condition looks inside the events themselves.
 */
export const readsEventsBySession = (selection: Selection): boolean =>
  (selection.prop?.length ?? 0) === 0 && sessionSetPart(selection, 'event') !== undefined;

/**
 * The selected custom events by name (`nm`, `n`) under a page or goal
 * condition, in two parts whose sums add up (`readsEventsBySession`):
 *
 * - `inside`: the matching sessions lying wholly in the range (start day from
 *   `from`, `end_day` up to `to`), every custom event of which is in the
 *   range: their `names` and `name_counts` (schema version 8), summed with
 *   the sign of each row (a superseded state's rows cancel out, as in the
 *   session sums). No event row is read.
 * - `crossing`: the events of the range of the matching sessions that cross
 *   one of its ends, read only on the days where they cross it (`crossing`
 *   of the bounds); `undefined` when no session crosses.
 *
 * Session conditions are tested on the session rows, whose attributes are
 * the session's own: stale sessions need no look-up. `event` conditions hold
 * on each event's name.
 */
export function eventsBySessionSql(t: SchemaTarget, r: DayRange, b: Bounds, selection: Selection, name?: string): { inside: string; crossing?: string } {
  const sessions: Selection = { ...NONE, session: selection.session, page: selection.page, goal: selection.goal ?? [] };
  const to = sqlDate(clampDay(r.to));
  const names = [...allSql('nm', selection.event), ...(name === undefined ? [] : [`nm = ${sqlString(name)}`])];
  const inside = `SELECT nm, sum(toInt64(sign) * toInt64(c)) AS n FROM ${tableName(t, 'sessions')} ARRAY JOIN names AS nm, name_counts AS c
    WHERE event_count > 0 AND end_day <= ${to} AND ${matchingRowsWhere(t, r, r.from, b.hi, sessions)}${names.map((x) => ` AND ${x}`).join('')}
    GROUP BY nm`;
  const crossing = crossingRowsWhere(t, r, b, sessions, 'event_count > 0');
  if (crossing === undefined) return { inside };
  return {
    inside,
    crossing: `SELECT name AS nm, count() AS n FROM ${eventTable(t, 'event')}
    WHERE type = 'event' AND ${crossing}${[...passesSql(selection), ...(name === undefined ? [] : [`name = ${sqlString(name)}`])].map((x) => ` AND ${x}`).join('')}
    GROUP BY name`,
  };
}

/**
 * Whether the selected pageviews of a summary are read by session
 * (`pageviewsBySessionSql`): a condition the pageviews cannot test on their own
 * rows (an event, `prop:` or goal condition) makes them every pageview of a set
 * of sessions, and no page condition selects among those pageviews.
 */
export const readsPageviewsBySession = (selection: Selection): boolean =>
  selection.page.length === 0 && sessionSetPart(selection, 'pageview') !== undefined;

/**
 * The selected pageviews of the range (`pv`) under a selection
 * `readsPageviewsBySession` takes, in two parts whose sums add up, as
 * `eventsBySessionSql` does for custom events: the matching sessions lying
 * wholly inside the range (their `pageview_count`, summed with each row's
 * sign: a superseded state's two rows cancel), and the pageviews in the range
 * of the matching sessions that cross one of its ends, read on the days where
 * they cross it (`undefined` when none does). No set of the range's sessions
 * is looked up for every pageview row.
 */
export function pageviewsBySessionSql(t: SchemaTarget, r: DayRange, b: Bounds, selection: Selection): { inside: string; crossing?: string } {
  const inside = `SELECT sum(toInt64(sign) * toInt64(pageview_count)) AS pv FROM ${tableName(t, 'sessions')}
    WHERE end_day <= ${sqlDate(clampDay(r.to))} AND ${matchingRowsWhere(t, r, r.from, b.hi, selection)}`;
  const crossing = crossingRowsWhere(t, r, b, selection, 'pageview_count > 0');
  return crossing === undefined ? { inside } : { inside, crossing: `SELECT count() AS pv FROM ${tableName(t, 'events')} WHERE type = 'pageview' AND ${crossing}` };
}

/**
 * `WHERE` of the rows (of `events` or `custom_events`) in the range of the
 * matching sessions that cross one of its ends (a start day before `from`, or
 * an `end_day` after `to`), on the days where they cross it (`crossing` of
 * the bounds: up to the latest `end_day` of a session starting before `from`,
 * from the earliest start of one ending after `to`); `undefined` when no
 * session crosses. `having`: a condition on the session row that only grows
 * (`event_count > 0`), to keep the set small.
 */
function crossingRowsWhere(t: SchemaTarget, r: DayRange, b: Bounds, sessions: Selection, having: string): string | undefined {
  const { early, late } = b.crossing ?? {};
  if (early === undefined && late === undefined) return undefined;
  const from = sqlDate(clampDay(r.from));
  const to = sqlDate(clampDay(r.to));
  // The days of the range where crossing sessions have events, and the crossing sessions by their start day (the sort key's second column).
  const days = [...(early === undefined ? [] : [`day <= ${sqlDate(clampDay(early))}`]), ...(late === undefined ? [] : [`day >= ${sqlDate(clampDay(late))}`])];
  const starts = [...(early === undefined ? [] : [`day < ${from}`]), ...(late === undefined ? [] : [`(day >= ${sqlDate(clampDay(late))} AND end_day > ${to})`])];
  const crossingSet = `SELECT session_id FROM ${tableName(t, 'sessions')} WHERE ${having} AND (${starts.join(' OR ')}) AND ${matchingRowsWhere(t, r, b.lo, b.hi, sessions)}`;
  const set = monotone(sessions) ? crossingSet : `${crossingSet} GROUP BY session_id HAVING sum(sign) > 0`;
  return `site_id = ${sqlString(r.siteId)} AND day >= ${from} AND day <= ${to} AND (${days.join(' OR ')}) AND session_id IN (${set})`;
}

/** Quarter hour of an instant (ms): every bucket start of the core is one when the zone's offsets are whole quarter hours. */
const QUARTER_HOUR = 900_000;

/**
 * Bucket of the instant column `column` (1-based; 0 before the first start,
 * and after the last quarter hour of `endMs`): how many of the ascending
 * `starts` are at or before it. When every start is a whole quarter hour (any
 * zone in use today), a `transform` of the instant's quarter hour through the
 * range's quarter hours to their bucket: a hash look-up per row. Otherwise
 * `arrayCount` over the starts (a pass over them per row); its lambda takes the
 * instant as a second array (`replicate`): 18.16 loses a lambda's outer column
 * when the table read has no rows ("Unknown identifier").
 */
const bucketSql = (column: string, starts: readonly number[], endMs: number) => {
  if (starts.every((x) => x % QUARTER_HOUR === 0)) {
    const slots: number[] = [];
    const buckets: number[] = [];
    for (let slot = starts[0]! / QUARTER_HOUR, k = 0; slot * QUARTER_HOUR < endMs; slot++) {
      while (k < starts.length && starts[k]! <= slot * QUARTER_HOUR) k++;
      slots.push(slot);
      buckets.push(k);
    }
    return `transform(intDiv(${column}, ${QUARTER_HOUR}), [${slots.map(sqlInt).join(', ')}], [${buckets.map(sqlInt).join(', ')}], 0)`;
  }
  const list = `[${starts.map(sqlInt).join(', ')}]`;
  return `arrayCount((x, y) -> x <= y, ${list}, replicate(${column}, ${list}))`;
};

/** Matching sessions starting in the range per bucket (`k`, 1-based): sessions and distinct visitors. */
export function sessionBucketsSql(t: SchemaTarget, r: DayRange, b: Bounds, starts: readonly number[], selection: Selection): string {
  return sessionSumsSql(t, r, b, selection, bucketSql('start_ts', starts, r.endMs));
}

/** Selected pageviews per bucket (`k`, 1-based). */
export function pageviewBucketsSql(t: SchemaTarget, r: DayRange, b: Bounds, starts: readonly number[], selection: Selection): string {
  return `SELECT ${bucketSql('ts', starts, r.endMs)} AS k, count() AS pv FROM ${tableName(t, 'events')} WHERE ${selectedEventsWhere(t, r, b, selection, 'pageview')} GROUP BY k`;
}

const num = (value: unknown): number => Number(value);

/**
 * The filtered reads and `hourBuckets` of the ClickHouse store. `clustered`:
 * the tables are `Distributed` (subqueries then run shard-locally).
 */
export function createSelectionReads(io: Pick<WriterIO, 'rows'>, target: SchemaTarget, clustered: boolean) {
  const settings: ClickHouseSettings = clustered ? { distributed_product_mode: 'local' } : {};
  const rows = <T>(sql: string) => io.rows<T>(sql, settings);
  /**
   * Whether reading events of `types` under `selection` needs `lo` and `hi`: a `prop:`
   * condition (its sessions come from their events of `[lo, hi]`), or a condition those
   * events cannot test on their own rows (a set of sessions starting in `[lo, to]`). A
   * page condition alone, read on pageviews and session rows, needs neither.
   */
  const readsBeyond = (selection: Selection, types: readonly ('pageview' | 'event')[] = ['pageview', 'event']) =>
    (selection.prop?.length ?? 0) > 0 || types.some((type) => sessionSetPart(selection, type) !== undefined);
  const rangeOf = async (r: DayRange) => {
    const [row] = await rows<{ early: string; lo_day: string; hi_day: string; early_end: string; late: string; late_start: string }>(boundsSql(target, r));
    const hi = row ? readDay(row.hi_day) : r.to;
    const crossing = {
      ...(row && num(row.early) > 0 ? { early: readDay(row.early_end) } : {}),
      ...(row && num(row.late) > 0 ? { late: readDay(row.late_start) } : {}),
    };
    return { lo: row && num(row.early) > 0 ? readDay(row.lo_day) : r.from, hi: hi > r.to ? hi : r.to, crossing };
  };
  /**
   * The range's bounds and whether stale sessions are looked up, each read
   * only when needed: `lo` and `hi` for a condition that reads beyond the
   * range (`wide`, by default `readsBeyond`) or when stale sessions are
   * matched on their session rows; the stale count for session conditions.
   */
  const bounds = async (r: DayRange, selection: Selection, wide = readsBeyond(selection)): Promise<Bounds> => {
    const [range, staleRows] = await Promise.all([
      wide ? rangeOf(r) : undefined,
      selection.session.length > 0 ? rows<{ n: string }>(staleCountSql(target, r.siteId)) : undefined,
    ]);
    const stale = num(staleRows?.[0]?.n ?? 0) > 0;
    return { ...(range ?? (stale ? await rangeOf(r) : { lo: r.from, hi: r.to })), stale };
  };
  /** The bounds when a condition needs them; without conditions (compare, hour buckets) nothing reads them. */
  const boundsFor = (r: DayRange, selection: Selection, types: readonly ('pageview' | 'event')[] = []): Promise<Bounds> =>
    (hasConditions(selection) ? bounds(r, selection, readsBeyond(selection, types)) : Promise.resolve({ lo: r.from, hi: r.to, stale: false }));

  return {
    /** The range's bounds (see the module comment), for the property and goal reads (properties.ts). */
    bounds,
    /** The reads' query function (shard-local subqueries on a cluster). */
    rows,

    async summary(r: DayRange, selection: Selection): Promise<SummaryTotals> {
      const totals = { visitors: 0, sessions: 0, bounces: 0, durationMs: 0, pageviews: 0 };
      if (outsideDateType(r)) return totals;
      const b = await boundsFor(r, selection, ['pageview']);
      const bySession = readsPageviewsBySession(selection) ? pageviewsBySessionSql(target, r, b, selection) : undefined;
      const viewQueries = bySession ? [bySession.inside, ...(bySession.crossing ? [bySession.crossing] : [])] : [pageviewDaysSql(target, r, b, selection)];
      const [days, ...viewParts] = await Promise.all([
        rows<{ n: string; b: string; dur: string; v: string }>(sessionDaysSql(target, r, b, selection, true)),
        ...viewQueries.map((sql) => rows<{ pv: string }>(sql)),
      ]);
      const views = viewParts.flat();
      for (const d of days) {
        totals.sessions += num(d.n);
        totals.bounces += num(d.b);
        totals.durationMs += num(d.dur);
        totals.visitors += num(d.v);
      }
      for (const v of views) totals.pageviews += num(v.pv);
      return totals;
    },

    /** `summary(r, selection).visitors` alone: the session rows, no pageviews. */
    async visitors(r: DayRange, selection: Selection): Promise<number> {
      if (outsideDateType(r)) return 0;
      const days = await rows<{ v: string }>(sessionDaysSql(target, r, await boundsFor(r, selection), selection));
      return days.reduce((sum, d) => sum + num(d.v), 0);
    },

    async timeseries(r: DayRange, selection: Selection): Promise<DayTotals[]> {
      if (outsideDateType(r)) return [];
      const b = await boundsFor(r, selection, ['pageview']);
      const [days, views] = await Promise.all([
        rows<{ k: string; n: string; v: string }>(sessionDaysSql(target, r, b, selection)),
        rows<{ d: string; pv: string }>(pageviewDaysSql(target, r, b, selection)),
      ]);
      const out = new Map<string, DayTotals>();
      for (const d of days) out.set(readDay(d.k), { day: readDay(d.k), visitors: num(d.v), sessions: num(d.n), pageviews: 0 });
      for (const v of views) {
        const day = readDay(v.d);
        out.set(day, { day, visitors: 0, sessions: 0, ...out.get(day), pageviews: num(v.pv) });
      }
      return [...out.values()];
    },

    async sessionBreakdown(r: DayRange, dimension: SessionDimension, selection: Selection): Promise<BreakdownTotals[]> {
      if (outsideDateType(r)) return [];
      const found = await rows<{ k: string; n: string; v: string }>(breakdownSql(target, r, await boundsFor(r, selection), dimension, selection));
      return found.map((x) => ({ key: dimension === 'utm' ? x.k.split('\u0000') : [x.k], visitors: num(x.v), sessions: num(x.n) }));
    },

    async pages(r: DayRange, selection: Selection): Promise<PageTotals[]> {
      if (outsideDateType(r)) return [];
      const b = await boundsFor(r, selection, ['pageview']);
      const [views, gaps, entries] = await Promise.all([
        rows<{ p: string; pv: string; vis: string }>(pageRowsSql(target, r, b, selection)),
        rows<{ p: string; tv: string; tm: string }>(pageGapsSql(target, r, b, selection)),
        rows<{ k: string; n: string; b: string }>(entriesSql(target, r, b, selection)),
      ]);
      const pages = new Map<string, PageTotals>();
      for (const v of views) {
        pages.set(v.p, { path: v.p, pageviews: num(v.pv), visitors: num(v.vis), entrySessions: 0, entryBounces: 0, timedViews: 0, timeOnPageMs: 0 });
      }
      for (const g of gaps) {
        const page = pages.get(g.p);
        if (page) Object.assign(page, { timedViews: num(g.tv), timeOnPageMs: num(g.tm) });
      }
      for (const e of entries) {
        const entry = { entrySessions: num(e.n), entryBounces: num(e.b) };
        const page = pages.get(e.k);
        if (page) Object.assign(page, entry);
        else pages.set(e.k, { path: e.k, pageviews: 0, visitors: 0, timedViews: 0, timeOnPageMs: 0, ...entry });
      }
      return [...pages.values()];
    },

    async customEvents(r: DayRange, name: string | undefined, selection: Selection): Promise<EventTotals[]> {
      if (outsideDateType(r)) return [];
      const b = await boundsFor(r, selection, ['event']);
      if (!readsEventsBySession(selection)) {
        const found = await rows<{ nm: string; n: string }>(eventRowsSql(target, r, b, selection, name));
        return found.map((x) => ({ name: x.nm, count: num(x.n) }));
      }
      const { inside, crossing } = eventsBySessionSql(target, r, b, selection, name);
      const parts = await Promise.all([inside, ...(crossing ? [crossing] : [])].map((sql) => rows<{ nm: string; n: string }>(sql)));
      const counts = new Map<string, number>();
      for (const x of parts.flat()) counts.set(x.nm, (counts.get(x.nm) ?? 0) + num(x.n));
      return [...counts].filter(([, count]) => count > 0).map(([nm, count]) => ({ name: nm, count }));
    },

    async hourBuckets(r: DayRange, starts: readonly number[], selection: Selection = NONE): Promise<BucketTotals[]> {
      if (outsideDateType(r) || starts.length === 0) return [];
      const b = await boundsFor(r, selection, ['pageview']);
      const [sessions, views] = await Promise.all([
        rows<{ k: string; n: string; v: string }>(sessionBucketsSql(target, r, b, starts, selection)),
        rows<{ k: string; pv: string }>(pageviewBucketsSql(target, r, b, starts, selection)),
      ]);
      const out = new Map<number, BucketTotals>();
      const at = (k: string) => {
        const start = starts[num(k) - 1]!;
        let row = out.get(start);
        if (!row) out.set(start, (row = { start, visitors: 0, sessions: 0, pageviews: 0 }));
        return row;
      };
      for (const s of sessions) Object.assign(at(s.k), { sessions: num(s.n), visitors: num(s.v) });
      for (const v of views) at(v.k).pageviews = num(v.pv);
      return [...out.values()];
    },
  };
}
