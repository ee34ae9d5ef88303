import { randomInt } from 'node:crypto';
import { localDay, type DayRange } from '@siteline/core';
import { readDay } from './days.js';
import { sqlDate, sqlInt, sqlString } from './escape.js';
import { DIMENSION_VALUE_SQL } from './migrations/002-rollups.js';
import { dayStatesSql, isSettled, VER_STEP, type VisitorSources } from './queries.js';
import { tableName, type SchemaTarget } from './schema.js';
import type { TouchedDays, WriterIO } from './writer.js';

/**
 * Daily distinct visitors of settled days, computed once.
 *
 * Every write adds one to `day_writes` for each day whose visitor counts it
 * may change, after its rows are in. A build of a day reads that count `w`
 * first, then counts the visitors from the raw rows into `visitor_rollups`
 * under a build id `ver` (= w x 10^6 + a random 0..999,999), and last
 * records `ver` in `rollup_builds`. A day is settled while its newest build
 * says `floor(ver / 10^6) = w`: no write has touched it since (a write that
 * raced the build at most made the build count more than `w` says, and its
 * own mark makes the day unsettled again). Reads take settled days from the
 * build and the others from the raw rows, which are exact at any time.
 *
 * Days are built when a read finds them unsettled, and after an import; not
 * while they are hot (the site's today, and yesterday for six hours after
 * midnight, which the collector still writes to and which are cheap to read
 * raw), as the SQLite store does.
 */

/** Hours after midnight during which the previous day still counts as hot (sessions run across midnight). */
const HOT_WINDOW_MS = 6 * 3_600_000;

export interface RollupOptions {
  /** The clock that decides which days are hot; results never depend on it, only speed. */
  now: () => number;
  /** The site's time zone, or undefined for an unknown site. */
  timezoneOf: (siteId: string) => Promise<string | undefined>;
  /** Run an `INSERT ... SELECT` (with the insert settings). */
  command: (query: string) => Promise<void>;
}

/** The dimensions whose visitors a build counts from `sessions`: every breakdown dimension. */
const SESSION_DIMENSIONS = (Object.keys(DIMENSION_VALUE_SQL) as (keyof typeof DIMENSION_VALUE_SQL)[]).filter((d) => d !== 'entryPath');

export function createRollups(io: WriterIO, target: SchemaTarget, options: RollupOptions) {
  const inFlight = new Map<string, Promise<number>>();

  /** Per day of `[from, to]` with data: writes so far and the newest build id (0 if none). */
  const dayStates = async (siteId: string, from: string, to: string) => {
    const rows = await io.rows<{ d: string; w: string; vm: string }>(dayStatesSql(target, siteId, from, to));
    return rows.map((r) => ({ day: readDay(r.d), writes: Number(r.w), ver: Number(r.vm) }));
  };

  const hotDays = async (siteId: string): Promise<string[]> => {
    const zone = (await options.timezoneOf(siteId)) ?? 'UTC';
    const now = options.now();
    return [localDay(now, zone), localDay(now - HOT_WINDOW_MS, zone)];
  };

  /** Counts the visitors of `days` (each with the writes count read before) and records the builds. */
  const build = async (siteId: string, days: { day: string; writes: number }[]): Promise<{ day: string; ver: number }[]> => {
    const builds = days.map(({ day, writes }) => ({ day, ver: writes * VER_STEP + randomInt(VER_STEP) }));
    const s = sqlString(siteId);
    const where = `site_id = ${s} AND day IN (${builds.map((b) => sqlDate(b.day)).join(', ')})`;
    const ver = `transform(day, [${builds.map((b) => sqlDate(b.day)).join(', ')}], [${builds.map((b) => `toUInt64(${sqlInt(b.ver)})`).join(', ')}], toUInt64(0))`;
    const pairs = `[${SESSION_DIMENSIONS.map((d) => `('${d}', ${DIMENSION_VALUE_SQL[d]})`).join(', ')}]`;
    await options.command(
      `INSERT INTO ${tableName(target, 'visitor_rollups')} (site_id, dimension, day, ver, value, visitors)
       SELECT ${s}, '', day, ${ver}, '', count() FROM (
         SELECT day, visitor_id FROM ${tableName(target, 'sessions')} WHERE ${where} GROUP BY day, visitor_id HAVING sum(sign) > 0
       ) GROUP BY day
       UNION ALL
       SELECT ${s}, tupleElement(dv, 1), day, ${ver}, tupleElement(dv, 2), count() FROM (
         SELECT dv, day, visitor_id FROM ${tableName(target, 'sessions')} ARRAY JOIN ${pairs} AS dv
         WHERE ${where} GROUP BY dv, day, visitor_id HAVING sum(sign) > 0
       ) GROUP BY dv, day
       UNION ALL
       SELECT ${s}, 'page', day, ${ver}, path, uniqExact(visitor_id) FROM ${tableName(target, 'events')}
       WHERE ${where} AND type = 'pageview' GROUP BY day, path`,
    );
    await io.insert('rollup_builds', builds.map((b) => ({ site_id: siteId, day: b.day, ver: b.ver })));
    return builds;
  };

  /** Builds the days not already being built by this process; waits for those that are. */
  const buildOnce = async (siteId: string, days: { day: string; writes: number }[]): Promise<{ day: string; ver: number }[]> => {
    const key = (d: { day: string; writes: number }) => `${siteId}\u0000${d.day}\u0000${d.writes}`;
    const fresh = days.filter((d) => !inFlight.has(key(d)));
    if (fresh.length > 0) {
      const running = build(siteId, fresh);
      fresh.forEach((d, i) => {
        const ver = running.then((builds) => builds[i]!.ver);
        inFlight.set(key(d), ver);
        void ver.catch(() => {}).finally(() => inFlight.delete(key(d)));
      });
    }
    return Promise.all(days.map(async (d) => ({ day: d.day, ver: await inFlight.get(key(d))! })));
  };

  /** Builds the days of `siteId` among `states` that are unsettled and not hot. */
  const settleDays = async (siteId: string, states: { day: string; writes: number; ver: number }[], only?: Set<string>) => {
    const unsettled = states.filter((s) => !isSettled(s.writes, s.ver) && (!only || only.has(s.day)));
    if (unsettled.length === 0) return;
    const hot = await hotDays(siteId);
    const due = unsettled.filter((s) => !hot.includes(s.day));
    if (due.length > 0) await buildOnce(siteId, due);
  };

  return {
    /**
     * Where the visitor counts of each day of `range` come from, from one
     * read of the day states: settled days from their build, the rest raw.
     * Unsettled days that are not hot are built first, so this and later
     * reads take them from the build (if that fails, they are read raw).
     */
    async sources(range: DayRange): Promise<VisitorSources> {
      const states = await dayStates(range.siteId, range.from, range.to);
      const built = states.filter((s) => isSettled(s.writes, s.ver)).map((s) => ({ day: s.day, ver: s.ver }));
      const unsettled = states.filter((s) => !isSettled(s.writes, s.ver));
      if (unsettled.length === 0) return { built, raw: [] };
      const hot = await hotDays(range.siteId);
      const due = unsettled.filter((s) => !hot.includes(s.day));
      const raw = unsettled.filter((s) => hot.includes(s.day)).map((s) => s.day);
      if (due.length > 0) {
        try {
          built.push(...(await buildOnce(range.siteId, due)));
        } catch {
          raw.push(...due.map((s) => s.day));
        }
      }
      return { built, raw };
    },

    /** After an import: builds the days it touched that are not hot, so the first reads find them settled. */
    async settle(touched: TouchedDays): Promise<void> {
      for (const [siteId, set] of touched) {
        const list = [...set].sort();
        await settleDays(siteId, await dayStates(siteId, list[0]!, list[list.length - 1]!), set);
      }
    },
  };
}

export type Rollups = ReturnType<typeof createRollups>;
