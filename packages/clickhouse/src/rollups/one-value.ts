import { type BreakdownTotals, dayStart, type DayRange, type DayTotals, type GoalDefinition, type GoalTotals, type PageTotals, runsOf, type Selection, type SessionDimension, shiftDay, type SummaryTotals } from '@siteline/core';
import { outsideDateType, readDay } from '../schema/days.js';
import { valueDaySumsSql, type VisitorSources } from '../reads/queries.js';
import type { SchemaTarget } from '../schema/schema.js';
import type { WriterIO } from '../write/writer.js';
import type { VisitorReads } from './visitors.js';
import { chunks } from '../connection/parts.js';
import { type BuiltDay, createBackgroundCounts } from './day-counts.js';
import { BREAKDOWNS, countedDaysSql, type ValueBreakdown, valueBreakdownSql, valueBreakdownsCountSql } from './value-breakdowns.js';
import { keySessionDaysSql, VALUE_DIMENSIONS, valuePageviewDaysSql, valuePagesSql } from './value-pages.js';
import { countedKeysSql, valueFunnelCountSql, valueGoalsCountSql, valueKeysSql, type ValueKind } from './value-goals.js';
import { goalKey } from './goal-visitors.js';
import { sameSteps, stepValue } from './funnel-visitors.js';

/**
 * The session attributes whose values the rollups keep per day: sessions, bounces and
 * duration in `dim_totals`, daily visitors in `visitor_rollups`, pages in `value_pages`
 * (entry pages have no visitor counts there, UTM values are kept as one triple).
 */
const PER_VALUE = VALUE_DIMENSIONS;
type PerValue = (typeof PER_VALUE)[number];

/** A condition `dimension is value` the rollups answer per value. */
export interface OneValue {
  dimension: PerValue;
  value: string;
}

/**
 * A key of a session the rollups answer a condition by (value-pages.ts `SESSION_KEYS`): a
 * value of a per-value attribute, a path it has a pageview of (`page`), or a name of its
 * custom events (`event`).
 */
export interface OneKey {
  dimension: PerValue | 'page' | 'event';
  value: string;
}

/**
 * The key whose sessions `selection` selects, when it is one condition and nothing else: the
 * dashboard's usual filter (a click on a country, a channel, a browser, a page, a goal).
 * - `attribute is value`, one value, on an attribute of `PER_VALUE`;
 * - `page is path`, one path: its sessions, and of their pageviews those of the path;
 * - `event is name`, one name, or a goal condition converting on one event goal: the sessions
 *   with a custom event of the name, all their pageviews (the custom events they select differ,
 *   but `/events` and `/properties` are read raw).
 *
 * `undefined` for any other selection.
 * @example oneKey(compileSelection([['is', 'page', ['/pricing']]])!) // { dimension: 'page', value: '/pricing' }
 */
export function oneKey(selection: Selection): OneKey | undefined {
  const { session, page, event, prop = [], goal = [] } = selection;
  if (session.length + page.length + event.length + prop.length + goal.length !== 1) return undefined;
  const single = (c: { operator: string; values: readonly string[] }) => c.operator === 'is' && c.values.length === 1;
  const [s] = session;
  if (s) {
    const dimension = PER_VALUE.find((d) => d === s.attribute);
    return dimension !== undefined && single(s) ? { dimension, value: s.values[0]! } : undefined;
  }
  if (page[0]) return single(page[0]) ? { dimension: 'page', value: page[0].values[0]! } : undefined;
  if (event[0]) return single(event[0]) ? { dimension: 'event', value: event[0].values[0]! } : undefined;
  const [g] = goal;
  if (!g || !g.converts || g.goals.length !== 1 || g.goals[0]!.type !== 'event') return undefined;
  return { dimension: 'event', value: g.goals[0]!.value };
}

/** A key of a session's pages or events (`key_sessions`), not of its attributes (`dim_totals`, `visitor_rollups`). */
const contentKey = (key: OneKey): key is OneKey & { dimension: 'page' | 'event' } => key.dimension === 'page' || key.dimension === 'event';

/** `oneKey` when it is an attribute's value (`dim_totals` and `visitor_rollups` hold the value's sessions and visitors per day). */
function oneValue(selection: Selection): OneValue | undefined {
  const one = oneKey(selection);
  if (one === undefined) return undefined;
  const dimension = PER_VALUE.find((d) => d === one.dimension);
  return dimension === undefined ? undefined : { dimension, value: one.value };
}

/** What the one-value reads take from the filtered reads (reads/selection.ts). */
export interface SelectedReads {
  summary(r: DayRange, selection: Selection): Promise<SummaryTotals>;
  timeseries(r: DayRange, selection: Selection): Promise<DayTotals[]>;
  pageviewsBySession(r: DayRange, selection: Selection): Promise<number>;
  pageviewDays(r: DayRange, selection: Selection): Promise<Map<string, number>>;
  pages(r: DayRange, selection: Selection): Promise<PageTotals[]>;
  sessionBreakdown(r: DayRange, dimension: SessionDimension, selection: Selection): Promise<BreakdownTotals[]>;
  goalTotals(r: DayRange, goals: readonly GoalDefinition[], selection: Selection): Promise<GoalTotals[]>;
  funnelVisitors(r: DayRange, steps: readonly GoalDefinition[], selection: Selection): Promise<number[]>;
}

/** Whether the session breakdown by `dimension` under one value is counted per day (value-breakdowns.ts). */
export const countedBreakdown = (dimension: SessionDimension): dimension is ValueBreakdown => (BREAKDOWNS as readonly string[]).includes(dimension);

/**
 * `summary`, `summaryVisitors` and `timeseries` under one condition `attribute is value`
 * (`oneValue`), from the rollups instead of a scan of the range's session rows:
 * sessions, bounces and duration are the value's per-day sums in `dim_totals`, visitors its
 * daily counts in `visitor_rollups` on settled days (the raw rows of that value on the
 * others), through `visitorsBy` (visitors.ts). A session has one value, so these are exactly the sums
 * of the matching sessions. Pageviews are the range's pageviews of the matching sessions: on
 * settled days the value's `value_pages` rows summed per day, on the others read raw (by
 * session for the summary: their `pageview_count`, and the pageviews of those crossing the
 * run's ends; per day from the pageview rows for the timeseries), a sum over days either way.
 *
 * `pages` sums the value's rows of `value_pages` on settled days (value-pages.ts) and reads
 * the other days (today, a day written since its build) with the filtered read, one run of
 * consecutive days at a time: every figure of a page is a sum over days (pageviews and time
 * on page by the pageview's day, visitors distinct per day, entries by the session's start
 * day), so the parts add up to the filtered read of the whole range.
 *
 * `sessionBreakdown` (every breakdown but the entry page, `countedBreakdown`) sums the value's
 * rows of `value_breakdowns` on the settled days counted so far, reads the other days raw in
 * the same runs, and has the settled ones among them counted in the background
 * (value-breakdowns.ts): sessions and daily visitors are sums over days too.
 *
 * `goalTotals` and `funnelVisitors` (of a saved funnel's steps) do the same with the rows of
 * `value_goals` (value-goals.ts): conversions are sums over the events' days, visitors over the
 * sessions' start days. Steps that are no saved funnel's are read raw, as unfiltered.
 *
 * Every read here also answers a page or an event name (`oneKey`: `page is path`, `event is
 * name`, a goal condition on an event goal): its sessions are those with the path among their
 * `paths` or the name among their `names`, counted by that key as by an attribute's value;
 * `summary`, `summaryVisitors` and `timeseries` take their sessions from `key_sessions`, and
 * pageviews from `value_pages` (under a page, the path's own: those the condition selects).
 */
export function createOneValueReads(
  io: Pick<WriterIO, 'rows'>,
  target: SchemaTarget,
  options: {
    visitorsBy: VisitorReads;
    selected: SelectedReads;
    /** Where each day's counts come from (rollups.ts `sources`). */
    sources: (range: DayRange) => Promise<VisitorSources>;
    /** The site's time zone (the days' instants of a run read raw). */
    timezoneOf: (siteId: string) => Promise<string | undefined>;
    /** The steps of the site's saved funnels. */
    savedSteps: (siteId: string) => Promise<readonly (readonly GoalDefinition[])[]>;
    /** Runs an `INSERT ... SELECT` (with the insert settings): the breakdown and goal counts per value. */
    command: (query: string) => Promise<void>;
  },
) {
  const counts = createBackgroundCounts(options.command);
  /** Counts the breakdowns of `uncounted` in the background, a day a statement (a day's pairs are 42 rows a session). */
  const countLater = (siteId: string, uncounted: readonly BuiltDay[]) =>
    counts.later(`${siteId}\u0000breakdowns`, uncounted, (fresh) => chunks(fresh, 1), (part) => valueBreakdownsCountSql(target, siteId, part));
  /** Counts `goals` on `uncounted` in the background, a day a statement, in the same queue as the breakdowns. */
  const countGoalsLater = (siteId: string, uncounted: readonly BuiltDay[], goals: readonly GoalDefinition[]) =>
    counts.later(`${siteId}\u0000goals`, uncounted, (fresh) => chunks(fresh, 1), (part) => valueGoalsCountSql(target, siteId, part, goals));
  /**
   * Counts the saved funnel `steps` on `uncounted` in the background, a day a statement. Never
   * rejects: a site that cannot be read leaves the days raw, as a failed count does.
   */
  const countStepsLater = (siteId: string, uncounted: readonly BuiltDay[], steps: readonly GoalDefinition[]) =>
    options.timezoneOf(siteId).then((found) => {
      const zone = found ?? 'UTC';
      counts.later(`${siteId}\u0000${stepValue(steps, 0)}`, uncounted, (fresh) => chunks(fresh, 1), (part) =>
        valueFunnelCountSql(target, { siteId, from: part[0]!.day, to: part[0]!.day, startMs: dayStart(part[0]!.day, zone), endMs: dayStart(shiftDay(part[0]!.day, 1), zone) }, part, steps));
    }).catch(() => {});
  /** Which of the settled days `built` have every key of `keys` (of `kind`) counted. */
  const keysCountedOf = async (siteId: string, kind: ValueKind, built: readonly BuiltDay[], keys: readonly string[]) => {
    if (built.length === 0) return { counted: [], uncounted: [] };
    const found = new Map<string, Set<string>>();
    for (const row of await io.rows<{ d: string; k: string }>(countedKeysSql(target, siteId, kind, built, keys))) {
      const day = readDay(row.d);
      found.set(day, (found.get(day) ?? new Set()).add(row.k));
    }
    const done = (b: BuiltDay) => keys.every((k) => found.get(b.day)?.has(k));
    return { counted: built.filter(done), uncounted: built.filter((b) => !done(b)) };
  };
  /**
   * The counts of `keys` (of `kind`) under one value over the range's counted days, beside
   * `rawRead` of the others (one run of consecutive days at a time); the uncounted settled days
   * among them are handed to `later`.
   */
  const keyCounts = async <R>(r: DayRange, kind: ValueKind, { dimension, value }: OneKey, keys: readonly string[], rawRead: (part: DayRange) => Promise<R>, later: (uncounted: readonly BuiltDay[]) => unknown) => {
    const sources = await options.sources(r);
    const { counted, uncounted } = await keysCountedOf(r.siteId, kind, sources.built, keys);
    const { built, raw } = await settledAndRaw(
      r,
      { built: counted, raw: [...sources.raw, ...uncounted.map((u) => u.day)] },
      () => io.rows<{ k: string; c: string; v: string }>(valueKeysSql(target, r, kind, dimension, value, keys, counted)),
      async (part) => [await rawRead(part)],
    );
    if (uncounted.length > 0) later(uncounted);
    return { counted: new Map(built.map((b) => [b.k, { conversions: Number(b.c), visitors: Number(b.v) }])), raw };
  };
  /** Which of the settled days `built` have their breakdowns counted. */
  const countedOf = async (siteId: string, built: readonly BuiltDay[]) => {
    if (built.length === 0) return { counted: [], uncounted: [] };
    const found = new Set((await io.rows<{ d: string }>(countedDaysSql(target, siteId, built))).map((row) => readDay(row.d)));
    return { counted: built.filter((b) => found.has(b.day)), uncounted: built.filter((b) => !found.has(b.day)) };
  };
  const condition = (selection: Selection) => {
    const one = oneValue(selection);
    if (!one) throw new Error('one-value reads take one condition `is` with one value on a per-value attribute');
    return one;
  };
  const keyCondition = (selection: Selection) => {
    const one = oneKey(selection);
    if (!one) throw new Error('reads per key take one condition `is` with one value on a per-value attribute, a page or an event, or one event goal');
    return one;
  };
  const sums = (r: DayRange, { dimension, value }: OneValue) =>
    io.rows<{ d: string; n: string; b: string; dur: string }>(valueDaySumsSql(target, r, dimension, value));
  const visitors = (r: DayRange, { dimension, value }: OneValue) => options.visitorsBy(r, dimension, value);
  const total = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);
  /**
   * The rows of the range's settled days (`builtRows`, given their builds) beside the filtered
   * read of its other days (`rawRead`, once per run of consecutive days).
   */
  const settledAndRaw = async <B, R>(r: DayRange, sources: VisitorSources, builtRows: (sources: VisitorSources) => Promise<B[]>, rawRead: (part: DayRange) => Promise<R[]>) => {
    const zone = (await options.timezoneOf(r.siteId)) ?? 'UTC';
    const part = ({ from, to }: { from: string; to: string }): DayRange => ({ siteId: r.siteId, from, to, startMs: dayStart(from, zone), endMs: dayStart(shiftDay(to, 1), zone) });
    const [built, ...raw] = await Promise.all([
      sources.built.length === 0 ? [] : builtRows(sources),
      ...runsOf([...sources.raw].sort()).map((run) => rawRead(part(run))),
    ]);
    return { built: built as B[], raw: (raw as R[][]).flat() };
  };

  /**
   * Under a page or event name key, per day of the range: on settled days the sessions,
   * bounces, duration and visitors of its sessions (`key_sessions`) and the pageviews it
   * selects (`value_pages`), summed per day; `rawRead` of the other days' runs.
   */
  const keyDays = async <R>(r: DayRange, key: OneKey & { dimension: 'page' | 'event' }, rawRead: (part: DayRange) => Promise<R>) =>
    settledAndRaw(
      r,
      await options.sources(r),
      async (sources) => {
        const [sessions, views] = await Promise.all([
          io.rows<{ d: string; n: string; b: string; dur: string; v: string }>(keySessionDaysSql(target, r, key.dimension, key.value, sources)),
          io.rows<{ d: string; pv: string }>(valuePageviewDaysSql(target, r, key.dimension, key.value, sources)),
        ]);
        const days = new Map<string, DayTotals & Pick<SummaryTotals, 'bounces' | 'durationMs'>>();
        const at = (d: string) => {
          const day = readDay(d);
          if (!days.has(day)) days.set(day, { day, visitors: 0, sessions: 0, pageviews: 0, bounces: 0, durationMs: 0 });
          return days.get(day)!;
        };
        for (const x of sessions) Object.assign(at(x.d), { sessions: Number(x.n), bounces: Number(x.b), durationMs: Number(x.dur), visitors: Number(x.v) });
        for (const x of views) at(x.d).pageviews = Number(x.pv);
        return [...days.values()];
      },
      async (part) => [await rawRead(part)],
    );

  /** `summary` under a page or event name key: the sums of `keyDays` and of the raw runs' summaries. */
  const keySummary = async (r: DayRange, key: OneKey & { dimension: 'page' | 'event' }, selection: Selection): Promise<SummaryTotals> => {
    const totals = { visitors: 0, sessions: 0, bounces: 0, durationMs: 0, pageviews: 0 };
    const { built, raw } = await keyDays(r, key, (part) => options.selected.summary(part, selection));
    for (const part of [...built, ...raw]) for (const k of Object.keys(totals) as (keyof SummaryTotals)[]) totals[k] += part[k];
    return totals;
  };

  /** The value's pageviews of the range: per settled day from `value_pages` (`built`), `rawRead` of the other days' runs. */
  const pageviewsOf = async <R>(r: DayRange, { dimension, value }: OneValue, rawRead: (part: DayRange) => Promise<R>) =>
    settledAndRaw(
      r,
      await options.sources(r),
      (sources) => io.rows<{ d: string; pv: string }>(valuePageviewDaysSql(target, r, dimension, value, sources)),
      async (part) => [await rawRead(part)],
    );

  return {
    async summary(r: DayRange, selection: Selection): Promise<SummaryTotals> {
      const totals = { visitors: 0, sessions: 0, bounces: 0, durationMs: 0, pageviews: 0 };
      if (outsideDateType(r)) return totals;
      const key = keyCondition(selection);
      if (contentKey(key)) return keySummary(r, key, selection);
      const one = condition(selection);
      const [days, byDay, views] = await Promise.all([sums(r, one), visitors(r, one), pageviewsOf(r, one, (part) => options.selected.pageviewsBySession(part, selection))]);
      const pageviews = total(views.built.map((v) => Number(v.pv))) + total(views.raw);
      for (const d of days) {
        totals.sessions += Number(d.n);
        totals.bounces += Number(d.b);
        totals.durationMs += Number(d.dur);
      }
      return { ...totals, visitors: total(byDay.values()), pageviews };
    },

    async visitors(r: DayRange, selection: Selection): Promise<number> {
      if (outsideDateType(r)) return 0;
      const key = keyCondition(selection);
      if (contentKey(key)) return (await keySummary(r, key, selection)).visitors;
      return total((await visitors(r, condition(selection))).values());
    },

    async timeseries(r: DayRange, selection: Selection): Promise<DayTotals[]> {
      if (outsideDateType(r)) return [];
      const key = keyCondition(selection);
      if (contentKey(key)) {
        // Each raw run's days are its own, so the days of the parts never meet.
        const { built, raw } = await keyDays(r, key, (part) => options.selected.timeseries(part, selection));
        return [...built.map(({ day, visitors, sessions, pageviews }) => ({ day, visitors, sessions, pageviews })), ...raw.flat()];
      }
      const one = condition(selection);
      const [days, byDay, views] = await Promise.all([sums(r, one), visitors(r, one), pageviewsOf(r, one, (part) => options.selected.pageviewDays(part, selection))]);
      const out = new Map<string, DayTotals>();
      for (const d of days) {
        const day = readDay(d.d);
        out.set(day, { day, visitors: byDay.get(day) ?? 0, sessions: Number(d.n), pageviews: 0 });
      }
      const perDay = [...views.built.map((v): [string, number] => [readDay(v.d), Number(v.pv)]), ...views.raw.flatMap((part) => [...part])];
      for (const [day, pageviews] of perDay) if (pageviews > 0) out.set(day, { day, visitors: 0, sessions: 0, ...out.get(day), pageviews });
      return [...out.values()];
    },

    async pages(r: DayRange, selection: Selection): Promise<PageTotals[]> {
      if (outsideDateType(r)) return [];
      const { dimension, value } = keyCondition(selection);
      const { built, raw } = await settledAndRaw(
        r,
        await options.sources(r),
        (sources) => io.rows<{ p: string; pv: string; vis: string; tv: string; tm: string; en: string; bo: string }>(valuePagesSql(target, r, dimension, value, sources)),
        (part) => options.selected.pages(part, selection),
      );
      const sums = new Map<string, PageTotals>();
      const add = (p: PageTotals) => {
        const known = sums.get(p.path);
        if (!known) sums.set(p.path, { ...p });
        else {
          for (const key of ['pageviews', 'visitors', 'timedViews', 'timeOnPageMs', 'entrySessions', 'entryBounces'] as const) known[key] += p[key];
        }
      };
      for (const b of built) {
        add({
          path: b.p, pageviews: Number(b.pv), visitors: Number(b.vis), timedViews: Number(b.tv), timeOnPageMs: Number(b.tm),
          entrySessions: Number(b.en), entryBounces: Number(b.bo),
        });
      }
      for (const p of raw) add(p);
      // As the filtered read: a path with pageviews, or one with entries only (no time on page then).
      const out: PageTotals[] = [];
      for (const p of sums.values()) {
        const entries = p.entrySessions > 0 ? { entrySessions: p.entrySessions, entryBounces: p.entryBounces } : { entrySessions: 0, entryBounces: 0 };
        if (p.pageviews > 0) out.push({ ...p, ...entries });
        else if (entries.entrySessions > 0) out.push({ path: p.path, pageviews: 0, visitors: 0, timedViews: 0, timeOnPageMs: 0, ...entries });
      }
      return out;
    },

    async sessionBreakdown(r: DayRange, dimension: ValueBreakdown, selection: Selection): Promise<BreakdownTotals[]> {
      if (outsideDateType(r)) return [];
      const one = keyCondition(selection);
      const sources = await options.sources(r);
      const { counted, uncounted } = await countedOf(r.siteId, sources.built);
      const { built, raw } = await settledAndRaw(
        r,
        { built: counted, raw: [...sources.raw, ...uncounted.map((u) => u.day)] },
        () => io.rows<{ k: string; n: string; v: string }>(valueBreakdownSql(target, r, one.dimension, one.value, dimension, counted)),
        (part) => options.selected.sessionBreakdown(part, dimension, selection),
      );
      if (uncounted.length > 0) countLater(r.siteId, uncounted);
      const sums = new Map<string, BreakdownTotals>();
      const add = (key: string[], sessions: number, visitors: number) => {
        const id = key.join('\u0000');
        const known = sums.get(id);
        if (!known) sums.set(id, { key, sessions, visitors });
        else {
          known.sessions += sessions;
          known.visitors += visitors;
        }
      };
      for (const b of built) add(dimension === 'utm' ? b.k.split('\u0000') : [b.k], Number(b.n), Number(b.v));
      for (const x of raw) add(x.key, x.sessions, x.visitors);
      return [...sums.values()];
    },

    async goalTotals(r: DayRange, goals: readonly GoalDefinition[], selection: Selection): Promise<GoalTotals[]> {
      if (outsideDateType(r)) return goals.map(() => ({ visitors: 0, conversions: 0 }));
      const keys = [...new Set(goals.map(goalKey))];
      const { counted, raw } = await keyCounts(r, 'goal', keyCondition(selection), keys, (part) => options.selected.goalTotals(part, goals, selection), (uncounted) =>
        countGoalsLater(r.siteId, uncounted, goals));
      return goals.map((goal, i) => {
        const sum = (key: keyof GoalTotals) => (counted.get(goalKey(goal))?.[key] ?? 0) + raw.reduce((n, part) => n + part[i]![key], 0);
        return { visitors: sum('visitors'), conversions: sum('conversions') };
      });
    },

    async funnelVisitors(r: DayRange, steps: readonly GoalDefinition[], selection: Selection): Promise<number[]> {
      if (outsideDateType(r)) return steps.map(() => 0);
      const one = keyCondition(selection);
      if (!(await options.savedSteps(r.siteId)).some((saved) => sameSteps(saved, steps))) return options.selected.funnelVisitors(r, steps, selection);
      const keys = steps.map((_, i) => stepValue(steps, i));
      const { counted, raw } = await keyCounts(r, 'funnel', one, keys, (part) => options.selected.funnelVisitors(part, steps, selection), (uncounted) =>
        countStepsLater(r.siteId, uncounted, steps));
      return keys.map((key, i) => (counted.get(key)?.visitors ?? 0) + raw.reduce((n, part) => n + part[i]!, 0));
    },

    /**
     * Counts the breakdowns, `goals` and the saved funnels' `funnels` (their steps) of the
     * settled days among `built` not counted yet, in the background (after an import).
     */
    async countSettled(siteId: string, built: readonly BuiltDay[], goals: readonly GoalDefinition[], funnels: readonly (readonly GoalDefinition[])[]): Promise<void> {
      const { uncounted } = await countedOf(siteId, built);
      if (uncounted.length > 0) countLater(siteId, uncounted);
      if (goals.length > 0) {
        const goalsUncounted = (await keysCountedOf(siteId, 'goal', built, [...new Set(goals.map(goalKey))])).uncounted;
        if (goalsUncounted.length > 0) countGoalsLater(siteId, goalsUncounted, goals);
      }
      for (const steps of funnels) {
        const stepsUncounted = (await keysCountedOf(siteId, 'funnel', built, steps.map((_, i) => stepValue(steps, i)))).uncounted;
        if (stepsUncounted.length > 0) await countStepsLater(siteId, stepsUncounted, steps);
      }
    },

    /** Resolves when the counts started in the background so far are done. */
    idle: counts.idle,

    /** Starts no more counts (the store is closing). */
    stop: counts.stop,
  };
}
