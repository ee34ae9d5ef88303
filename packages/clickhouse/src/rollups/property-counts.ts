/**
 * Property counts of settled days, counted once (properties-goals.md section 2: a key's or
 * a value's custom events, and its visitors as the sum over days of the distinct visitors
 * of that day's events): rows of `property_counts` (migration 14) under each day's build id
 * (`ver`, rollups.ts), one per day and key of an event name (`level` 0) or per day and value
 * of one key (`level` 1), beside a marker row per day saying the day was counted for that
 * name (and key).
 *
 * An unfiltered `/properties` read takes the settled days counted for its name (and key)
 * from those rows, and reads the others raw; the settled ones among them are then counted in
 * the background, `DAYS_PER_QUERY` days a statement (day-counts.ts `createBackgroundCounts`).
 * A property's counts change only with its day's events, and every write marks its events'
 * days, so a write makes the day's counts stale with its build, as for every count of a build.
 * Reads take the largest row of a day and key or value: two processes counting the same day
 * count the same. Only a name (and key) with events in the range read is counted: a name (or
 * key) nobody sends is read raw each time (one index range per day of `custom_events`) and
 * never makes the store keep rows. Under a filter, properties are read from the matching
 * events (properties.ts).
 */
import type { DayRange, PropertyTotals } from '@siteline/core';
import { sqlDate, sqlString } from '../connection/escape.js';
import { DAYS_PER_QUERY, readDay } from '../schema/days.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';
import { propertiesOfDaysSql } from '../reads/properties.js';
import type { VisitorSources } from '../reads/queries.js';
import { chunks } from '../connection/parts.js';
import type { WriterIO } from '../write/writer.js';
import { type BuiltDay, builtDaysSql, createBackgroundCounts, markerRowsSql, verSql } from './day-counts.js';

/**
 * The rows of a name (level 0: its keys, in `key`) or of a name and key (level 1: the key's
 * values, in `value`) on the settled days `built`, markers and counts.
 */
function countsWhere(siteId: string, built: readonly BuiltDay[], name: string, property: string | undefined): string {
  return `site_id = ${sqlString(siteId)} AND name = ${sqlString(name)} AND level = ${property === undefined ? 0 : `1 AND key = ${sqlString(property)}`}
    AND ${builtDaysSql(built)}`;
}

/** The days among `built` counted for the name (and key): one row (`d`) per day with a marker. */
export function countedDaysSql(t: SchemaTarget, siteId: string, built: readonly BuiltDay[], name: string, property: string | undefined): string {
  return `SELECT toString(day) AS d FROM ${tableName(t, 'property_counts')} WHERE ${countsWhere(siteId, built, name, property)} AND marker = 1 GROUP BY day`;
}

/** Per key (or value of `property`) `k`, summed over the counted days `counted`: events (`n`) and visitors (`v`). */
export function countedSumsSql(t: SchemaTarget, siteId: string, counted: readonly BuiltDay[], name: string, property: string | undefined): string {
  return `SELECT pk AS k, sum(pn) AS n, sum(pvis) AS v FROM (
      SELECT day, ${property === undefined ? 'key' : 'value'} AS pk, max(events) AS pn, max(visitors) AS pvis FROM ${tableName(t, 'property_counts')}
      WHERE ${countsWhere(siteId, counted, name, property)} AND marker = 0 GROUP BY day, pk
    ) GROUP BY pk`;
}

/**
 * Counts the name's events (and `property`'s values) on the settled days `built` into
 * `property_counts` under each day's build id: a row per day and key (or value), then (a second
 * statement) a marker per day.
 */
export function propertyCountSql(t: SchemaTarget, siteId: string, built: readonly BuiltDay[], name: string, property: string | undefined): [string, string] {
  const s = sqlString(siteId);
  const n = sqlString(name);
  const where = `site_id = ${s} AND day IN (${built.map((b) => sqlDate(b.day)).join(', ')}) AND type = 'event' AND name = ${n}`;
  const ver = verSql(built, 'day');
  const rows = property === undefined
    ? `SELECT ${s}, day, ${ver}, ${n}, toUInt8(0), prop_key, toUInt8(0), '', count(), uniqExact(visitor_id)
       FROM ${tableName(t, 'custom_events')} ARRAY JOIN prop_keys AS prop_key WHERE ${where} GROUP BY day, prop_key`
    : `SELECT ${s}, day, ${ver}, ${n}, toUInt8(1), ${sqlString(property)}, toUInt8(0), prop_value, count(), uniqExact(visitor_id)
       FROM (SELECT day, visitor_id, prop_values[indexOf(prop_keys, ${sqlString(property)})] AS prop_value FROM ${tableName(t, 'custom_events')}
         WHERE ${where} AND has(prop_keys, ${sqlString(property)}))
       GROUP BY day, prop_value`;
  const level = `toUInt8(${property === undefined ? 0 : 1})`;
  const into = `INSERT INTO ${tableName(t, 'property_counts')} (site_id, day, ver, name, level, key, marker, value, events, visitors)`;
  return [
    `${into} ${rows}`,
    `${into} ${markerRowsSql(built, [''], (day, ver, value) => `${s}, ${day}, ${ver}, ${n}, ${level}, ${sqlString(property ?? '')}, toUInt8(1), ${value}, toUInt64(0), toUInt64(0)`)}`,
  ];
}

export interface PropertyCountOptions {
  /** Where each day's visitor counts come from (rollups.ts `sources`). */
  sources: (range: DayRange) => Promise<VisitorSources>;
  /** Runs an `INSERT ... SELECT` (with the insert settings). */
  command: (query: string) => Promise<void>;
}

/** The unfiltered properties of an event name (or the values of one key): counted days from their counts, the rest raw. */
export function createPropertyCounts(io: Pick<WriterIO, 'rows'>, target: SchemaTarget, options: PropertyCountOptions) {
  const counts = createBackgroundCounts(options.command);

  /** One part after the other: parts side by side would hold their rows at once. */
  const raw = async (siteId: string, days: readonly string[], name: string, property: string | undefined) => {
    const found: { k: string; n: string; v: string }[] = [];
    for (const part of chunks(days, DAYS_PER_QUERY)) found.push(...(await io.rows<{ k: string; n: string; v: string }>(propertiesOfDaysSql(target, siteId, part, name, property))));
    return found;
  };

  return {
    async properties(r: DayRange, name: string, property: string | undefined): Promise<PropertyTotals[]> {
      const { built, raw: rawDays } = await options.sources(r);
      const marked = built.length === 0 ? [] : await io.rows<{ d: string }>(countedDaysSql(target, r.siteId, built, name, property));
      const countedDays = new Set(marked.map((m) => readDay(m.d)));
      const counted = built.filter((b) => countedDays.has(b.day));
      const uncounted = built.filter((b) => !countedDays.has(b.day));
      const [sums, rawRows] = await Promise.all([
        counted.length === 0 ? [] : io.rows<{ k: string; n: string; v: string }>(countedSumsSql(target, r.siteId, counted, name, property)),
        raw(r.siteId, [...rawDays, ...uncounted.map((u) => u.day)].sort(), name, property),
      ]);
      const totals = new Map<string, PropertyTotals>();
      for (const row of [...sums, ...rawRows]) {
        const known = totals.get(row.k) ?? { key: row.k, count: 0, visitors: 0 };
        totals.set(row.k, { key: row.k, count: known.count + Number(row.n), visitors: known.visitors + Number(row.v) });
      }
      // Only a name (and key) the range has: no request for a name nobody sends makes the store keep rows.
      if (uncounted.length > 0 && totals.size > 0) {
        counts.later(`${r.siteId}\u0000${name}\u0000${property ?? ''}\u0000${property === undefined ? 0 : 1}`, uncounted,
          (fresh) => chunks(fresh, DAYS_PER_QUERY), (part) => propertyCountSql(target, r.siteId, part, name, property));
      }
      return [...totals.values()];
    },

    /** Resolves when the counts started in the background so far are done. */
    idle: counts.idle,

    /** Starts no more counts (the store is closing). */
    stop: counts.stop,
  };
}
