/**
 * A day's slices from its chunk (sqlite-columns.ts `DayChunk`): for every session set one
 * condition selects (a slice, kinds.ts), the sums each report needs, so a one-condition
 * filter over such days is a sum of rows. What a chunk holds decides a session's slices as
 * the column cache's scan does (its events on every day, its attributes), so the sums are
 * those of the definition (storage/types.ts `Selection`), read per day:
 *
 * - totals: the slice's sessions starting on the day (visitors, sessions, bounces, duration),
 *   whole and by each breakdown dimension's value, and the pageviews of the day the slice
 *   selects (a page slice: its path's; any other: all of its sessions');
 * - pages: the day's pageviews of the slice's sessions by path (views, daily visitors, time);
 * - events: the day's custom events of the slice's sessions by name;
 * - goals: per goal, the slice's sessions starting on the day that convert (visitors) and the
 *   day's events meeting it in the slice's sessions (conversions);
 * - props: the day's custom events of the slice's sessions by name and property key, and by
 *   key and value (count, daily visitors).
 *
 * The `all` slice (every session) has goals and props only: the rollups hold the rest.
 */
import { type GoalDefinition } from '../../../goals/goal.js';
import { ATTRIBUTES, type DayChunk, type SiteDictionaries } from '../sqlite-columns.js';
import { GoalMasks } from '../sqlite-scan-selection.js';
import { BREAKDOWNS, goalKey, isPatternGoal, type SliceKind } from './kinds.js';

/** Rows of one day, as stored (store.ts). */
export interface SliceRows {
  /** kind, slice, dimension ('' for the slice's totals), value, visitors, sessions, bounces, duration ms, pageviews. */
  totals: [SliceKind, string, string, string, number, number, number, number, number][];
  /** kind, slice, path, pageviews, visitors, timed views, time on page ms. */
  pages: [SliceKind, string, string, number, number, number, number][];
  /** kind, slice, name, count. */
  events: [SliceKind, string, string, number][];
  /** kind, slice, goal key (kinds.ts `goalKey`), visitors, conversions. */
  goals: [SliceKind, string, string, number, number][];
  /** kind, slice, name, key, level (0: the key, 1: one value of it), value ('' for a key), count, visitors. */
  props: [SliceKind, string, string, string, number, string, number, number][];
}

/** Groups a day may make at most (a day of unique URLs would make millions): past it the day gets no slices and is read as before. */
export const MAX_GROUPS = 1_500_000;

/** Each breakdown dimension's attribute indexes in the chunk (`utm`: the triple). */
const DIMENSION_ATTRIBUTES = BREAKDOWNS.map((d) => (d === 'utm' ? [7, 8, 9] : [ATTRIBUTES.indexOf(d)]));

/** Sums by a numeric key, with the last visitor seen per group (rows come grouped by visitor). */
class Sums {
  readonly index = new Map<number, number>();
  readonly keys: number[] = [];
  readonly last: number[] = [];
  readonly columns: number[][];
  constructor(width: number, private readonly budget: { groups: number }) {
    this.columns = Array.from({ length: width }, () => []);
  }
  /** The group's row, made on first use. */
  at(key: number): number {
    let g = this.index.get(key);
    if (g === undefined) {
      g = this.keys.length;
      this.index.set(key, g);
      this.keys.push(key);
      this.last.push(-1);
      for (const c of this.columns) c.push(0);
      this.budget.groups++;
    }
    return g;
  }
  /** Counts `visitor` once per group. */
  visit(g: number, column: number, visitor: number): void {
    if (this.last[g] !== visitor) {
      this.last[g] = visitor;
      this.columns[column]![g]!++;
    }
  }
}

/** The same with text keys (goals and properties: few rows, keys of several parts). */
class TextSums {
  readonly rows = new Map<string, { key: string[]; last: number; values: number[] }>();
  constructor(private readonly width: number, private readonly budget: { groups: number }) {}
  at(key: string[]): { last: number; values: number[] } {
    const id = key.join('\u0000');
    let row = this.rows.get(id);
    if (!row) {
      this.rows.set(id, (row = { key, last: -1, values: new Array<number>(this.width).fill(0) }));
      this.budget.groups++;
    }
    return row;
  }
}

/**
 * The slices of `chunk`'s day (its codes read with `dicts`), for the site's `goals`; undefined
 * when the day would make more than `maxGroups` groups.
 */
export function computeSlices(chunk: DayChunk, dicts: SiteDictionaries, goals: readonly GoalDefinition[], maxGroups = MAX_GROUPS): SliceRows | undefined {
  const budget = { groups: 0 };
  const sessions = chunk.sessions;
  // Slices by number: attribute slices first (by attribute and code), then page, event and goal slices as found.
  const sliceIds = new Map<string, number>();
  const sliceKind: SliceKind[] = [];
  const sliceValue: string[] = [];
  /** For page slices, the path code (their pageviews are their path's only); -1 otherwise. */
  const slicePath: number[] = [];
  const slice = (kind: SliceKind, value: string, path = -1): number => {
    const id = `${kind}\u0000${value}`;
    let s = sliceIds.get(id);
    if (s === undefined) {
      s = sliceKind.length;
      sliceIds.set(id, s);
      sliceKind.push(kind);
      sliceValue.push(value);
      slicePath.push(path);
      budget.groups++;
    }
    return s;
  };
  const ALL = slice('all', '');
  const patternGoals = goals.filter(isPatternGoal);
  const patternMeets = patternGoals.map((g) => new GoalMasks([g], dicts).meets());
  const goalMeets = goals.map((g) => new GoalMasks([g], dicts).meets());
  const keys = goals.map(goalKey);

  // Each session's slices: its attributes' values, and what its events (any day) make it part of.
  const lists: number[][] = Array.from({ length: sessions }, () => []);
  for (let s = 0; s < sessions; s++) {
    const list = lists[s]!;
    ATTRIBUTES.forEach((attribute, a) => {
      const code = chunk.attributes[a]![s]!;
      list.push(slice(attribute, dicts.attributes[a]!.values[code]!));
    });
  }
  /** Goals each session converts on, as bits (a site has at most 100 goals: up to four numbers). */
  const converts: Uint8Array[] = goals.map(() => new Uint8Array(sessions));
  const events = [
    { session: chunk.evSession, pageview: chunk.evPageview, code: chunk.evCode, props: chunk.evProps, propKey: chunk.evPropKey, propValue: chunk.evPropValue },
    { session: chunk.exSession, pageview: chunk.exPageview, code: chunk.exCode, props: chunk.exProps, propKey: chunk.exPropKey, propValue: chunk.exPropValue },
  ];
  for (const list of events) {
    for (let i = 0; i < list.session.length; i++) {
      const s = list.session[i]!;
      const code = list.code[i]!;
      const own = lists[s]!;
      const id = list.pageview[i] ? slice('page', dicts.paths.values[code]!, code) : slice('event', dicts.names.values[code]!);
      if (!own.includes(id)) own.push(id);
      for (let g = 0; g < goals.length; g++) if (goalMeets[g]!(list, i)) converts[g]![s] = 1;
      if (list.pageview[i]) {
        patternGoals.forEach((goal, p) => {
          if (!patternMeets[p]!(list, i)) return;
          const gid = slice('goal', goal.value);
          if (!own.includes(gid)) own.push(gid);
        });
      }
    }
    if (budget.groups > maxGroups) return undefined;
  }

  // The day's pageviews per session, and per session and path (a page slice counts its path's only).
  const dayViews = new Float64Array(sessions);
  const pathViews = new Map<number, number>();
  const pathCount = dicts.paths.values.length;
  for (let e = 0; e < chunk.evSession.length; e++) {
    if (!chunk.evPageview[e]) continue;
    const s = chunk.evSession[e]!;
    dayViews[s]!++;
    const key = s * pathCount + chunk.evCode[e]!;
    pathViews.set(key, (pathViews.get(key) ?? 0) + 1);
  }
  const viewsOf = (s: number, m: number) => (slicePath[m]! < 0 ? dayViews[s]! : (pathViews.get(s * pathCount + slicePath[m]!) ?? 0));

  // Totals: the slice's own sessions (visitor order) and the day's pageviews of all its sessions, whole and by dimension value.
  const DIMS = BREAKDOWNS.length + 1;
  const totals = new Sums(5, budget); // visitors, sessions, bounces, duration, pageviews
  const utmCodes = new Map<string, number>();
  const utmValues: string[] = [];
  const valueOf = (d: number, s: number): number => {
    const at = DIMENSION_ATTRIBUTES[d]!;
    if (at.length === 1) return chunk.attributes[at[0]!]![s]!;
    const text = at.map((a) => dicts.attributes[a]!.values[chunk.attributes[a]![s]!]!).join('\u0000');
    let code = utmCodes.get(text);
    if (code === undefined) {
      utmCodes.set(text, (code = utmValues.length));
      utmValues.push(text);
    }
    return code;
  };
  const groupKey = (m: number, d: number, value: number) => (m * DIMS + d) * 67_108_864 + value;
  const values = new Int32Array(BREAKDOWNS.length);
  const [vis, ses, bou, dur, pvs] = totals.columns as [number[], number[], number[], number[], number[]];
  for (let s = 0; s < sessions; s++) {
    const mine = s < chunk.own;
    const views = dayViews[s]!;
    if (!mine && views === 0) continue;
    for (let d = 0; d < values.length; d++) values[d] = valueOf(d, s);
    const visitor = mine ? chunk.visitor[s]! : -1;
    for (const m of lists[s]!) {
      if (m === ALL) continue;
      const pv = views === 0 ? 0 : viewsOf(s, m);
      for (let d = 0; d < DIMS; d++) {
        const g = totals.at(groupKey(m, d, d === 0 ? 0 : values[d - 1]!));
        if (mine) {
          totals.visit(g, 0, visitor);
          ses[g]!++;
          bou[g]! += chunk.bounce[s]!;
          dur[g]! += chunk.durationMs[s]!;
        }
        pvs[g]! += pv;
      }
    }
    if (budget.groups > maxGroups) return undefined;
  }
  void vis;

  // Pages and events of the day, by the slices of each event's session (events come grouped by visitor).
  const pages = new Sums(4, budget); // pageviews, visitors, timed views, time on page
  const named = new Sums(1, budget);
  const [views, , timed, onPage] = pages.columns as [number[], number[], number[], number[]];
  const [counts] = named.columns as [number[]];
  const nameCount = dicts.names.values.length;
  for (let e = 0; e < chunk.evSession.length; e++) {
    const s = chunk.evSession[e]!;
    const code = chunk.evCode[e]!;
    if (chunk.evPageview[e]) {
      const gap = chunk.evGap[e]!;
      for (const m of lists[s]!) {
        if (m === ALL) continue;
        const g = pages.at(m * pathCount + code);
        views[g]!++;
        pages.visit(g, 1, chunk.evVisitor[e]!);
        if (gap === gap) {
          timed[g]!++;
          onPage[g]! += gap;
        }
      }
    } else {
      for (const m of lists[s]!) if (m !== ALL) counts[named.at(m * nameCount + code)]!++;
    }
    if (budget.groups > maxGroups) return undefined;
  }

  // Goals: converting sessions starting on the day (visitors), the day's events meeting each goal (conversions).
  const goalSums = new TextSums(2, budget);
  const withAll = (s: number) => [ALL, ...lists[s]!];
  for (let g = 0; g < goals.length; g++) {
    for (let s = 0; s < chunk.own; s++) {
      if (!converts[g]![s]) continue;
      for (const m of withAll(s)) {
        const row = goalSums.at([String(m), keys[g]!]);
        if (row.last !== chunk.visitor[s]) {
          row.last = chunk.visitor[s]!;
          row.values[0]!++;
        }
      }
    }
    const day = events[0]!;
    for (let e = 0; e < day.session.length; e++) {
      if (!goalMeets[g]!(day, e)) continue;
      for (const m of withAll(day.session[e]!)) goalSums.at([String(m), keys[g]!]).values[1]!++;
    }
  }

  // Properties of the day's custom events, by key and by key and value.
  const propSums = new TextSums(2, budget);
  for (let e = 0; e < chunk.evSession.length; e++) {
    if (chunk.evPageview[e] || chunk.evProps[e] === chunk.evProps[e + 1]) continue;
    const name = dicts.names.values[chunk.evCode[e]!]!;
    const visitor = chunk.evVisitor[e]!;
    for (let j = chunk.evProps[e]!; j < chunk.evProps[e + 1]!; j++) {
      const key = dicts.propKeys.values[chunk.evPropKey[j]!]!;
      const value = dicts.propValues.values[chunk.evPropValue[j]!]!;
      for (const m of withAll(chunk.evSession[e]!)) {
        for (const row of [propSums.at([String(m), name, key, '0', '']), propSums.at([String(m), name, key, '1', value])]) {
          row.values[0]!++;
          if (row.last !== visitor) {
            row.last = visitor;
            row.values[1]!++;
          }
        }
      }
    }
    if (budget.groups > maxGroups) return undefined;
  }

  const id = (m: number) => [sliceKind[m]!, sliceValue[m]!] as const;
  const dimensionValue = (d: number, value: number) => (BREAKDOWNS[d] === 'utm' ? utmValues[value]! : dicts.attributes[DIMENSION_ATTRIBUTES[d]![0]!]!.values[value]!);
  const out: SliceRows = { totals: [], pages: [], events: [], goals: [], props: [] };
  totals.keys.forEach((key, g) => {
    const value = key % 67_108_864;
    const md = (key - value) / 67_108_864;
    const d = md % DIMS;
    const m = (md - d) / DIMS;
    out.totals.push([...id(m), d === 0 ? '' : BREAKDOWNS[d - 1]!, d === 0 ? '' : dimensionValue(d - 1, value), vis[g]!, ses[g]!, bou[g]!, dur[g]!, pvs[g]!]);
  });
  pages.keys.forEach((key, g) => {
    const path = key % pathCount;
    out.pages.push([...id((key - path) / pathCount), dicts.paths.values[path]!, views[g]!, pages.columns[1]![g]!, timed[g]!, onPage[g]!]);
  });
  named.keys.forEach((key, g) => {
    const name = key % nameCount;
    out.events.push([...id((key - name) / nameCount), dicts.names.values[name]!, counts[g]!]);
  });
  for (const { key: [m, goal], values: [visitors, conversions] } of goalSums.rows.values()) out.goals.push([...id(Number(m)), goal!, visitors!, conversions!]);
  for (const { key: [m, name, key, level, value], values: [count, visitors] } of propSums.rows.values()) {
    out.props.push([...id(Number(m)), name!, key!, Number(level), value!, count!, visitors!]);
  }
  return out;
}
