/**
 * Where slices live (the slice_* tables of the migrations of issue 41, keyed by site and day
 * first): a day's rows replaced at once with its state (the versions of the raw rows they came
 * from, the goals and funnels computed: kinds.ts `settingKeys`), and which days of a range are valid now: those whose recorded
 * versions all still hold (sqlite-day-versions.ts), so any write to a day the rows depend on
 * makes them stale, whichever connection or process wrote.
 */
import type Database from 'better-sqlite3';
import type { DayVersions } from '../sqlite-day-versions.js';
import type { SliceRows } from './compute.js';

const TABLES = ['slice_totals', 'slice_pages', 'slice_events', 'slice_goals', 'slice_props', 'slice_funnels'] as const;

export function createSliceStore(db: Database.Database, versions: DayVersions) {
  const states = db.prepare<[string, string, string], [string, string, string]>('SELECT day, versions, goals FROM slice_days WHERE site_id = ? AND day BETWEEN ? AND ?').raw();
  const computedIn = db.prepare<[string, string, string], string>('SELECT day FROM slice_days WHERE site_id = ? AND day BETWEEN ? AND ?').pluck();
  const setState = db.prepare('INSERT INTO slice_days (site_id, day, versions, goals) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET versions = excluded.versions, goals = excluded.goals');
  const drop = ['slice_days', ...TABLES].map((table) => db.prepare(`DELETE FROM ${table} WHERE site_id = ? AND day = ?`));
  const insert = {
    totals: db.prepare('INSERT INTO slice_totals (site_id, day, kind, slice, dimension, value, visitors, sessions, bounces, duration_ms, pageviews) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'),
    pages: db.prepare('INSERT INTO slice_pages (site_id, day, kind, slice, path, pageviews, visitors, timed_views, time_on_page_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)'),
    events: db.prepare('INSERT INTO slice_events (site_id, day, kind, slice, name, count) VALUES (?, ?, ?, ?, ?, ?)'),
    goals: db.prepare('INSERT INTO slice_goals (site_id, day, kind, slice, goal, visitors, conversions) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    props: db.prepare('INSERT INTO slice_props (site_id, day, kind, slice, name, key, level, value, count, visitors) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'),
    funnels: db.prepare('INSERT INTO slice_funnels (site_id, day, kind, slice, funnel, step, visitors) VALUES (?, ?, ?, ?, ?, ?, ?)'),
  };

  return {
    /**
     * Replaces a day's rows and records its state; call in a write transaction. Without rows (a
     * day too small or too large for slices) the state says so (goals `null`): the day is read as
     * before, and not computed again, while its versions hold. `goals`: the keys of the goals and
     * funnels computed.
     */
    write(siteId: string, day: string, rows: SliceRows | undefined, dayVersions: [string, number][], goals: readonly string[]): void {
      for (const statement of drop) statement.run(siteId, day);
      if (!rows) {
        setState.run(siteId, day, JSON.stringify(dayVersions), 'null');
        return;
      }
      for (const r of rows.totals) insert.totals.run(siteId, day, r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8]);
      for (const r of rows.pages) insert.pages.run(siteId, day, r[0], r[1], r[2], r[3], r[4], r[5], r[6]);
      for (const r of rows.events) insert.events.run(siteId, day, r[0], r[1], r[2], r[3]);
      for (const r of rows.goals) insert.goals.run(siteId, day, r[0], r[1], r[2], r[3], r[4]);
      for (const r of rows.props) insert.props.run(siteId, day, r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]);
      for (const r of rows.funnels) insert.funnels.run(siteId, day, r[0], r[1], r[2], r[3], r[4]);
      setState.run(siteId, day, JSON.stringify(dayVersions), JSON.stringify(goals));
    },

    /**
     * The days of `[from, to]` whose state is valid in the caller's snapshot, with the goals and
     * funnels computed on each, or null for a day that has no slices (call inside a read transaction,
     * with the reads of those days).
     */
    valid(siteId: string, from: string, to: string): Map<string, ReadonlySet<string> | null> {
      const rows = states.all(siteId, from, to);
      const out = new Map<string, ReadonlySet<string> | null>();
      if (rows.length === 0) return out;
      const parsed = rows.map(([day, v, goals]) => ({ day, versions: JSON.parse(v) as [string, number][], goals }));
      let low = from;
      for (const r of parsed) for (const [d] of r.versions) if (d < low) low = d;
      const now = versions.between(siteId, low, to);
      for (const r of parsed) {
        if (!r.versions.every(([d, v]) => (now.get(d) ?? 0) === v)) continue;
        const goals = JSON.parse(r.goals) as string[] | null;
        out.set(r.day, goals && new Set(goals));
      }
      return out;
    },

    /** The days of `[from, to]` that have slices, valid or not. */
    computed: (siteId: string, from: string, to: string): string[] => computedIn.all(siteId, from, to),
  };
}

export type SliceStore = ReturnType<typeof createSliceStore>;
