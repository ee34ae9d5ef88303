import { type DayRange, hasConditions, type Selection, SESSION_ATTRIBUTE_COLUMN } from '@siteline/core';
import { clampDay } from '../schema/days.js';
import { sqlDate, sqlString } from '../connection/escape.js';
import { allSql, conditionSql, NONE, passesSql, sessionMeetsSql, someElementSql } from './conditions.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';

/**
 * Which rows a selection keeps (selection.ts has the whole picture): the range's bounds,
 * the `sessions` rows of the matching sessions, sets of session ids for conditions an
 * event row cannot test itself, stale sessions, and the `WHERE` of the selected events.
 */

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
export const monotone = (selection: Selection): boolean => selection.session.length === 0 && (selection.goal ?? []).every((g) => g.converts);

/**
 * When a session matches `selection` exactly when one of its custom events
 * meets some terms (`event` and `prop:` conditions, which hold on one event;
 * or one goal condition converting on event goals alone), those terms on a
 * `custom_events` row; `undefined` otherwise (a page or session condition, or
 * conditions that several events may meet). The sessions with such an event
 * in `[lo, hi]` include every matching session an event of the range belongs
 * to, and only sessions whose events lie outside the range besides: a set of
 * a few percent of the rows that the session rows' arrays would give.
 */
function oneCustomEventTerms(selection: Selection): string[] | undefined {
  const goals = selection.goal ?? [];
  if (selection.session.length > 0 || selection.page.length > 0) return undefined;
  if (goals.length === 0) return selection.event.length + (selection.prop?.length ?? 0) > 0 ? passesSql(selection) : undefined;
  const [only] = goals;
  if (goals.length > 1 || selection.event.length > 0 || (selection.prop?.length ?? 0) > 0 || !only!.converts || only!.goals.some((g) => g.type !== 'event')) return undefined;
  return [only!.goals.length === 0 ? '0' : `name IN (${only!.goals.map((g) => sqlString(g.value)).join(', ')})`];
}

/**
 * Ids of sessions starting in `[startFrom, to]` matching `selection` in
 * their current state. For a monotone selection any kept row will do (an
 * earlier state that matched means the current one does, and the current
 * one is in the range): no grouping. `withEvents`: only sessions with custom
 * events (for a set that selects custom events; `event_count` only grows too,
 * so the current row has it; at 1M pageviews 12% of the sessions, whose
 * arrays alone are then read). For the events of the range only: a selection
 * of one custom event's terms takes its set from `custom_events`
 * (`oneCustomEventTerms`), which may hold sessions with no event in the range.
 */
export function sessionSetSql(t: SchemaTarget, r: DayRange, startFrom: string, hi: string, selection: Selection, withEvents = false): string {
  if (!monotone(selection)) return matchingSessionsSql(t, r, startFrom, hi, selection);
  const terms = oneCustomEventTerms(selection);
  if (terms) return sessionsWithSql(t, r.siteId, startFrom, hi, terms);
  return `SELECT session_id FROM ${tableName(t, 'sessions')} WHERE ${withEvents ? 'event_count > 0 AND ' : ''}${matchingRowsWhere(t, r, startFrom, hi, selection)}`;
}

/** Ids of the site's stale sessions (`stale_sessions`: their events and gaps may carry other attributes than theirs). */
const staleIdsSql = (t: SchemaTarget, siteId: string): string =>
  `SELECT session_id FROM ${tableName(t, 'stale_sessions')} WHERE site_id = ${sqlString(siteId)}`;

/** Whether the site has stale sessions. */
export const staleCountSql = (t: SchemaTarget, siteId: string): string =>
  `SELECT count() AS n FROM ${tableName(t, 'stale_sessions')} WHERE site_id = ${sqlString(siteId)}`;

/**
 * The conditions a selected event of `type` cannot test on its own row and
 * which its session's arrays answer: for a pageview the goal, `event` and
 * `prop:` conditions, for a custom event the goal and page conditions (its own
 * path, name and properties are tested on the row itself).
 */
export const sessionSetPart = (selection: Selection, type: 'pageview' | 'event'): Selection | undefined => {
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
export function selectedTerms(t: SchemaTarget, r: DayRange, b: Bounds, selection: Selection, type: 'pageview' | 'event'): string[] {
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
