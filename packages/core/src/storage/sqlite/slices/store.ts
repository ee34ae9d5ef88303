/**
 * Where slices live (the slice_* tables of the migration of issue 41): a day's rows written
 * at once with its state (the versions of the raw rows they came from, the goals computed,
 * the slices that have rows), and which days of a range are valid now: those whose recorded
 * versions all still hold (sqlite-day-versions.ts), so any write to a day the rows depend on
 * makes them stale, whichever connection or process wrote.
 */
import type Database from 'better-sqlite3';
import type { DayVersions } from '../sqlite-day-versions.js';
import { BREAKDOWNS, type SliceKind } from './kinds.js';
import type { SliceRows } from './compute.js';

export interface SliceDayState {
  day: string;
  versions: [string, number][];
  goals: string[];
}

export function createSliceStore(db: Database.Database, versions: DayVersions) {
  const state = db.prepare<[string, string], { versions: string; goals: string; slices: string }>('SELECT versions, goals, slices FROM slice_days WHERE site_id = ? AND day = ?');
  const states = db.prepare<[string, string, string], [string, string, string]>('SELECT day, versions, goals FROM slice_days WHERE site_id = ? AND day BETWEEN ? AND ?').raw();
  const setState = db.prepare('INSERT INTO slice_days (site_id, day, versions, goals, slices) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET versions = excluded.versions, goals = excluded.goals, slices = excluded.slices');
  const dropState = db.prepare('DELETE FROM slice_days WHERE site_id = ? AND day = ?');
  const computedIn = db.prepare<[string, string, string], string>('SELECT day FROM slice_days WHERE site_id = ? AND day BETWEEN ? AND ?').pluck();
  const insert = {
    totals: db.prepare('INSERT INTO slice_totals (site_id, day, kind, slice, dimension, value, visitors, sessions, bounces, duration_ms, pageviews) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'),
    pages: db.prepare('INSERT INTO slice_pages (site_id, day, kind, slice, path, pageviews, visitors, timed_views, time_on_page_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)'),
    events: db.prepare('INSERT INTO slice_events (site_id, day, kind, slice, name, count) VALUES (?, ?, ?, ?, ?, ?)'),
    goals: db.prepare('INSERT INTO slice_goals (site_id, day, kind, slice, goal, visitors, conversions) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    props: db.prepare('INSERT INTO slice_props (site_id, day, kind, slice, name, key, level, value, count, visitors) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'),
  };
  // By key (the tables are keyed by slice before day): one seek per slice, never a scan of the site's rows.
  const dimensions = ['', ...BREAKDOWNS];
  const remove = [
    db.prepare(`DELETE FROM slice_totals WHERE site_id = ? AND kind = ? AND slice = ? AND dimension IN (${dimensions.map(() => '?').join(', ')}) AND day = ?`),
    ...['slice_pages', 'slice_events', 'slice_goals', 'slice_props'].map((table) => db.prepare(`DELETE FROM ${table} WHERE site_id = ? AND kind = ? AND slice = ? AND day = ?`)),
  ];

  /** Deletes a day's rows and state (in the caller's transaction). */
  const clear = (siteId: string, day: string) => {
    const known = state.get(siteId, day);
    if (!known) return;
    for (const [kind, slice] of JSON.parse(known.slices) as [string, string][]) {
      remove[0]!.run(siteId, kind, slice, ...dimensions, day);
      for (const statement of remove.slice(1)) statement.run(siteId, kind, slice, day);
    }
    dropState.run(siteId, day);
  };

  return {
    /** Replaces a day's rows (none: the day has no slices, e.g. too many groups) and records its state; call in a write transaction. */
    write(siteId: string, day: string, rows: SliceRows | undefined, dayVersions: [string, number][], goals: readonly string[]): void {
      clear(siteId, day);
      if (!rows) return;
      const slices = new Map<string, [SliceKind, string]>();
      const seen = (kind: SliceKind, slice: string) => slices.set(`${kind}\u0000${slice}`, [kind, slice]);
      for (const r of rows.totals) {
        seen(r[0], r[1]);
        insert.totals.run(siteId, day, ...r);
      }
      for (const r of rows.pages) {
        seen(r[0], r[1]);
        insert.pages.run(siteId, day, ...r);
      }
      for (const r of rows.events) {
        seen(r[0], r[1]);
        insert.events.run(siteId, day, ...r);
      }
      for (const r of rows.goals) {
        seen(r[0], r[1]);
        insert.goals.run(siteId, day, ...r);
      }
      for (const r of rows.props) {
        seen(r[0], r[1]);
        insert.props.run(siteId, day, ...r);
      }
      setState.run(siteId, day, JSON.stringify(dayVersions), JSON.stringify(goals), JSON.stringify([...slices.values()]));
    },

    /**
     * The days of `[from, to]` whose slices are valid in the caller's snapshot, with the goals
     * computed on each (call inside a read transaction, with the reads of those days).
     */
    valid(siteId: string, from: string, to: string): Map<string, ReadonlySet<string>> {
      const rows = states.all(siteId, from, to);
      const out = new Map<string, ReadonlySet<string>>();
      if (rows.length === 0) return out;
      const parsed = rows.map(([day, v, goals]) => ({ day, versions: JSON.parse(v) as [string, number][], goals }));
      let low = from;
      for (const r of parsed) for (const [d] of r.versions) if (d < low) low = d;
      const now = versions.between(siteId, low, to);
      for (const r of parsed) {
        if (r.versions.every(([d, v]) => (now.get(d) ?? 0) === v)) out.set(r.day, new Set(JSON.parse(r.goals) as string[]));
      }
      return out;
    },

    /** The days of `[from, to]` that have slices, valid or not. */
    computed: (siteId: string, from: string, to: string): string[] => computedIn.all(siteId, from, to),

    /** The day's recorded state, or undefined (tests). */
    state(siteId: string, day: string): SliceDayState | undefined {
      const row = state.get(siteId, day);
      return row && { day, versions: JSON.parse(row.versions) as [string, number][], goals: JSON.parse(row.goals) as string[] };
    },
  };
}

export type SliceStore = ReturnType<typeof createSliceStore>;
