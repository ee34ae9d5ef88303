/**
 * Filtered reads straight from the raw tables: SQL over `sessions` and `events`, in
 * either plan of sqlite-selection-plans.ts (`definition`, the definition the column cache
 * is held to; `sets`, what the store reads the days its cache does not hold with). Both
 * give the same rows. The reference predicates are registered as SQL functions on `db`.
 */
import type Database from 'better-sqlite3';
import { type FunnelEvent, stepsReached } from '../../funnels/funnel.js';
import { type GoalDefinition, meetsGoal } from '../../goals/goal.js';
import { allHold, bucketIndex, eventPasses } from '../selection.js';
import type {
  BreakdownTotals, BucketTotals, Condition, DayRange, DayTotals, EventTotals, GoalTotals, PageTotals, PropEntry, PropertyTotals, Selection,
  SessionDimension, SummaryTotals,
} from '../types.js';
import { and, type Bound, type Clause, definitionPlan, passes, type RawPlan, type SetsContext, setsPlan, type Source } from './sqlite-selection-plans.js';

export type { RawPlan } from './sqlite-selection-plans.js';

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

export interface RawSelectionOptions {
  /** `definition` (default) or `sets` (see the file's comment). */
  plan?: RawPlan;
  /** The site's time zone (the `sets` plan's days of long sessions); UTC when not given. */
  timezoneOf?: (siteId: string) => string;
}

/** The raw filtered reads over `db` (registers the `siteline_holds`, `siteline_passes` and `siteline_meets` SQL functions on it). */
export function createRawSelectionReads(db: Database.Database, options: RawSelectionOptions = {}) {
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
  const statement = (sql: string) => {
    let found = statements.get(sql);
    if (!found) {
      if (statements.size >= MAX_KEPT) statements.clear();
      statements.set(sql, (found = db.prepare(sql)));
    }
    return found;
  };
  const all = <T>(sql: string, args: unknown[]): T[] => statement(sql).all(...args) as T[];
  const longIndex = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'sessions_long'").get() !== undefined;
  const get: SetsContext['get'] = (sql, args) => statement(sql).get(...args) as { first: number | null; last: number | null };
  /** The read's plan; the plans of one read share `windows` (a read's own map: writes may move the window between reads). */
  const plan = (range: DayRange, selection: Selection, windows = new Map<string, number[]>()): Bound =>
    options.plan === 'sets'
      ? setsPlan(range, selection, { timezone: options.timezoneOf?.(range.siteId) ?? 'UTC', longIndex, get, windows })
      : definitionPlan(range, selection);
  /** Rows of `${source.with}SELECT ${columns} ${source.sql}${tail.sql}`. */
  const rows = <T>(columns: string, source: Source, tail: Clause = { sql: '', args: [] }): T[] =>
    all<T>(`${source.with}SELECT ${columns} ${source.sql}${tail.sql}`, [...source.args, ...tail.args]);

  return {
    summary(range: DayRange, selection = NONE): SummaryTotals {
      const bound = plan(range, selection);
      const [totals] = rows<Omit<SummaryTotals, 'pageviews'>>(
        `COUNT(*) AS sessions, COALESCE(SUM(${BOUNCE}), 0) AS bounces, COALESCE(SUM(s.end_ts - s.start_ts), 0) AS durationMs,
           COUNT(DISTINCT s.day || char(0) || s.visitor_id) AS visitors`, bound.sessions);
      const [{ pageviews }] = rows<{ pageviews: number }>('COUNT(*) AS pageviews', bound.events(0, bound.paths)) as [{ pageviews: number }];
      return { ...totals!, pageviews };
    },

    timeseries(range: DayRange, selection = NONE): DayTotals[] {
      const bound = plan(range, selection);
      const days = new Map<string, DayTotals>();
      for (const row of rows<DayTotals>('s.day AS day, COUNT(*) AS sessions, COUNT(DISTINCT s.visitor_id) AS visitors', bound.sessions, { sql: ' GROUP BY s.day', args: [] })) {
        days.set(row.day, { ...row, pageviews: 0 });
      }
      for (const { day, pageviews } of rows<{ day: string; pageviews: number }>('e.day AS day, COUNT(*) AS pageviews', bound.events(0, bound.paths), { sql: ' GROUP BY e.day', args: [] })) {
        days.set(day, { day, visitors: 0, sessions: 0, ...days.get(day), pageviews });
      }
      return [...days.values()];
    },

    sessionBreakdown(range: DayRange, dimension: SessionDimension, selection = NONE): BreakdownTotals[] {
      return rows<{ value: string; visitors: number; sessions: number }>(
        `${GROUP_COLUMNS[dimension]} AS value, COUNT(*) AS sessions, COUNT(DISTINCT s.day || char(0) || s.visitor_id) AS visitors`,
        plan(range, selection).sessions, { sql: ' GROUP BY value', args: [] },
      ).map(({ value, visitors, sessions: n }) => ({ key: dimension === 'utm' ? value.split('\u0000') : [value], visitors, sessions: n }));
    },

    pages(range: DayRange, selection = NONE): PageTotals[] {
      const bound = plan(range, selection);
      const pages = new Map<string, PageTotals>();
      for (const row of rows<Omit<PageTotals, 'entrySessions' | 'entryBounces'>>(
        `e.path AS path, COUNT(*) AS pageviews, COUNT(DISTINCT e.day || char(0) || e.visitor_id) AS visitors,
           COUNT(e.gap_ms) AS timedViews, COALESCE(SUM(e.gap_ms), 0) AS timeOnPageMs`, bound.events(0, bound.paths), { sql: ' GROUP BY e.path', args: [] })) {
        pages.set(row.path, { ...row, entrySessions: 0, entryBounces: 0 });
      }
      for (const row of rows<{ path: string; entrySessions: number; entryBounces: number }>(
        `s.entry_path AS path, COUNT(*) AS entrySessions, SUM(${BOUNCE}) AS entryBounces`, bound.sessions, { sql: ' GROUP BY s.entry_path', args: [] })) {
        const page = pages.get(row.path);
        if (page) Object.assign(page, { entrySessions: row.entrySessions, entryBounces: row.entryBounces });
        else pages.set(row.path, { pageviews: 0, visitors: 0, timedViews: 0, timeOnPageMs: 0, ...row });
      }
      return [...pages.values()];
    },

    customEvents(range: DayRange, name: string | undefined, selection = NONE): EventTotals[] {
      const own = and([passes('e', selection), ...(name === undefined ? [] : [{ sql: 'e.name = ?', args: [name] }])]);
      return rows<EventTotals>('e.name AS name, COUNT(*) AS count', plan(range, selection).events(1, own), { sql: ' GROUP BY e.name', args: [] });
    },

    properties(range: DayRange, name: string, property: string | undefined, selection = NONE): PropertyTotals[] {
      const own = and([passes('e', selection), { sql: 'e.name = ?', args: [name] }]);
      const totals = new Map<string, { count: number; seen: Set<string> }>();
      for (const { day, visitor, props } of rows<{ day: string; visitor: string; props: string | null }>(
        'e.day AS day, e.visitor_id AS visitor, e.props AS props', plan(range, selection).events(1, own))) {
        for (const [key, value] of propsOf(props)) {
          if (property !== undefined && key !== property) continue;
          const k = property === undefined ? key : value;
          let row = totals.get(k);
          if (!row) totals.set(k, (row = { count: 0, seen: new Set() }));
          row.count++;
          row.seen.add(`${day}\u0000${visitor}`);
        }
      }
      return [...totals].map(([key, { count, seen }]) => ({ key, count, visitors: seen.size }));
    },

    goalTotals(range: DayRange, goals: readonly GoalDefinition[], selection = NONE): GoalTotals[] {
      const windows = new Map<string, number[]>();
      const bound = plan(range, selection, windows);
      return goals.map((goal) => {
        // A goal's visitors: those of the matching sessions that convert on it, i.e. of the selection with that condition added.
        const converting = plan(range, { ...selection, goal: [...(selection.goal ?? []), { converts: true, goals: [goal] }] }, windows);
        const [{ visitors }] = rows<{ visitors: number }>('COUNT(DISTINCT s.day || char(0) || s.visitor_id) AS visitors', converting.sessions) as [{ visitors: number }];
        const [{ conversions }] = rows<{ conversions: number }>('COUNT(*) AS conversions', bound.events(undefined, bound.meets([goal]))) as [
          { conversions: number },
        ];
        return { visitors, conversions };
      });
    },

    /**
     * Each step's visitors (storage/types.ts `funnelVisitors`): the matching sessions starting in
     * the range, each one's events that meet a step (from the span their events lie in, whatever
     * the selection), and `stepsReached` over them.
     */
    funnelVisitors(range: DayRange, steps: readonly GoalDefinition[], selection = NONE): number[] {
      const bound = plan(range, selection);
      const sessions = new Map<string, { visitor: string; events: FunnelEvent[] }>();
      let first = Infinity;
      let last = -Infinity;
      for (const { id, day, visitor, start, end } of rows<{ id: string; day: string; visitor: string; start: number; end: number }>(
        's.session_id AS id, s.day AS day, s.visitor_id AS visitor, s.start_ts AS start, s.end_ts AS end', bound.sessions)) {
        sessions.set(id, { visitor: `${day}\u0000${visitor}`, events: [] });
        first = Math.min(first, start);
        last = Math.max(last, end);
      }
      const reached = steps.map(() => new Set<string>());
      if (sessions.size === 0) return reached.map(() => 0);
      const meets = bound.meets(steps);
      for (const e of all<{ id: string; ts: number; seq: number; type: number; name: string; path: string }>(
        `SELECT e.session_id AS id, e.ts AS ts, e.seq AS seq, e.type AS type, e.name AS name, e.path AS path FROM events e
         WHERE e.site_id = ? AND e.ts BETWEEN ? AND ? AND ${meets.sql}`, [range.siteId, first, last, ...meets.args])) {
        sessions.get(e.id)?.events.push({ ts: e.ts, seq: e.seq, type: e.type === 0 ? 'pageview' : 'event', name: e.name, path: e.path });
      }
      for (const { visitor, events } of sessions.values()) {
        if (events.length === 0) continue;
        const k = stepsReached(steps, events);
        for (let i = 0; i < k; i++) reached[i]!.add(visitor);
      }
      return reached.map((visitors) => visitors.size);
    },

    hourBuckets(range: DayRange, starts: readonly number[], selection = NONE): BucketTotals[] {
      const bucketOf = (ts: number) => bucketIndex(starts, ts);
      const buckets = starts.map((start) => ({ start, visitors: 0, sessions: 0, pageviews: 0, seen: new Set<string>() }));
      const bound = plan(range, selection);
      for (const { ts, visitor } of rows<{ ts: number; visitor: string }>('s.start_ts AS ts, s.visitor_id AS visitor', bound.sessions)) {
        const row = buckets[bucketOf(ts)]!;
        row.sessions++;
        row.seen.add(visitor);
      }
      for (const { ts } of rows<{ ts: number }>('e.ts AS ts', bound.events(0, bound.paths))) buckets[bucketOf(ts)]!.pageviews++;
      return buckets
        .filter((r) => r.sessions > 0 || r.pageviews > 0)
        .map(({ start, sessions: n, pageviews, seen }) => ({ start, visitors: seen.size, sessions: n, pageviews }));
    },
  };
}

export type RawSelectionReads = ReturnType<typeof createRawSelectionReads>;
