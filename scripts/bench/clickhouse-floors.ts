/**
 * The floor of each endpoint on ClickHouse: one plain aggregate query over
 * the same raw `events` rows, on the same engine, through the same client:
 * the endpoint's grouping with `count()` and daily distinct visitors, without
 * any session rule. An endpoint that answers in a small multiple of its floor
 * costs what a hand-written query over the range would; one far above it
 * pays for work the answer does not need.
 */
import { likePattern, sqlDate, sqlInt, sqlString } from '../../packages/clickhouse/src/connection/escape.js';
import { conditionSql, propValueSql } from '../../packages/clickhouse/src/reads/conditions.js';
import { DEMO_GOALS } from '../../packages/core/src/demo/index.js';
import { goalName } from '../../packages/core/src/goals/goal.js';
import { FILTER_ATTRIBUTES, SESSION_ATTRIBUTE_COLUMN } from '../../packages/core/src/storage/selection.js';
import type { FilterOperator } from '../../packages/core/src/types.js';
import type { EndpointName } from '../../packages/core/src/types.js';
import { shiftDay } from '../../packages/core/src/time/zone.js';
import { BENCH_FUNNEL, funnelFloorSql } from './funnels.js';

const GROUPS: Partial<Record<EndpointName, string>> = {
  stats: 'day',
  timeseries: 'day',
  pages: 'path, day',
  referrers: 'referrer_source, day',
  channels: 'channel, day',
  locations: 'country_code, day',
  devices: 'device_type, day',
  campaigns: 'utm_source, utm_medium, utm_campaign, day',
};

/** The floor query of `endpoint` over the local days `[from, to]` of a site (`/live`: its 5-minute window ending at `now`). */
export function floorSql(database: string, endpoint: EndpointName, siteId: string, from: string, to: string, now: number): string {
  const events = `${database}.events`;
  // Custom events alone: their own table (schema version 9), the cheapest rows holding them.
  const custom = `${database}.custom_events`;
  const site = `site_id = ${sqlString(siteId)}`;
  const days = `day >= ${sqlDate(from)} AND day <= ${sqlDate(to)}`;
  if (endpoint === 'live') {
    return `SELECT uniqExact(visitor_id) AS live FROM ${events} WHERE ${site} AND type = 'pageview'
      AND day >= ${sqlDate(from)} AND ts > ${sqlInt(now - 300_000)} AND ts <= ${sqlInt(now)}`;
  }
  if (endpoint === 'events') return `SELECT name, count() AS n FROM ${custom} WHERE ${site} AND ${days} GROUP BY name`;
  // /properties: the event's keys with events and daily visitors, on the rows themselves (the bench reads cta_click).
  if (endpoint === 'properties') {
    return `SELECT prop_key, count() AS n, uniqExact(day, visitor_id) AS v FROM ${custom} ARRAY JOIN prop_keys AS prop_key
      WHERE ${site} AND ${days} AND name = 'cta_click' GROUP BY prop_key`;
  }
  // /goals: one scan counting the demo goals' events and converting visitors per day, without the session rule.
  if (endpoint === 'goals') {
    return `SELECT countIf(name = 'signup') AS a, countIf(name = 'download') AS b, countIf(type = 'pageview' AND path = '/pricing') AS c,
        countIf(type = 'pageview' AND path LIKE '/docs/%') AS d, uniqExactIf((day, visitor_id), name = 'signup') AS va,
        uniqExactIf((day, visitor_id), type = 'pageview' AND path LIKE '/docs/%') AS vd
      FROM ${events} WHERE ${site} AND ${days}`;
  }
  // /funnels: the bench's funnel, unfiltered (funnels.ts).
  if (endpoint === 'funnels') return funnelFloorSql(database, siteId, from, to, { steps: JSON.stringify(BENCH_FUNNEL) });
  const group = GROUPS[endpoint];
  if (!group) throw new Error(`no floor for ${endpoint}`);
  return `SELECT ${group}, count() AS n, uniqExact(visitor_id) AS v FROM ${events}
    WHERE ${site} AND ${days} AND type = 'pageview' GROUP BY ${group}`;
}

/**
 * The floor of a query-extension case (extensions.ts) on `endpoint`: the
 * endpoint's floor query over the events of the days the case reads, with
 * each filter condition a `WHERE` on the column the events row itself
 * carries (the attributes stamped on it, its path), no session rule; `compare`
 * reads both ranges in the one query; `interval=hour` groups by hour. A page
 * condition on custom events (`/events`) is the one a row cannot carry (a
 * custom event's own path is not the session's pageviews): the custom events
 * of the sessions with such a pageview among the same days' `events`, one `IN`.
 */
export function extensionFloorSql(database: string, endpoint: EndpointName, siteId: string, from: string, to: string, params: Record<string, string>): string {
  const start = params.compare === 'previous_period' ? shiftDay(from, -(1 + dayCount(from, to))) : from;
  let sql = floorSql(database, endpoint, siteId, start, to, 0);
  const conditions = JSON.parse(params.filters ?? '[]') as [FilterOperator, string, string[]][];
  const terms = conditions.map(([operator, dimension, values]) => {
    if (dimension === 'page' && endpoint === 'events') {
      return `session_id IN (SELECT session_id FROM ${database}.events WHERE site_id = ${sqlString(siteId)} AND day >= ${sqlDate(start)} AND day <= ${sqlDate(to)}
        AND type = 'pageview' AND ${conditionSql('path', { operator, values })})`;
    }
    const column = dimension === 'page' ? 'path' : dimension === 'event' ? 'name' : SESSION_ATTRIBUTE_COLUMN[FILTER_ATTRIBUTES[dimension as keyof typeof FILTER_ATTRIBUTES]];
    return conditionSql(column, { operator, values });
  });
  if (terms.length > 0) sql = sql.replace(/WHERE /, `WHERE ${terms.join(' AND ')} AND `);
  if (params.interval === 'hour' && endpoint === 'timeseries') {
    sql = sql.replace(/^SELECT day,/, 'SELECT intDiv(ts, 3600000) AS hour_start,').replace(/GROUP BY day$/, 'GROUP BY hour_start');
  }
  return sql;
}

const dayCount = (from: string, to: string): number => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

/**
 * The floor of a property or goal case (properties.ts) on ClickHouse: the endpoint's floor
 * query over the case's days (`/properties` of one key: its values instead of the keys).
 * A `prop:` condition holds on the custom event `/properties` reads (a `WHERE` on its
 * row); elsewhere, and for a `goal` condition, a row cannot test it, so it is one `IN`
 * of the sessions with such an event among the same days' rows, no session rule: the
 * least that reads the columns the answer needs.
 */
export function propertyFloorSql(database: string, endpoint: EndpointName, siteId: string, from: string, to: string, params: Record<string, string>): string {
  const site = `site_id = ${sqlString(siteId)}`;
  const days = `day >= ${sqlDate(from)} AND day <= ${sqlDate(to)}`;
  const custom = `${database}.custom_events`;
  let sql = endpoint === 'properties' && params.property !== undefined
    ? `SELECT prop_values[indexOf(prop_keys, ${sqlString(params.property)})] AS k, count() AS n, uniqExact(day, visitor_id) AS v FROM ${custom}
        WHERE ${site} AND ${days} AND name = ${sqlString(params.name ?? '')} AND has(prop_keys, ${sqlString(params.property)}) GROUP BY k`
    : floorSql(database, endpoint, siteId, from, to, 0);
  const conditions = JSON.parse(params.filters ?? '[]') as [FilterOperator, string, string[]][];
  const terms = conditions.map(([operator, dimension, values]) => {
    if (dimension.startsWith('prop:')) {
      const holds = conditionSql(propValueSql(dimension.slice(5)), { operator, values });
      return endpoint === 'properties' ? holds : `session_id IN (SELECT session_id FROM ${custom} WHERE ${site} AND ${days} AND ${holds})`;
    }
    if (dimension === 'goal') {
      const goals = DEMO_GOALS.filter((g) => values.includes(goalName(g)));
      const meets = goals.map((g) => (g.type === 'event' ? `name = ${sqlString(g.value)}` : `type = 'pageview' AND path LIKE ${sqlString(likePattern(g.value))}`));
      const table = goals.every((g) => g.type === 'event') ? custom : `${database}.events`;
      return `session_id IN (SELECT session_id FROM ${table} WHERE ${site} AND ${days} AND (${meets.join(' OR ') || '0'}))`;
    }
    throw new Error(`no property floor for the dimension ${dimension}`);
  });
  if (terms.length > 0) sql = sql.replace(/WHERE /, `WHERE ${terms.join(' AND ')} AND `);
  return sql;
}
