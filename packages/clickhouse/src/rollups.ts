import { randomInt } from 'node:crypto';
import { localDay, type DayRange } from '@siteline/core';
import { clampDay, readDay } from './days.js';
import { sqlDate, sqlInt, sqlString } from './escape.js';
import { DIMENSION_VALUE_SQL } from './migrations/002-rollups.js';
import type { Build } from './queries.js';
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

const VER_STEP = 1_000_000;

/** Hours after midnight during which the previous day still counts as hot (sessions run across midnight). */
const HOT_WINDOW_MS = 6 * 3_600_000;

/** Where each day of a range comes from. */
export interface VisitorPlan {
  built: Build[];
  raw: string[];
}

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
    const where = `site_id = ${sqlString(siteId)} AND day >= ${sqlDate(clampDay(from))} AND day <= ${sqlDate(clampDay(to))}`;
    const rows = await io.rows<{ d: string; w: string; v: string }>(
      `SELECT toString(day) AS d, sum(wn) AS w, max(vn) AS v FROM (
         SELECT day, writes AS wn, toUInt64(0) AS vn FROM ${tableName(target, 'day_writes')} WHERE ${where}
         UNION ALL
         SELECT day, toUInt64(0) AS wn, ver AS vn FROM ${tableName(target, 'rollup_builds')} WHERE ${where}
       ) GROUP BY day`,
    );
    return rows.map((r) => ({ day: readDay(r.d), writes: Number(r.w), ver: Number(r.v) }));
  };

  const hotDays = async (siteId: string): Promise<string[]> => {
    const zone = (await options.timezoneOf(siteId)) ?? 'UTC';
    const now = options.now();
    return [localDay(now, zone), localDay(now - HOT_WINDOW_MS, zone)];
  };

  /** Counts the visitors of `days` (each with the writes count read before) and records the builds. */
  const build = async (siteId: string, days: { day: string; writes: number }[]): Promise<Build[]> => {
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
  const buildOnce = async (siteId: string, days: { day: string; writes: number }[]): Promise<Build[]> => {
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

  return {
    /**
     * Where the visitor counts of each day of `range` come from: settled days
     * from their build, the rest raw. Unsettled days that are not hot are
     * built first (if that fails, they are read raw).
     */
    async plan(range: DayRange): Promise<VisitorPlan> {
      const states = await dayStates(range.siteId, range.from, range.to);
      const built: Build[] = [];
      const raw: string[] = [];
      const pending: { day: string; writes: number }[] = [];
      const hot = states.some((s) => Math.floor(s.ver / VER_STEP) !== s.writes) ? await hotDays(range.siteId) : [];
      for (const s of states) {
        if (Math.floor(s.ver / VER_STEP) === s.writes) built.push({ day: s.day, ver: s.ver });
        else if (hot.includes(s.day)) raw.push(s.day);
        else pending.push(s);
      }
      if (pending.length > 0) {
        try {
          built.push(...(await buildOnce(range.siteId, pending)));
        } catch {
          raw.push(...pending.map((p) => p.day));
        }
      }
      return { built, raw };
    },

    /** After an import: builds the days it touched that are not hot, so the first reads find them settled. */
    async settle(touched: TouchedDays): Promise<void> {
      for (const [siteId, set] of touched) {
        const list = [...set].sort();
        const hot = await hotDays(siteId);
        const states = await dayStates(siteId, list[0]!, list[list.length - 1]!);
        const due = states.filter((s) => set.has(s.day) && !hot.includes(s.day) && Math.floor(s.ver / VER_STEP) !== s.writes);
        if (due.length > 0) await buildOnce(siteId, due);
      }
    },
  };
}

export type Rollups = ReturnType<typeof createRollups>;
