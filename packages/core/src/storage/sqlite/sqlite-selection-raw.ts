/**
 * Filtered reads straight from the raw tables, as the definition of `Selection`
 * (storage/types.ts) reads: SQL over `sessions` and `events` with the reference
 * predicate `allHold` registered as a SQL function. Slow (it scans the range and
 * looks up each session's events), so the store answers from its columnar cache
 * (sqlite-columns.ts) instead; this is what the differential test and the bench's
 * naive column hold that cache to. Values reach SQL only as bound parameters.
 */
import type Database from 'better-sqlite3';
import { type GoalDefinition, meetsGoal } from '../../goals/goal.js';
import { allHold, bucketIndex, eventPasses, SESSION_ATTRIBUTE_COLUMN } from '../selection.js';
import type {
  BreakdownTotals, BucketTotals, Condition, DayRange, DayTotals, EventTotals, GoalTotals, PageTotals, PropEntry, PropertyTotals, Selection,
  SessionDimension, SummaryTotals,
} from '../types.js';

/** What each breakdown groups by, on alias `s`. */
const GROUP_COLUMNS: Record<SessionDimension, string> = {
  referrerSource: 's.referrer_source',
  channel: 's.channel',
  countryCode: 's.country_code',
  deviceType: 's.device_type',
  browser: 's.browser',
  os: 's.os',
  utm: 's.utm_source || char(0) || s.utm_medium || char(0) || s.utm_campaign',
};

const NONE: Selection = { session: [], page: [], event: [] };
/** Parsed conditions and prepared statements kept (see `createRawSelectionReads`). */
const MAX_KEPT = 256;
const BOUNCE = 'CASE WHEN s.pageviews = 1 AND s.custom_events = 0 THEN 1 ELSE 0 END';

/** A SQL condition and its bound values. */
interface Clause {
  sql: string;
  args: unknown[];
}

const holds = (column: string, conditions: readonly Condition[]): Clause =>
  conditions.length === 0 ? { sql: '1', args: [] } : { sql: `siteline_holds(${column}, ?)`, args: [JSON.stringify(conditions)] };

/** "Custom event `alias` passes the `event` and `prop:` conditions" (`eventPasses`), as SQL. */
const passes = (alias: string, selection: Selection): Clause =>
  selection.event.length + (selection.prop?.length ?? 0) === 0
    ? { sql: '1', args: [] }
    : { sql: `siteline_passes(${alias}.name, ${alias}.props, ?)`, args: [JSON.stringify({ event: selection.event, prop: selection.prop ?? [] })] };

/** "Event `alias` meets one of `goals`" (`meetsGoal`), as SQL. */
const meets = (alias: string, goals: readonly GoalDefinition[]): Clause => ({
  sql: `siteline_meets(${alias}.type, ${alias}.name, ${alias}.path, ?)`,
  args: [JSON.stringify(goals)],
});

/** "Session `s` matches" (storage/types.ts `Selection`), as SQL on the alias `s`. */
function matching(selection: Selection): Clause {
  const parts: Clause[] = selection.session.map((c) => holds(`s.${SESSION_ATTRIBUTE_COLUMN[c.attribute]}`, [c]));
  const exists = (inner: Clause, type?: number, not = false) => {
    parts.push({
      // A session's events all lie within [start_ts, end_ts] of its row: the time range finds them (events are keyed by time).
      sql: `${not ? 'NOT ' : ''}EXISTS (SELECT 1 FROM events x WHERE x.site_id = s.site_id AND x.ts BETWEEN s.start_ts AND s.end_ts
              AND x.session_id = s.session_id${type === undefined ? '' : ` AND x.type = ${type}`} AND ${inner.sql})`,
      args: inner.args,
    });
  };
  if (selection.page.length > 0) exists(holds('x.path', selection.page), 0);
  if (selection.event.length + (selection.prop?.length ?? 0) > 0) exists(passes('x', selection), 1);
  for (const goal of selection.goal ?? []) exists(meets('x', goal.goals), undefined, !goal.converts);
  return { sql: parts.map((p) => p.sql).join(' AND ') || '1', args: parts.flatMap((p) => p.args) };
}

/** The raw filtered reads over `db` (registers the `siteline_holds`, `siteline_passes` and `siteline_meets` SQL functions on it). */
export function createRawSelectionReads(db: Database.Database) {
  // Parsed conditions and prepared statements by text: kept while a query runs, cleared past a few hundred (clients choose the filters).
  const parsed = new Map<string, unknown>();
  const cachedJson = <T>(json: unknown): T => {
    let value = parsed.get(json as string);
    if (value === undefined) {
      if (parsed.size >= MAX_KEPT) parsed.clear();
      parsed.set(json as string, (value = JSON.parse(json as string)));
    }
    return value as T;
  };
  const propsOf = (text: unknown): PropEntry[] => (text === null ? [] : (JSON.parse(text as string) as PropEntry[]));
  db.function('siteline_holds', { deterministic: true }, (value: unknown, json: unknown) => (allHold(cachedJson<Condition[]>(json), value as string) ? 1 : 0));
  db.function('siteline_passes', { deterministic: true }, (name: unknown, props: unknown, json: unknown) =>
    eventPasses({ session: [], page: [], ...cachedJson<Pick<Selection, 'event' | 'prop'>>(json) }, name as string, propsOf(props)) ? 1 : 0);
  db.function('siteline_meets', { deterministic: true }, (type: unknown, name: unknown, path: unknown, json: unknown) =>
    cachedJson<GoalDefinition[]>(json).some((g) => meetsGoal(g, type === 0 ? 'pageview' : 'event', name as string, path as string)) ? 1 : 0);
  const statements = new Map<string, Database.Statement>();
  const all = <T>(sql: string, args: unknown[]): T[] => {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= MAX_KEPT) statements.clear();
      statements.set(sql, (statement = db.prepare(sql)));
    }
    return statement.all(...args) as T[];
  };

  /** Matching sessions starting in the range, as `FROM ... WHERE ...` on alias `s`. */
  const sessions = (range: DayRange, selection: Selection): Clause => {
    const m = matching(selection);
    return { sql: `FROM sessions s WHERE s.site_id = ? AND s.day BETWEEN ? AND ? AND ${m.sql}`, args: [range.siteId, range.from, range.to, ...m.args] };
  };
  /** Selected events of a type (0 pageview, 1 custom event) in the range, on alias `e`. */
  const events = (range: DayRange, selection: Selection, type: 0 | 1): Clause => {
    const m = matching(selection);
    const own = type === 0 ? holds('e.path', selection.page) : passes('e', selection);
    return {
      sql: `FROM events e JOIN sessions s ON s.site_id = e.site_id AND s.session_id = e.session_id
            WHERE e.site_id = ? AND e.ts >= ? AND e.ts < ? AND e.type = ${type} AND ${own.sql} AND ${m.sql}`,
      args: [range.siteId, range.startMs, range.endMs, ...own.args, ...m.args],
    };
  };

  return {
    summary(range: DayRange, selection = NONE): SummaryTotals {
      const s = sessions(range, selection);
      const [totals] = all<Omit<SummaryTotals, 'pageviews'>>(
        `SELECT COUNT(*) AS sessions, COALESCE(SUM(${BOUNCE}), 0) AS bounces, COALESCE(SUM(s.end_ts - s.start_ts), 0) AS durationMs,
           COUNT(DISTINCT s.day || char(0) || s.visitor_id) AS visitors ${s.sql}`, s.args);
      const e = events(range, selection, 0);
      const [{ pageviews }] = all<{ pageviews: number }>(`SELECT COUNT(*) AS pageviews ${e.sql}`, e.args) as [{ pageviews: number }];
      return { ...totals!, pageviews };
    },

    timeseries(range: DayRange, selection = NONE): DayTotals[] {
      const s = sessions(range, selection);
      const e = events(range, selection, 0);
      const days = new Map<string, DayTotals>();
      for (const row of all<DayTotals>(`SELECT s.day AS day, COUNT(*) AS sessions, COUNT(DISTINCT s.visitor_id) AS visitors ${s.sql} GROUP BY s.day`, s.args)) {
        days.set(row.day, { ...row, pageviews: 0 });
      }
      for (const { day, pageviews } of all<{ day: string; pageviews: number }>(`SELECT e.day AS day, COUNT(*) AS pageviews ${e.sql} GROUP BY e.day`, e.args)) {
        days.set(day, { day, visitors: 0, sessions: 0, ...days.get(day), pageviews });
      }
      return [...days.values()];
    },

    sessionBreakdown(range: DayRange, dimension: SessionDimension, selection = NONE): BreakdownTotals[] {
      const s = sessions(range, selection);
      return all<{ value: string; visitors: number; sessions: number }>(
        `SELECT ${GROUP_COLUMNS[dimension]} AS value, COUNT(*) AS sessions, COUNT(DISTINCT s.day || char(0) || s.visitor_id) AS visitors ${s.sql} GROUP BY value`, s.args,
      ).map(({ value, visitors, sessions: n }) => ({ key: dimension === 'utm' ? value.split('\u0000') : [value], visitors, sessions: n }));
    },

    pages(range: DayRange, selection = NONE): PageTotals[] {
      const e = events(range, selection, 0);
      const s = sessions(range, selection);
      const pages = new Map<string, PageTotals>();
      for (const row of all<Omit<PageTotals, 'entrySessions' | 'entryBounces'>>(
        `SELECT e.path AS path, COUNT(*) AS pageviews, COUNT(DISTINCT e.day || char(0) || e.visitor_id) AS visitors,
           COUNT(e.gap_ms) AS timedViews, COALESCE(SUM(e.gap_ms), 0) AS timeOnPageMs ${e.sql} GROUP BY e.path`, e.args)) {
        pages.set(row.path, { ...row, entrySessions: 0, entryBounces: 0 });
      }
      for (const row of all<{ path: string; entrySessions: number; entryBounces: number }>(
        `SELECT s.entry_path AS path, COUNT(*) AS entrySessions, SUM(${BOUNCE}) AS entryBounces ${s.sql} GROUP BY s.entry_path`, s.args)) {
        const page = pages.get(row.path);
        if (page) Object.assign(page, { entrySessions: row.entrySessions, entryBounces: row.entryBounces });
        else pages.set(row.path, { pageviews: 0, visitors: 0, timedViews: 0, timeOnPageMs: 0, ...row });
      }
      return [...pages.values()];
    },

    customEvents(range: DayRange, name: string | undefined, selection = NONE): EventTotals[] {
      const e = events(range, selection, 1);
      const named = name === undefined ? { sql: '', args: [] } : { sql: ' AND e.name = ?', args: [name] };
      return all<EventTotals>(`SELECT e.name AS name, COUNT(*) AS count ${e.sql}${named.sql} GROUP BY e.name`, [...e.args, ...named.args]);
    },

    properties(range: DayRange, name: string, property: string | undefined, selection = NONE): PropertyTotals[] {
      const e = events(range, selection, 1);
      const rows = new Map<string, { count: number; seen: Set<string> }>();
      for (const { day, visitor, props } of all<{ day: string; visitor: string; props: string | null }>(
        `SELECT e.day AS day, e.visitor_id AS visitor, e.props AS props ${e.sql} AND e.name = ?`, [...e.args, name])) {
        for (const [key, value] of propsOf(props)) {
          if (property !== undefined && key !== property) continue;
          const k = property === undefined ? key : value;
          let row = rows.get(k);
          if (!row) rows.set(k, (row = { count: 0, seen: new Set() }));
          row.count++;
          row.seen.add(`${day}\u0000${visitor}`);
        }
      }
      return [...rows].map(([key, { count, seen }]) => ({ key, count, visitors: seen.size }));
    },

    goalTotals(range: DayRange, goals: readonly GoalDefinition[], selection = NONE): GoalTotals[] {
      const m = matching(selection);
      return goals.map((goal) => {
        const sessionMeets = meets('x', [goal]);
        const [{ visitors }] = all<{ visitors: number }>(
          `SELECT COUNT(DISTINCT s.day || char(0) || s.visitor_id) AS visitors FROM sessions s
           WHERE s.site_id = ? AND s.day BETWEEN ? AND ? AND ${m.sql}
             AND EXISTS (SELECT 1 FROM events x WHERE x.site_id = s.site_id AND x.ts BETWEEN s.start_ts AND s.end_ts
               AND x.session_id = s.session_id AND ${sessionMeets.sql})`,
          [range.siteId, range.from, range.to, ...m.args, ...sessionMeets.args],
        ) as [{ visitors: number }];
        const eventMeets = meets('e', [goal]);
        const [{ conversions }] = all<{ conversions: number }>(
          `SELECT COUNT(*) AS conversions FROM events e JOIN sessions s ON s.site_id = e.site_id AND s.session_id = e.session_id
           WHERE e.site_id = ? AND e.ts >= ? AND e.ts < ? AND ${eventMeets.sql} AND ${m.sql}`,
          [range.siteId, range.startMs, range.endMs, ...eventMeets.args, ...m.args],
        ) as [{ conversions: number }];
        return { visitors, conversions };
      });
    },

    hourBuckets(range: DayRange, starts: readonly number[], selection = NONE): BucketTotals[] {
      const bucketOf = (ts: number) => bucketIndex(starts, ts);
      const rows = starts.map((start) => ({ start, visitors: 0, sessions: 0, pageviews: 0, seen: new Set<string>() }));
      const s = sessions(range, selection);
      for (const { ts, visitor } of all<{ ts: number; visitor: string }>(`SELECT s.start_ts AS ts, s.visitor_id AS visitor ${s.sql}`, s.args)) {
        const row = rows[bucketOf(ts)]!;
        row.sessions++;
        row.seen.add(visitor);
      }
      const e = events(range, selection, 0);
      for (const { ts } of all<{ ts: number }>(`SELECT e.ts AS ts ${e.sql}`, e.args)) rows[bucketOf(ts)]!.pageviews++;
      return rows
        .filter((r) => r.sessions > 0 || r.pageviews > 0)
        .map(({ start, sessions: n, pageviews, seen }) => ({ start, visitors: seen.size, sessions: n, pageviews }));
    },
  };
}

export type RawSelectionReads = ReturnType<typeof createRawSelectionReads>;
