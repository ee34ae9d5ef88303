import { randomInt } from 'node:crypto';
import { localDay, type DayRange } from '@siteline/core';
import { readDay } from '../schema/days.js';
import { sqlDate, sqlInt, sqlString } from '../connection/escape.js';
import { DIMENSION_VALUE_SQL } from '../schema/migrations/002-rollups.js';
import { daySessionsSql, dayStatesSql, isSettled, VER_STEP, type VisitorSources } from '../reads/queries.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';
import type { TouchedDays, WriterIO } from '../write/writer.js';
import { keySessionsBuildSql, valuePagesBuildSql } from './value-pages.js';

/**
 * Daily distinct visitors of settled days, computed once, and the pages of each session
 * value (value-pages.ts) with them.
 *
 * Every write adds one to `day_marks` (`writes`) for each day whose visitor counts it
 * may change, after its rows are in. A build of a day reads that count `w`
 * first, then counts the visitors from the raw rows into `visitor_rollups` (and the pages
 * per session value, page and event name into `value_pages`, the sessions per page and
 * event name into `key_sessions`) under a build id `ver` (= w x 10^6 + a random 0..999,999), and last
 * records `ver` in `day_marks` (`builds`). A day is settled while its newest build
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

/** Unsettled days a read builds before it answers; more are built in the background. */
const SYNC_BUILD_DAYS = 3;

/** Sessions (rows of `sessions`) per build statement: several small days go in one, a large one alone. */
const BUILD_SESSIONS = 300_000;

/** Builds remembered by this process (a day's build is looked up by its writes count). */
const MAX_REMEMBERED = 100_000;

/** A day whose build failed is read raw for this long before its build is tried again. */
const RETRY_AFTER_MS = 60_000;

export function createRollups(io: WriterIO, target: SchemaTarget, options: RollupOptions) {
  /** Builds this process ran or is running, by site, day and writes count. */
  const inFlight = new Map<string, Promise<number>>();
  const failedUntil = new Map<string, number>();

  /** Per day of `[from, to]` with data, in day order: writes so far and the newest build id (0 if none). */
  const dayStates = async (siteId: string, from: string, to: string) => {
    const rows = await io.rows<{ d: string; w: string; vm: string }>(dayStatesSql(target, siteId, from, to));
    return rows.map((r) => ({ day: readDay(r.d), writes: Number(r.w), ver: Number(r.vm) })).sort((a, b) => (a.day < b.day ? -1 : 1));
  };

  const hotDays = async (siteId: string): Promise<string[]> => {
    const zone = (await options.timezoneOf(siteId)) ?? 'UTC';
    const now = options.now();
    return [localDay(now, zone), localDay(now - HOT_WINDOW_MS, zone)];
  };

  /**
   * Counts the visitors of `days` (each with the writes count read before)
   * into `visitor_rollups` in one statement, their pages per session value, page and event
   * name into `value_pages` in a second, the sessions per page and event name into
   * `key_sessions` in a third, then records the builds.
   */
  const build = async (siteId: string, days: { day: string; writes: number }[]): Promise<Map<string, number>> => {
    const vers = new Map(days.map(({ day, writes }) => [day, writes * VER_STEP + randomInt(VER_STEP)]));
    const s = sqlString(siteId);
    const list = days.map((d) => sqlDate(d.day)).join(', ');
    const v = `transform(day, [${list}], [${[...vers.values()].map((ver) => `toUInt64(${sqlInt(ver)})`).join(', ')}], toUInt64(0))`;
    const where = `site_id = ${s} AND day IN (${list})`;
    const pairs = `[${SESSION_DIMENSIONS.map((d) => `('${d}', ${DIMENSION_VALUE_SQL[d]})`).join(', ')}]`;
    await options.command(
      `INSERT INTO ${tableName(target, 'visitor_rollups')} (site_id, dimension, day, ver, value, visitors)
       SELECT ${s}, '', day, ${v}, '', count() FROM (
         SELECT day, visitor_id FROM ${tableName(target, 'sessions')} WHERE ${where} GROUP BY day, visitor_id HAVING sum(sign) > 0
       ) GROUP BY day
       UNION ALL
       SELECT ${s}, tupleElement(dv, 1), day, ${v}, tupleElement(dv, 2), count() FROM (
         SELECT dv, day, visitor_id FROM ${tableName(target, 'sessions')} ARRAY JOIN ${pairs} AS dv
         WHERE ${where} GROUP BY dv, day, visitor_id HAVING sum(sign) > 0
       ) GROUP BY dv, day
       UNION ALL
       SELECT ${s}, 'page', day, ${v}, path, uniqExact(visitor_id) FROM ${tableName(target, 'events')}
       WHERE ${where} AND type = 'pageview' GROUP BY day, path`,
    );
    await options.command(valuePagesBuildSql(target, siteId, days.map((d) => d.day), v));
    await options.command(keySessionsBuildSql(target, siteId, days.map((d) => d.day), v));
    await io.insert('day_marks', [...vers].map(([day, ver]) => ({ site_id: siteId, day, ver, writes: 0, builds: 1 })));
    return vers;
  };

  /** Consecutive groups of `days` of at most BUILD_SESSIONS sessions each (a day larger than that alone). */
  const batches = async (siteId: string, days: { day: string; writes: number }[]) => {
    if (days.length === 1) return [days];
    const counts = await io.rows<{ d: string; n: string }>(daySessionsSql(target, siteId, days.map((d) => d.day)));
    const sizes = new Map(counts.map((c) => [readDay(c.d), Number(c.n)]));
    const out: { day: string; writes: number }[][] = [];
    let current: { day: string; writes: number }[] = [];
    let size = 0;
    for (const d of days) {
      const n = sizes.get(d.day) ?? 0;
      if (current.length > 0 && size + n > BUILD_SESSIONS) {
        out.push(current);
        current = [];
        size = 0;
      }
      current.push(d);
      size += n;
    }
    if (current.length > 0) out.push(current);
    return out;
  };

  /**
   * Builds the days, a batch at a time, skipping days this process has built
   * or is building at the same writes count (it waits for those) and days
   * whose build failed less than a minute ago (left out of the result: the
   * caller reads them raw).
   */
  const buildDays = async (siteId: string, days: { day: string; writes: number }[]): Promise<{ day: string; ver: number }[]> => {
    const key = (d: { day: string }) => `${siteId}\u0000${d.day}`;
    const flight = (d: { day: string; writes: number }) => `${key(d)}\u0000${d.writes}`;
    const live = days.filter((d) => (failedUntil.get(key(d)) ?? 0) <= Date.now());
    const vers = new Map<string, Promise<number>>();
    const fresh = live.filter((d) => {
      const known = inFlight.get(flight(d));
      if (known) vers.set(d.day, known);
      return !known;
    });
    for (const batch of fresh.length > 0 ? await batches(siteId, fresh) : []) {
      const running = build(siteId, batch);
      if (inFlight.size >= MAX_REMEMBERED) inFlight.clear();
      for (const d of batch) {
        // Kept after it finished too: a queued background build of the same day and count has nothing left to do.
        const ver = running.then((built) => built.get(d.day)!);
        inFlight.set(flight(d), ver);
        vers.set(d.day, ver);
        void ver.catch(() => {
          inFlight.delete(flight(d));
          failedUntil.set(key(d), Date.now() + RETRY_AFTER_MS);
        });
      }
      await running.catch(() => {}); // one batch at a time
    }
    const done: { day: string; ver: number }[] = [];
    for (const [day, ver] of vers) {
      try {
        done.push({ day, ver: await ver });
      } catch {
        // read raw; tried again after RETRY_AFTER_MS
      }
    }
    return done;
  };

  /** Unsettled days among `states` that are not hot: due for a build. */
  const dueDays = async (siteId: string, states: { day: string; writes: number; ver: number }[]) => {
    const unsettled = states.filter((s) => !isSettled(s.writes, s.ver));
    if (unsettled.length === 0) return { due: [], hot: [] };
    const hotList = await hotDays(siteId);
    return { due: unsettled.filter((s) => !hotList.includes(s.day)), hot: unsettled.filter((s) => hotList.includes(s.day)).map((s) => s.day) };
  };

  let background: Promise<void> = Promise.resolve();

  return {
    /**
     * Where the visitor counts of each day of `range` come from, from one
     * read of the day states: settled days from their build, the rest raw.
     * Up to three unsettled days that are not hot are built first (the usual
     * case: a day or two that cooled down or got a late write), so this and
     * later reads take them from the build; more than that (after a large
     * upgrade) are built one by one in the background while reads take them
     * raw. A failed build leaves its day raw.
     */
    async sources(range: DayRange): Promise<VisitorSources> {
      const states = await dayStates(range.siteId, range.from, range.to);
      const built = states.filter((s) => isSettled(s.writes, s.ver)).map((s) => ({ day: s.day, ver: s.ver }));
      const { due, hot } = await dueDays(range.siteId, states);
      const raw = [...hot];
      if (due.length > 0) {
        const now = due.slice(-SYNC_BUILD_DAYS);
        const later = due.slice(0, -SYNC_BUILD_DAYS);
        const done = await buildDays(range.siteId, now);
        built.push(...done);
        for (const d of now) if (!done.some((b) => b.day === d.day)) raw.push(d.day);
        if (later.length > 0) {
          raw.push(...later.map((d) => d.day));
          background = background.then(() => buildDays(range.siteId, later)).then(() => {}, () => {});
        }
      }
      return { built, raw };
    },

    /**
     * After an import: builds the days it touched that are not hot, so the first reads find them
     * settled. Returns, per site, the touched days that are settled now, with their build ids.
     */
    async settle(touched: TouchedDays): Promise<Map<string, { day: string; ver: number }[]>> {
      const out = new Map<string, { day: string; ver: number }[]>();
      for (const [siteId, set] of touched) {
        if (set.size === 0) continue;
        const list = [...set].sort();
        const states = (await dayStates(siteId, list[0]!, list[list.length - 1]!)).filter((s) => set.has(s.day));
        const settled = states.filter((s) => isSettled(s.writes, s.ver)).map((s) => ({ day: s.day, ver: s.ver }));
        settled.push(...(await buildDays(siteId, (await dueDays(siteId, states)).due)));
        out.set(siteId, settled.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0)));
      }
      return out;
    },

    /** Resolves when the background builds started so far are done (before closing the client or migrating). */
    idle: (): Promise<void> => background,

    /** Forgets the builds this process ran (a migration rebuilds their tables). */
    forget(): void {
      inFlight.clear();
      failedUntil.clear();
    },
  };
}

export type Rollups = ReturnType<typeof createRollups>;
