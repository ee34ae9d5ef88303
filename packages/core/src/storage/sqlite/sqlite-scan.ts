/**
 * The filtered reads over the column cache: a `Selection` evaluated per chunk
 * (each condition once per distinct value, then typed-array scans), summed into
 * the same totals the raw definition gives (sqlite-selection-raw.ts; a
 * differential test holds them equal).
 */
import type { GoalDefinition } from '../../goals/goal.js';
import { bucketIndex } from '../selection.js';
import type {
  BreakdownTotals, BucketTotals, DayRange, DayTotals, EventTotals, GoalTotals, PageTotals, PropertyTotals, Selection, SessionDimension, SummaryTotals,
} from '../types.js';
import type { ColumnCache } from './sqlite-column-cache.js';
import { ATTRIBUTES, type DayChunk, type GoalHits } from './sqlite-columns.js';
import { addFunnelVisitors, chunkFunnelLevels, stepsKey } from './sqlite-scan-funnel.js';
import { compile, type CompiledSelection, Counters, eventsOf, GoalMasks } from './sqlite-scan-selection.js';

const NONE: Selection = { session: [], page: [], event: [] };

/** Goals whose hits a chunk keeps (a site has at most 100). */
const MAX_GOAL_HITS = 256;

/** Where each of `goals` converts in the chunk (`any`: masks of all of them, to skip the events that meet none). */
function goalHits(chunk: DayChunk, goals: readonly GoalDefinition[], any: GoalMasks, dicts: Parameters<typeof compile>[1]): GoalHits[] {
  const meetsAny = any.meets();
  const meets = goals.map((g) => new GoalMasks([g], dicts).meets());
  const [day, outside] = eventsOf(chunk);
  const converts = goals.map(() => new Uint8Array(chunk.sessions));
  const events: number[][] = goals.map(() => []);
  for (const list of [day, outside]) {
    for (let i = 0; i < list.session.length; i++) {
      if (!meetsAny(list, i)) continue;
      const s = list.session[i]!;
      for (let g = 0; g < goals.length; g++) {
        if (!meets[g]!(list, i)) continue;
        converts[g]![s] = 1;
        if (list === day) events[g]!.push(s);
      }
    }
  }
  return goals.map((_, g) => {
    const own: number[] = [];
    for (let s = 0; s < chunk.own; s++) if (converts[g]![s]) own.push(s);
    return { own: Int32Array.from(own), events: Int32Array.from(events[g]!) };
  });
}

/** The filtered reads (and `hourBuckets`, also unfiltered: no selection selects everything) over `cache`. */
export function createColumnReads(cache: ColumnCache, timezoneOf: (siteId: string) => string) {
  /**
   * Runs `each` over the range's chunks with the sessions that match and a visitor-group base unique
   * across chunks; the days too large for the cache go to `raw` (the caller reads them from the raw tables).
   */
  const scan = (range: DayRange, selection: Selection, raw: string[], each: (chunk: DayChunk, match: Uint8Array, base: number, c: CompiledSelection) => void) => {
    const compiled = compile(selection, cache.dictionaries(range.siteId));
    let base = 0;
    for (const chunk of cache.forRange(range, timezoneOf(range.siteId), raw)) {
      each(chunk, compiled.matching(chunk), base, compiled);
      base += chunk.groups;
    }
  };
  /** Calls `add(event)` for each selected pageview of the chunk. */
  const selected = (chunk: DayChunk, match: Uint8Array, bits: Uint8Array | undefined, add: (e: number) => void) => {
    const { evSession, evPageview, evCode } = chunk;
    for (let e = 0; e < evSession.length; e++) {
      if (evPageview[e] === 1 && match[evSession[e]!] && (!bits || bits[evCode[e]!])) add(e);
    }
  };
  /** Calls `add(event)` for each selected custom event of the chunk (of one name code, when given): those of matching sessions that pass. */
  const selectedCustom = (chunk: DayChunk, match: Uint8Array, c: CompiledSelection, add: (e: number) => void, nameCode?: number) => {
    const pass = c.passes();
    const [day] = eventsOf(chunk);
    const { evSession, evPageview, evCode } = chunk;
    for (let e = 0; e < evSession.length; e++) {
      if (evPageview[e] === 0 && match[evSession[e]!] && (nameCode === undefined || evCode[e] === nameCode) && (!pass || pass(day, e))) add(e);
    }
  };
  /** Visits the matching own sessions, with whether each is the first of its visitor group in this chunk. */
  const sessions = (chunk: DayChunk, match: Uint8Array, visit: (s: number, newVisitor: boolean) => void) => {
    let last = -1;
    for (let s = 0; s < chunk.own; s++) {
      if (!match[s]) continue;
      const v = chunk.visitor[s]!;
      visit(s, v !== last);
      last = v;
    }
  };
  const perDay = (range: DayRange, selection: Selection, raw: string[]) => {
    const days: (SummaryTotals & { day: string })[] = [];
    scan(range, selection, raw, (chunk, match, _base, c) => {
      const t = { day: chunk.day, visitors: 0, sessions: 0, bounces: 0, durationMs: 0, pageviews: 0 };
      sessions(chunk, match, (s, newVisitor) => {
        t.sessions++;
        t.bounces += chunk.bounce[s]!;
        t.durationMs += chunk.durationMs[s]!;
        if (newVisitor) t.visitors++;
      });
      selected(chunk, match, c.pageBits(), () => t.pageviews++);
      if (t.sessions > 0 || t.pageviews > 0) days.push(t);
    });
    return days;
  };

  return {
    /** For `ColumnCache.prepare`: computes which of a chunk's sessions match `selection` (kept in the chunk for the scan). */
    matcher(siteId: string, selection: Selection): (chunk: DayChunk) => void {
      const compiled = compile(selection, cache.dictionaries(siteId));
      return (chunk) => void compiled.matching(chunk);
    },

    summary(range: DayRange, selection = NONE, raw: string[] = []): SummaryTotals {
      const total = { visitors: 0, sessions: 0, bounces: 0, durationMs: 0, pageviews: 0 };
      for (const d of perDay(range, selection, raw)) {
        total.visitors += d.visitors;
        total.sessions += d.sessions;
        total.bounces += d.bounces;
        total.durationMs += d.durationMs;
        total.pageviews += d.pageviews;
      }
      return total;
    },

    timeseries: (range: DayRange, selection = NONE, raw: string[] = []): DayTotals[] =>
      perDay(range, selection, raw).map(({ day, visitors, sessions: n, pageviews }) => ({ day, visitors, sessions: n, pageviews })),

    sessionBreakdown(range: DayRange, dimension: SessionDimension, selection = NONE, raw: string[] = []): BreakdownTotals[] {
      const dicts = cache.dictionaries(range.siteId);
      // One attribute, or the UTM triple (codes below 2^26 each, so b * 2^26 + c is exact).
      const indexes = dimension === 'utm' ? [7, 8, 9] : [ATTRIBUTES.indexOf(dimension), -1, -1];
      const groups = new Map<number, Map<number, { key: number[]; visitors: number; sessions: number; stamp: number }>>();
      scan(range, selection, raw, (chunk, match, base) => {
        const [first, second, third] = indexes.map((a) => (a < 0 ? undefined : chunk.attributes[a]!));
        sessions(chunk, match, (s) => {
          const a = first![s]!;
          const bc = second ? second[s]! * 67_108_864 + third![s]! : 0;
          let inner = groups.get(a);
          if (!inner) groups.set(a, (inner = new Map()));
          let g = inner.get(bc);
          if (!g) inner.set(bc, (g = { key: second ? [a, second[s]!, third![s]!] : [a], visitors: 0, sessions: 0, stamp: -1 }));
          g.sessions++;
          const stamp = base + chunk.visitor[s]!;
          if (g.stamp !== stamp) {
            g.stamp = stamp;
            g.visitors++;
          }
        });
      });
      return [...groups.values()].flatMap((inner) => [...inner.values()]).map((g) => ({
        key: g.key.map((code, i) => dicts.attributes[indexes[i]!]!.values[code]!),
        visitors: g.visitors,
        sessions: g.sessions,
      }));
    },

    pages(range: DayRange, selection = NONE, raw: string[] = []): PageTotals[] {
      const dicts = cache.dictionaries(range.siteId);
      const counters = new Counters(6); // pageviews, visitors, timed views, time on page, entry sessions, entry bounces
      let stamps = Counters.stamps(64);
      scan(range, selection, raw, (chunk, match, base, c) => {
        const [pv, vis, timed, top, es, eb] = counters.fit(dicts.paths.values.length);
        stamps = Counters.stamps(dicts.paths.values.length, stamps);
        const { evCode, evVisitor, evGap } = chunk;
        selected(chunk, match, c.pageBits(), (e) => {
          const p = evCode[e]!;
          pv![p]!++;
          const stamp = base + evVisitor[e]!;
          if (stamps[p] !== stamp) {
            stamps[p] = stamp;
            vis![p]!++;
          }
          const gap = evGap[e]!;
          if (gap === gap) {
            timed![p]!++;
            top![p]! += gap;
          }
        });
        const entries = chunk.attributes[0]!;
        sessions(chunk, match, (s) => {
          es![entries[s]!]!++;
          eb![entries[s]!]! += chunk.bounce[s]!;
        });
      });
      const [pv, vis, timed, top, es, eb] = counters.fit(dicts.paths.values.length);
      const out: PageTotals[] = [];
      dicts.paths.values.forEach((path, p) => {
        if (pv![p] || es![p]) {
          out.push({ path, pageviews: pv![p]!, visitors: vis![p]!, timedViews: timed![p]!, timeOnPageMs: top![p]!, entrySessions: es![p]!, entryBounces: eb![p]! });
        }
      });
      return out;
    },

    customEvents(range: DayRange, name: string | undefined, selection = NONE, raw: string[] = []): EventTotals[] {
      const dicts = cache.dictionaries(range.siteId);
      const counts = new Map<number, number>();
      scan(range, selection, raw, (chunk, match, _base, c) => {
        selectedCustom(chunk, match, c, (e) => {
          const code = chunk.evCode[e]!;
          counts.set(code, (counts.get(code) ?? 0) + 1);
        });
      });
      return [...counts]
        .map(([code, count]) => ({ name: dicts.names.values[code]!, count }))
        .filter((row) => name === undefined || row.name === name);
    },

    /** Selected custom events named `name` by property key, or by the value of `property` (storage/types.ts `properties`). */
    properties(range: DayRange, name: string, property: string | undefined, selection = NONE, raw: string[] = []): PropertyTotals[] {
      const dicts = cache.dictionaries(range.siteId);
      // By key code, or by value code of the one key; codes of both grow while the range loads.
      const dict = property === undefined ? dicts.propKeys : dicts.propValues;
      const counters = new Counters(2); // count, visitors
      let stamps = Counters.stamps(64);
      scan(range, selection, raw, (chunk, match, base, c) => {
        const nameCode = dicts.names.find(name);
        const keyCode = property === undefined ? -1 : dicts.propKeys.find(property);
        if (nameCode === undefined || keyCode === undefined) return;
        const [count, visitors] = counters.fit(dict.values.length);
        stamps = Counters.stamps(dict.values.length, stamps);
        const { evProps, evPropKey, evPropValue, evVisitor } = chunk;
        selectedCustom(chunk, match, c, (e) => {
          const stamp = base + evVisitor[e]!;
          for (let j = evProps[e]!; j < evProps[e + 1]!; j++) {
            if (keyCode >= 0 && evPropKey[j] !== keyCode) continue;
            const code = keyCode >= 0 ? evPropValue[j]! : evPropKey[j]!;
            count![code]!++;
            if (stamps[code] !== stamp) {
              stamps[code] = stamp;
              visitors![code]!++;
            }
          }
        }, nameCode);
      });
      const [count, visitors] = counters.fit(dict.values.length);
      const out: PropertyTotals[] = [];
      dict.values.forEach((key, code) => {
        if (count![code]) out.push({ key, count: count![code]!, visitors: visitors![code]! });
      });
      return out;
    },

    /**
     * Each goal's visitors (matching sessions starting in the range that convert) and
     * conversions (storage/types.ts `goalTotals`). Where a goal converts in a chunk does not
     * depend on the query: it is worked out once per chunk and goal (`goalHits`), so a query
     * touches only the goal's converting sessions and events.
     */
    goalTotals(range: DayRange, goals: readonly GoalDefinition[], selection = NONE, raw: string[] = []): GoalTotals[] {
      const dicts = cache.dictionaries(range.siteId);
      const keys = goals.map((g) => `${g.type}\u0000${g.value}`);
      const totals = goals.map(() => ({ visitors: 0, conversions: 0, stamp: -1 }));
      scan(range, selection, raw, (chunk, match, base) => {
        const missing = goals.map((_, g) => g).filter((g) => !chunk.goalHits.has(keys[g]!));
        if (missing.length > 0) {
          if (chunk.goalHits.size + missing.length > MAX_GOAL_HITS) chunk.goalHits.clear();
          goalHits(chunk, missing.map((g) => goals[g]!), new GoalMasks(missing.map((g) => goals[g]!), dicts), dicts)
            .forEach((hits, i) => chunk.goalHits.set(keys[missing[i]!]!, hits));
        }
        for (let g = 0; g < goals.length; g++) {
          const hits = chunk.goalHits.get(keys[g]!)!;
          const t = totals[g]!;
          for (const s of hits.events) t.conversions += match[s]!;
          for (const s of hits.own) {
            if (!match[s]) continue;
            const stamp = base + chunk.visitor[s]!;
            if (t.stamp !== stamp) {
              t.stamp = stamp;
              t.visitors++;
            }
          }
        }
      });
      return totals.map(({ visitors, conversions }) => ({ visitors, conversions }));
    },

    /**
     * Each step's visitors (storage/types.ts `funnelVisitors`): how far each session gets does not
     * depend on the query, so it is worked out once per chunk and funnel (sqlite-scan-funnel.ts).
     */
    funnelVisitors(range: DayRange, steps: readonly GoalDefinition[], selection = NONE, raw: string[] = []): number[] {
      const dicts = cache.dictionaries(range.siteId);
      const key = stepsKey(steps);
      const totals = steps.map(() => 0);
      const stamps = new Float64Array(steps.length).fill(-1);
      scan(range, selection, raw, (chunk, match, base) => addFunnelVisitors(chunk, chunkFunnelLevels(chunk, steps, key, dicts), match, base, totals, stamps));
      return totals;
    },

    hourBuckets(range: DayRange, starts: readonly number[], selection = NONE, raw: string[] = []): BucketTotals[] {
      const rows = starts.map((start) => ({ start, visitors: 0, sessions: 0, pageviews: 0, stamp: -1 }));
      const bucketOf = (ts: number) => rows[bucketIndex(starts, ts)]!;
      scan(range, selection, raw, (chunk, match, base, c) => {
        sessions(chunk, match, (s) => {
          const row = bucketOf(chunk.startTs[s]!);
          row.sessions++;
          const stamp = base + chunk.visitor[s]!;
          if (row.stamp !== stamp) {
            row.stamp = stamp;
            row.visitors++;
          }
        });
        selected(chunk, match, c.pageBits(), (e) => bucketOf(chunk.evTs[e]!).pageviews++);
      });
      return rows.filter((r) => r.sessions > 0 || r.pageviews > 0).map(({ start, visitors, sessions: n, pageviews }) => ({ start, visitors, sessions: n, pageviews }));
    },
  };
}
