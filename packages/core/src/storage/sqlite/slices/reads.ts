/**
 * The storage reads over slices: each a sum of one slice's rows over the days whose
 * slices are valid (slices.ts picks them), in the shapes of the storage contract, so the
 * store merges them with the reads of its other days. Values reach SQL as bound parameters.
 */
import type Database from 'better-sqlite3';
import type { BreakdownTotals, DayTotals, EventTotals, GoalTotals, PageTotals, PropertyTotals, SessionDimension, SummaryTotals } from '../../types.js';
import { sumBy } from '../sqlite-merge.js';
import type { SlicePlan } from './kinds.js';

/** The days a read sums, as one JSON array (a seek per day: the tables are keyed by day first). */
export type Days = readonly string[];

const SLICE = 'site_id = ? AND day IN (SELECT value FROM json_each(?)) AND kind = ? AND slice = ?';

/**
 * A read's rows of the totals: the slice's own (dimension '') or, with `pair`, those of its
 * sessions with one more attribute's value (a second condition) among its breakdown rows.
 */
export interface SliceRead extends SlicePlan {
  pair?: { dimension: string; value: string };
}

/** The pageviews a plan selects come from the slice's pages when it is a page slice selecting all of its sessions' pageviews (a page goal). */
const viewsFromPages = (plan: SliceRead) => plan.kind === 'page' && plan.selects === 'all';

export function createSliceReads(db: Database.Database) {
  const totals = db.prepare(
    `SELECT COALESCE(SUM(visitors), 0), COALESCE(SUM(sessions), 0), COALESCE(SUM(bounces), 0), COALESCE(SUM(duration_ms), 0), COALESCE(SUM(pageviews), 0)
     FROM slice_totals WHERE ${SLICE} AND dimension = ? AND value = ?`,
  ).raw();
  const dayTotals = db.prepare(`SELECT day, visitors, sessions, pageviews FROM slice_totals WHERE ${SLICE} AND dimension = ? AND value = ?`).raw();
  const pathViews = db.prepare(`SELECT COALESCE(SUM(pageviews), 0) FROM slice_pages WHERE ${SLICE}`).pluck();
  const dayPageviews = db.prepare(`SELECT day, SUM(pageviews) FROM slice_pages WHERE ${SLICE} GROUP BY day`).raw();
  const byValue = db.prepare(`SELECT value, SUM(visitors), SUM(sessions), SUM(bounces) FROM slice_totals WHERE ${SLICE} AND dimension = ? GROUP BY value`).raw();
  const pages = db.prepare(
    `SELECT path, SUM(pageviews), SUM(visitors), SUM(timed_views), SUM(time_on_page_ms) FROM slice_pages WHERE ${SLICE} GROUP BY path`,
  ).raw();
  const page = db.prepare(
    `SELECT path, SUM(pageviews), SUM(visitors), SUM(timed_views), SUM(time_on_page_ms) FROM slice_pages WHERE ${SLICE} AND path = ? GROUP BY path`,
  ).raw();
  const events = db.prepare(`SELECT name, SUM(count) FROM slice_events WHERE ${SLICE} GROUP BY name`).raw();
  const event = db.prepare(`SELECT name, SUM(count) FROM slice_events WHERE ${SLICE} AND name = ? GROUP BY name`).raw();
  const goals = db.prepare(`SELECT goal, SUM(visitors), SUM(conversions) FROM slice_goals WHERE ${SLICE} GROUP BY goal`).raw();
  const funnel = db.prepare(`SELECT step, SUM(visitors) FROM slice_funnels WHERE ${SLICE} AND funnel = ? GROUP BY step`).raw();
  const keys = db.prepare(`SELECT key, SUM(count), SUM(visitors) FROM slice_props WHERE ${SLICE} AND name = ? AND level = 0 GROUP BY key`).raw();
  const values = db.prepare(
    `SELECT value, SUM(count), SUM(visitors) FROM slice_props WHERE ${SLICE} AND name = ? AND level = 1 AND key = ? GROUP BY value`,
  ).raw();

  const slice = (plan: SliceRead, siteId: string, days: Days) => [siteId, JSON.stringify(days), plan.kind, plan.slice] as const;
  const row = (plan: SliceRead) => [plan.pair?.dimension ?? '', plan.pair?.value ?? ''] as const;
  const breakdown = (siteId: string, plan: SliceRead, days: Days, dimension: string) =>
    byValue.all(...slice(plan, siteId, days), dimension) as [string, number, number, number][];

  return {
    summary(siteId: string, plan: SliceRead, days: Days): SummaryTotals {
      const [visitors, sessions, bounces, durationMs, views] = totals.get(...slice(plan, siteId, days), ...row(plan)) as number[];
      const pageviews = viewsFromPages(plan) ? (pathViews.get(...slice(plan, siteId, days)) as number) : views!;
      return { visitors: visitors!, sessions: sessions!, bounces: bounces!, durationMs: durationMs!, pageviews };
    },

    timeseries(siteId: string, plan: SliceRead, days: Days): DayTotals[] {
      const out = new Map<string, DayTotals>();
      for (const [day, visitors, sessions, views] of dayTotals.all(...slice(plan, siteId, days), ...row(plan)) as [string, number, number, number][]) {
        out.set(day, { day, visitors, sessions, pageviews: viewsFromPages(plan) ? 0 : views });
      }
      if (viewsFromPages(plan)) {
        for (const [day, views] of dayPageviews.all(...slice(plan, siteId, days)) as [string, number][]) {
          const known = out.get(day);
          if (known) known.pageviews = views;
          else out.set(day, { day, visitors: 0, sessions: 0, pageviews: views });
        }
      }
      return [...out.values()];
    },

    sessionBreakdown(siteId: string, plan: SliceRead, days: Days, dimension: SessionDimension): BreakdownTotals[] {
      return breakdown(siteId, plan, days, dimension).map(([value, visitors, sessions]) => ({ key: dimension === 'utm' ? value.split('\u0000') : [value], visitors, sessions }));
    },

    /** Paths of the selected pageviews, and the entry paths of the slice's sessions (0 pageviews when not viewed). */
    pages(siteId: string, plan: SliceRead, days: Days): PageTotals[] {
      const out: PageTotals[] = [];
      const rows = plan.selects === 'page' ? page.all(...slice(plan, siteId, days), plan.slice) : pages.all(...slice(plan, siteId, days));
      for (const [path, pv, visitors, timedViews, timeOnPageMs] of rows as [string, number, number, number, number][]) {
        out.push({ path, pageviews: pv, visitors, timedViews, timeOnPageMs, entrySessions: 0, entryBounces: 0 });
      }
      for (const [path, , sessions, bounces] of breakdown(siteId, plan, days, 'entryPath')) {
        out.push({ path, pageviews: 0, visitors: 0, timedViews: 0, timeOnPageMs: 0, entrySessions: sessions, entryBounces: bounces });
      }
      return sumBy(out, (p) => p.path);
    },

    customEvents(siteId: string, plan: SliceRead, days: Days, name?: string): EventTotals[] {
      if (plan.selects === 'event' && name !== undefined && name !== plan.slice) return [];
      const only = plan.selects === 'event' ? plan.slice : name;
      const rows = (only === undefined ? events.all(...slice(plan, siteId, days)) : event.all(...slice(plan, siteId, days), only)) as [string, number][];
      return rows.map(([n, count]) => ({ name: n, count }));
    },

    /** Totals of each goal key, in the order asked (kinds.ts `goalKey`). */
    goalTotals(siteId: string, plan: SliceRead, days: Days, goalKeys: readonly string[]): GoalTotals[] {
      const sums = new Map<string, GoalTotals>();
      for (const [goal, visitors, conversions] of goals.all(...slice(plan, siteId, days)) as [string, number, number][]) sums.set(goal, { visitors, conversions });
      return goalKeys.map((key) => sums.get(key) ?? { visitors: 0, conversions: 0 });
    },

    /** Each step's visitors of the saved funnel `key` (kinds.ts `funnelKey`) of `steps` steps. */
    funnelVisitors(siteId: string, plan: SliceRead, days: Days, key: string, steps: number): number[] {
      const out = new Array<number>(steps).fill(0);
      for (const [step, visitors] of funnel.all(...slice(plan, siteId, days), key) as [number, number][]) out[step - 1] = visitors;
      return out;
    },

    properties(siteId: string, plan: SliceRead, days: Days, name: string, property: string | undefined): PropertyTotals[] {
      if (plan.selects === 'event' && name !== plan.slice) return [];
      const rows = (property === undefined ? keys.all(...slice(plan, siteId, days), name) : values.all(...slice(plan, siteId, days), name, property)) as [string, number, number][];
      return rows.map(([key, count, visitors]) => ({ key, count, visitors }));
    },
  };
}

export type SliceReads = ReturnType<typeof createSliceReads>;
