import type { ClickHouseSettings } from '@clickhouse/client';
import {
  type BreakdownTotals, type BucketTotals, type DayRange, type DayTotals, type EventTotals, type PageTotals,
  hasConditions, type Selection, type SessionDimension, type SummaryTotals,
} from '@siteline/core';
import { NONE } from './conditions.js';
import { outsideDateType, readDay } from '../schema/days.js';
import { type Bounds, boundsSql, sessionSetPart, staleCountSql } from './matching.js';
import { type SchemaTarget } from '../schema/schema.js';
import {
  breakdownSql, entriesSql, eventRowsSql, eventsBySessionSql, pageGapsSql, pageRowsSql, pageviewBucketsSql, pageviewDaysSql, pageviewsBySessionSql,
  readsEventsBySession, readsPageviewsBySession, sessionBucketsSql, sessionDaysSql,
} from './selection-sql.js';
import type { WriterIO } from '../write/writer.js';

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
 *
 * The parts: conditions.ts (each condition as SQL), matching.ts (which rows a
 * selection keeps), selection-sql.ts (the SQL of each read); this file runs
 * them.
 */

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

    /**
     * The selected pageviews of the range under session conditions alone, by session
     * (`pageviewsBySessionSql`: the matching sessions inside the range, and the range's
     * pageviews of those crossing one of its ends): no pageview row of the range is read
     * but those of the crossing sessions. For the one-value reads (rollups/one-value.ts).
     */
    async pageviewsBySession(r: DayRange, selection: Selection): Promise<number> {
      if (outsideDateType(r)) return 0;
      const { inside, crossing } = pageviewsBySessionSql(target, r, await bounds(r, selection, true), selection);
      const parts = await Promise.all([inside, ...(crossing ? [crossing] : [])].map((sql) => rows<{ pv: string }>(sql)));
      return parts.flat().reduce((sum, v) => sum + num(v.pv), 0);
    },

    /** The selected pageviews per own day. */
    async pageviewDays(r: DayRange, selection: Selection): Promise<Map<string, number>> {
      if (outsideDateType(r)) return new Map();
      const views = await rows<{ d: string; pv: string }>(pageviewDaysSql(target, r, await boundsFor(r, selection, ['pageview']), selection));
      return new Map(views.map((v) => [readDay(v.d), num(v.pv)]));
    },

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
