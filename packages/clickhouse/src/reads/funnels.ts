/**
 * The funnel read (funnels.md section 2) of the ClickHouse store: one query per funnel, the
 * same SQL on 18.16 and 26.x. Each session's events that meet a step, in record order
 * (`arraySort` by `(ts, seq)`), each with a bit per step it meets; `stepsReached` of the core
 * is then a chain of `arrayFirst`: the first event of the next step whose place in that order
 * (its dense rank, so equal `ts` and `seq` share one) is past the one taken before. 18.16 has no
 * `arrayFold` and no `windowFunnel` that orders by two columns or lets one event meet one step
 * only, so the chain is written out, a step at a time, each `arrayFirst` reading the one before
 * as an array (`replicate`: 18.16 loses a lambda's outer column when a read finds no rows).
 *
 * The sessions counted are the matching sessions starting in the range, from their `sessions`
 * rows (selection.ts); their events lie in `[from, hi]`, `hi` the last day of a session starting
 * in the range. Both are joined by session id, which shards keep together (shard-local on a
 * cluster); under a filter the events read are those of the matching sessions' ids already
 * (an `IN` set on the step events: at 1M pageviews it brought a page filter on chdb from about
 * 3x its floor to 1.6x, and 18.16's filtered cases by 10-20%). Values only through escape.ts.
 *
 * The query holds every session of its days with its step events, so a range longer than
 * `DAYS_PER_QUERY` (days.ts) is read in parts of that many days from its first day with
 * sessions, one after the other, and the parts' counts added: each count is a sum over days
 * of visitors of sessions starting that day, and a part reads its sessions' events to their
 * last day, so the parts add up to the whole. (Twelve months of a site of 100M events a year
 * in one query asked 1.9 GB and were refused.)
 */
import { type DayRange, type GoalDefinition, hasConditions, type Selection } from '@siteline/core';
import { addDays, clampDay, DAYS_PER_QUERY, dayParts, outsideDateType, readDay } from '../schema/days.js';
import { sqlDate, sqlString } from '../connection/escape.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';
import { meetsAnySql, meetsSql, NONE } from './conditions.js';
import { matchingRowsWhere } from './matching.js';
import type { createSelectionReads } from './selection.js';
import { SESSION_KEYS } from '../rollups/value-pages.js';

/** Past every event's rank: "no event takes this step" (and so none of the later ones). */
const NONE_TAKEN = 4294967295;

/**
 * Per step k (`v<k>`): the daily distinct visitors of the matching sessions starting in the range
 * that reach it, summed over the days (per day and visitor, the signs of the rows of sessions
 * reaching k: a visitor counts when one of their current sessions does, as every visitor count
 * of selection.ts). `hi`: the bounds' last day when the selection has `prop:` conditions (they
 * look at events); otherwise the sessions' own `end_day`s are read in the query. `by`: one row
 * for the range, or a row per start day (`day`; the daily counts, rollups/funnel-visitors.ts),
 * or per start day and session key (`day`, `dv`: the (dimension, value) pairs of
 * rollups/value-pages.ts `SESSION_KEYS`, its attributes', its paths' and its event names', which
 * a session's row carries; rollups/value-goals.ts).
 */
export function funnelVisitorsSql(t: SchemaTarget, r: DayRange, steps: readonly GoalDefinition[], selection: Selection, hi?: string, by: 'range' | 'day' | 'value' = 'range'): string {
  const site = sqlString(r.siteId);
  const from = sqlDate(clampDay(r.from));
  const to = sqlDate(clampDay(r.to));
  const last = hi !== undefined
    ? sqlDate(clampDay(hi))
    : `(SELECT max(end_day) FROM ${tableName(t, 'sessions')} WHERE site_id = ${site} AND day >= ${from} AND day <= ${to})`;
  const matching = matchingRowsWhere(t, r, r.from, hi ?? r.to, selection);
  // Under a filter, only the matching sessions' step events are ordered and walked (the join keeps no
  // other); tested on the step events alone, outside their scan (18.16 would test every event of the days).
  const among = hasConditions(selection) ? ` WHERE session_id IN (SELECT session_id FROM ${tableName(t, 'sessions')} WHERE ${matching})` : '';
  const bits = steps.map((step, i) => `${2 ** i} * ${meetsSql(step)}`).join(' + ');
  const taken = steps.map((_, i) => (i === 0
    ? `arrayFirst((x, m) -> x = ${NONE_TAKEN} OR bitTest(m, 0), rk, mk) AS f1`
    : `arrayFirst((x, m, p) -> x = ${NONE_TAKEN} OR (x > p AND bitTest(m, ${i})), rk, mk, replicate(f${i}, rk)) AS f${i + 1}`));
  const reached = `SELECT session_id, lvl FROM (
      SELECT session_id, arraySort(e -> (e.1, e.2), groupArray((ts, seq, b))) AS evs,
        arrayPushBack(arrayEnumerateDense(arrayMap(e -> (e.1, e.2), evs)), toUInt32(${NONE_TAKEN})) AS rk,
        arrayPushBack(arrayMap(e -> e.3, evs), toUInt8(255)) AS mk,
        ${taken.join(',\n        ')},
        ${steps.map((_, i) => `(f${i + 1} < ${NONE_TAKEN})`).join(' + ')} AS lvl
      FROM (SELECT session_id, ts, seq, toUInt8(${bits}) AS b FROM ${tableName(t, 'events')}
        WHERE site_id = ${site} AND day >= ${from} AND day <= ${last} AND ${meetsAnySql(steps)})${among}
      GROUP BY session_id
    ) WHERE lvl > 0`;
  const per = { range: '', day: 'day, ', value: 'day, dv, ' }[by];
  const values = by === 'value' ? `, dv FROM ${tableName(t, 'sessions')} ARRAY JOIN ${SESSION_KEYS} AS dv` : ` FROM ${tableName(t, 'sessions')}`;
  return `SELECT ${per}${steps.map((_, i) => `countIf(l${i + 1} > 0) AS v${i + 1}`).join(', ')} FROM (
      SELECT ${per}${steps.map((_, i) => `sumIf(toInt64(sign), lvl >= ${i + 1}) AS l${i + 1}`).join(', ')}
      FROM (SELECT day, visitor_id, session_id, sign${values} WHERE ${matching}) AS s
      ALL INNER JOIN (${reached}) AS f USING session_id
      GROUP BY day, ${by === 'value' ? 'dv, ' : ''}visitor_id
    )${per ? ` GROUP BY ${per.slice(0, -2)}` : ''}`;
}

/** The first and last day of the site's sessions starting in the range (`n`: how many rows there are). */
export function sessionDaysSql(t: SchemaTarget, r: DayRange): string {
  return `SELECT toString(min(day)) AS lo, toString(max(day)) AS hi, count() AS n FROM ${tableName(t, 'sessions')}
    WHERE site_id = ${sqlString(r.siteId)} AND day >= ${sqlDate(clampDay(r.from))} AND day <= ${sqlDate(clampDay(r.to))}`;
}

/** The store's `funnelVisitors` over the filtered reads' bounds and query function. */
export function createFunnelReads(target: SchemaTarget, selected: Pick<ReturnType<typeof createSelectionReads>, 'bounds' | 'rows'>) {
  const { rows, bounds } = selected;
  /** The range itself when it is short; else its days with sessions in parts of `DAYS_PER_QUERY`. */
  const partsOf = async (r: DayRange): Promise<DayRange[]> => {
    if (addDays(clampDay(r.from), DAYS_PER_QUERY - 1) >= clampDay(r.to)) return [r];
    const [days] = await rows<{ lo: string; hi: string; n: string }>(sessionDaysSql(target, r));
    if (!days || Number(days.n) === 0) return [];
    return dayParts(readDay(days.lo), readDay(days.hi)).map((part) => ({ ...r, ...part }));
  };
  return {
    async funnelVisitors(r: DayRange, steps: readonly GoalDefinition[], selection?: Selection): Promise<number[]> {
      const totals = steps.map(() => 0);
      if (outsideDateType(r)) return totals;
      const s = selection && hasConditions(selection) ? selection : NONE;
      // The whole range's last day of a matching session's events: each part's sessions end by it.
      const hi = (s.prop?.length ?? 0) > 0 ? (await bounds(r, s, true)).hi : undefined;
      for (const part of await partsOf(r)) {
        const [row] = await rows<Record<string, string>>(funnelVisitorsSql(target, part, steps, s, hi));
        steps.forEach((_, i) => (totals[i]! += Number(row?.[`v${i + 1}`] ?? 0)));
      }
      return totals;
    },
  };
}
