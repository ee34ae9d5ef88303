import type { DayRange, Selection, SessionDimension } from '@siteline/core';
import { clampDay } from '../schema/days.js';
import { sqlDate, sqlInt, sqlString } from '../connection/escape.js';
import { allSql, NONE, passesSql } from './conditions.js';
import { type Bounds, eventTable, matchingRowsWhere, monotone, selectedEventsWhere, selectedTerms, sessionSetPart } from './matching.js';
import { DIMENSION_VALUE_SQL } from '../schema/migrations/002-rollups.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';

/**
 * The SQL of each filtered read and hour bucket read (createSelectionReads in
 * selection.ts runs them): session sums by day, value, entry page or bucket from the
 * matching `sessions` rows, and the selected pageviews, time on page and custom events.
 */

/** Signed sums of a `sessions` row: session, bounce, duration. */
export const LIVE = 'toInt64(sign)';
export const BOUNCE = `${LIVE} * (pageview_count = 1 AND event_count = 0)`;
export const DURATION = `${LIVE} * toInt64(end_ts - start_ts)`;

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
