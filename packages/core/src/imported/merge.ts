/**
 * Imported totals added to a storage's native totals, before any rounding, so every metric
 * keeps its one definition (metrics/metrics.ts): visitors are daily visitors summed on both
 * sides, bounce rate and durations are sums divided once.
 */
import type { BreakdownTotals, DayTotals, EventTotals, PageTotals, SessionDimension, SummaryTotals } from '../storage/types.js';
import type { ImportedMetrics, ImportedTable, ImportedTotals } from './types.js';

/** `/stats`: the imported sessions, visitors, bounces, durations and pageviews added. */
export function addSummary(native: SummaryTotals, imported: readonly ImportedMetrics[]): SummaryTotals {
  const out = { ...native };
  for (const r of imported) {
    out.visitors += r.visitors;
    out.sessions += r.sessions;
    out.bounces += r.bounces;
    out.durationMs += r.durationS * 1000;
    out.pageviews += r.pageviews;
  }
  return out;
}

/** `/stats/timeseries`: imported days (rows with `day`) added to the native day rows. */
export function addDays(native: readonly DayTotals[], imported: readonly ImportedTotals[]): DayTotals[] {
  if (imported.length === 0) return [...native];
  const byDay = new Map(native.map((row) => [row.day, { ...row }]));
  for (const r of imported) {
    const row = byDay.get(r.day!) ?? { day: r.day!, visitors: 0, sessions: 0, pageviews: 0 };
    row.visitors += r.visitors;
    row.sessions += r.sessions;
    row.pageviews += r.pageviews;
    byDay.set(row.day, row);
  }
  return [...byDay.values()];
}

/** The imported table and key positions each session breakdown groups by. */
export const BREAKDOWN_SOURCES: Record<SessionDimension, { table: ImportedTable; groupBy: number[] }> = {
  referrerSource: { table: 'sources', groupBy: [0] },
  channel: { table: 'sources', groupBy: [1] },
  utm: { table: 'sources', groupBy: [2, 3, 4] },
  countryCode: { table: 'locations', groupBy: [0] },
  deviceType: { table: 'devices', groupBy: [0] },
  browser: { table: 'browsers', groupBy: [0] },
  os: { table: 'operating_systems', groupBy: [0] },
};

/** A breakdown: imported groups added to the native groups with the same key. */
export function addBreakdown(native: readonly BreakdownTotals[], imported: readonly ImportedTotals[]): BreakdownTotals[] {
  if (imported.length === 0) return [...native];
  const byKey = new Map(native.map((g) => [g.key.join('\u0000'), { ...g }]));
  for (const r of imported) {
    const id = r.keys.join('\u0000');
    const group = byKey.get(id) ?? { key: r.keys, visitors: 0, sessions: 0 };
    group.visitors += r.visitors;
    group.sessions += r.sessions;
    byKey.set(id, group);
  }
  return [...byKey.values()];
}

/**
 * `/pages`: imported pages (pageviews, visitors, time on page where the export has it) and
 * entry pages (sessions entering, bounces) added by path. A page without imported time on
 * page keeps its native time on page alone.
 */
export function addPages(native: readonly PageTotals[], pages: readonly ImportedTotals[], entries: readonly ImportedTotals[]): PageTotals[] {
  if (pages.length + entries.length === 0) return [...native];
  const byPath = new Map(native.map((p) => [p.path, { ...p }]));
  const row = (path: string) => {
    let p = byPath.get(path);
    if (!p) byPath.set(path, (p = { path, pageviews: 0, visitors: 0, entrySessions: 0, entryBounces: 0, timedViews: 0, timeOnPageMs: 0 }));
    return p;
  };
  for (const r of pages) {
    const p = row(r.keys[0]!);
    p.pageviews += r.pageviews;
    p.visitors += r.visitors;
    p.timedViews += r.timedViews;
    p.timeOnPageMs += r.timeOnPageS * 1000;
  }
  for (const r of entries) {
    const p = row(r.keys[0]!);
    p.entrySessions += r.sessions;
    p.entryBounces += r.bounces;
  }
  return [...byPath.values()];
}

/** `/events`: imported custom events added by name. */
export function addEvents(native: readonly EventTotals[], imported: readonly ImportedTotals[]): EventTotals[] {
  if (imported.length === 0) return [...native];
  const byName = new Map(native.map((e) => [e.name, { ...e }]));
  for (const r of imported) {
    const name = r.keys[0]!;
    const e = byName.get(name) ?? { name, count: 0 };
    e.count += r.events;
    byName.set(name, e);
  }
  return [...byName.values()];
}
