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
 *   key and value (count, daily visitors);
 * - funnels: per saved funnel and step, the slice's sessions starting on the day that reach the
 *   step (sqlite-scan-funnel.ts `funnelLevels`: steps judged on all of the session's events),
 *   as distinct visitors.
 *
 * The `all` slice (every session) has goals, props and funnels only: the rollups hold the rest.
 * Everything is numbered (slices, dimension values) and summed in typed arrays: a day of a
 * busy site is a hundred thousand sessions in a dozen slices each.
 */
import { MAX_FUNNEL_STEPS } from '../../../funnels/funnel.js';
import { ATTRIBUTES, type DayChunk, pacer, runSteps, type SiteDictionaries } from '../sqlite-columns.js';
import { type ChunkEvents, eventsOf, GoalMasks } from '../sqlite-scan-selection.js';
import { funnelLevels } from '../sqlite-scan-funnel.js';
import { BREAKDOWNS, distinctFunnels, funnelKey, goalKey, isPatternGoal, type SliceKind, type SliceSettings } from './kinds.js';

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
  /** kind, slice, funnel key (kinds.ts `funnelKey`), step (1 to 8), visitors. */
  funnels: [SliceKind, string, string, number, number][];
}

/** Groups a day may make at most (a day of unique URLs would make millions): past it the day gets no slices and is read as before. */
export const MAX_GROUPS = 1_500_000;

/** Steps a funnel has at most: a funnel's step k is group code f * MAX_STEPS + k. */
const MAX_STEPS = MAX_FUNNEL_STEPS;
/** Each breakdown dimension's attribute index in the chunk (`utm`: -1, the triple). */
const DIMENSION_ATTRIBUTE = BREAKDOWNS.map((d) => (d === 'utm' ? -1 : ATTRIBUTES.indexOf(d)));
const UTM = [ATTRIBUTES.indexOf('utmSource'), ATTRIBUTES.indexOf('utmMedium'), ATTRIBUTES.indexOf('utmCampaign')] as const;
/** Dense indexes up to this many cells (16 MiB); past it a map. */
const DENSE_CELLS = 1 << 22;

class Budget {
  groups = 0;
  constructor(readonly max: number) {}
  get over(): boolean {
    return this.groups > this.max;
  }
}

/**
 * Groups by (slice, code): their numbers in order of first use, found in a dense table or,
 * for large code spaces, a map; `columns` summed per group, `last` the last visitor counted.
 */
class Groups {
  readonly slice: number[] = [];
  readonly code: number[] = [];
  readonly last: number[] = [];
  readonly columns: number[][];
  private readonly dense?: Int32Array;
  private readonly map = new Map<number, number>();
  constructor(private readonly codes: number, slices: number, width: number, private readonly budget: Budget) {
    if (slices * codes <= DENSE_CELLS) this.dense = new Int32Array(slices * codes).fill(-1);
    this.columns = Array.from({ length: width }, () => []);
  }
  at(slice: number, code: number): number {
    const key = slice * this.codes + code;
    let g = this.dense ? this.dense[key]! : (this.map.get(key) ?? -1);
    if (g < 0) {
      g = this.slice.length;
      if (this.dense) this.dense[key] = g;
      else this.map.set(key, g);
      this.slice.push(slice);
      this.code.push(code);
      this.last.push(-1);
      for (const c of this.columns) c.push(0);
      this.budget.groups++;
    }
    return g;
  }
  /** Counts `visitor` once in column `column` of group `g` (its rows come grouped by visitor). */
  visit(g: number, column: number, visitor: number): void {
    if (this.last[g] !== visitor) {
      this.last[g] = visitor;
      this.columns[column]![g]!++;
    }
  }
}

/** A growable list of numbers pairs. */
class Pairs {
  a = new Int32Array(1024);
  b = new Int32Array(1024);
  w = new Int32Array(1024);
  length = 0;
  push(a: number, b: number, w: number): void {
    if (this.length === this.a.length) {
      for (const k of ['a', 'b', 'w'] as const) {
        const grown = new Int32Array(this.length * 2);
        grown.set(this[k]);
        this[k] = grown;
      }
    }
    this.a[this.length] = a;
    this.b[this.length] = b;
    this.w[this.length++] = w;
  }
}

/**
 * The slices of `chunk`'s day (its codes read with `dicts`), for the site's goals and saved
 * funnels (`settings`); undefined when the day would make more than `maxGroups` groups.
 */
export function computeSlices(chunk: DayChunk, dicts: SiteDictionaries, settings: SliceSettings, maxGroups = MAX_GROUPS): SliceRows | undefined {
  return runSteps(computeSteps(chunk, dicts, settings, maxGroups));
}

/**
 * `computeSlices` a few milliseconds at a time: a generator that pauses (`yield`) between steps,
 * so a server computing a day of a busy site lets its event loop run meanwhile. The chunk and
 * the dictionaries' values it reads do not change between steps (dictionaries only grow).
 */
export function* computeSteps(chunk: DayChunk, dicts: SiteDictionaries, settings: SliceSettings, maxGroups = MAX_GROUPS): Generator<void, SliceRows | undefined> {
  const { goals, funnels } = distinctFunnels(settings);
  const due = pacer(256);
  const budget = new Budget(maxGroups);
  const sessions = chunk.sessions;
  const [day, outside] = eventsOf(chunk);

  // Slices by number: 0 is `all`; the others numbered as first met.
  const kinds: SliceKind[] = ['all'];
  const values: string[] = [''];
  /** A page slice's path code (its pageviews are its path's only); -1 for any other. */
  const paths: number[] = [-1];
  const numbered = (table: Int32Array, code: number, kind: SliceKind, value: () => string, path = -1): number => {
    let m = table[code]!;
    if (m < 0) {
      table[code] = m = kinds.length;
      kinds.push(kind);
      values.push(value());
      paths.push(path);
    }
    return m;
  };
  const attributeSlices = ATTRIBUTES.map((_, a) => new Int32Array(dicts.attributes[a]!.values.length).fill(-1));
  const pageSlices = new Int32Array(dicts.paths.values.length).fill(-1);
  const eventSlices = new Int32Array(dicts.names.values.length).fill(-1);
  const patterns = goals.filter(isPatternGoal);
  const patternSlices = new Int32Array(patterns.length).fill(-1);
  const patternMeets = patterns.map((g) => new GoalMasks([g], dicts).meets());
  const goalMeets = goals.map((g) => new GoalMasks([g], dicts).meets());

  // Which slices each session is in besides its attributes', from its events on any day, with its pageviews of the day
  // (a page slice's weight: the day's views of its path), and the goals each session converts on.
  const found = new Pairs();
  const converts = goals.map(() => new Uint8Array(sessions));
  const note = (events: ChunkEvents, onDay: boolean) => {
    for (let i = 0; i < events.session.length; i++) {
      const s = events.session[i]!;
      const code = events.code[i]!;
      const pageview = events.pageview[i] === 1;
      const m = pageview
        ? numbered(pageSlices, code, 'page', () => dicts.paths.values[code]!, code)
        : numbered(eventSlices, code, 'event', () => dicts.names.values[code]!);
      found.push(s, m, pageview && onDay ? 1 : 0);
      for (let g = 0; g < goals.length; g++) if (goalMeets[g]!(events, i)) converts[g]![s] = 1;
      if (!pageview) continue;
      for (let p = 0; p < patterns.length; p++) {
        if (!patternMeets[p]!(events, i)) continue;
        if (patternSlices[p]! < 0) numbered(patternSlices, p, 'goal', () => patterns[p]!.value);
        found.push(s, patternSlices[p]!, 0);
      }
    }
  };
  note(day, true);
  yield;
  note(outside, false);
  yield;
  for (let s = 0; s < sessions; s++) for (let a = 0; a < ATTRIBUTES.length; a++) {
    const code = chunk.attributes[a]![s]!;
    numbered(attributeSlices[a]!, code, ATTRIBUTES[a]!, () => dicts.attributes[a]!.values[code]!);
  }
  budget.groups += kinds.length;
  if (budget.over) return undefined;

  // Memberships of each session (CSR): `all`, its attributes' slices, then the slices its events put it in, once
  // each, with the day's views that count for each (a page slice's path only; every pageview of the day for the others).
  const dayViews = new Int32Array(sessions);
  for (let e = 0; e < day.session.length; e++) if (day.pageview[e]) dayViews[day.session[e]!]!++;
  const count = new Int32Array(sessions + 1);
  for (let i = 0; i < found.length; i++) count[found.a[i]! + 1]!++;
  const start = new Int32Array(sessions + 1);
  for (let s = 0; s < sessions; s++) start[s + 1] = start[s]! + 1 + ATTRIBUTES.length + count[s + 1]!;
  const member = new Int32Array(start[sessions]!);
  const weight = new Int32Array(start[sessions]!);
  const fill = new Int32Array(sessions);
  for (let s = 0; s < sessions; s++) {
    const at = start[s]!;
    member[at] = 0;
    weight[at] = dayViews[s]!;
    for (let a = 0; a < ATTRIBUTES.length; a++) {
      member[at + 1 + a] = attributeSlices[a]![chunk.attributes[a]![s]!]!;
      weight[at + 1 + a] = dayViews[s]!;
    }
    fill[s] = 1 + ATTRIBUTES.length;
  }
  // Found pairs, merged per session and slice (a mark per slice of the session last seen at it).
  const where = new Int32Array(kinds.length).fill(-1);
  const owner = new Int32Array(kinds.length).fill(-1);
  const order = new Int32Array(found.length);
  {
    const next = new Int32Array(sessions + 1);
    for (let i = 0; i < found.length; i++) next[found.a[i]! + 1]!++;
    for (let s = 0; s < sessions; s++) next[s + 1]! += next[s]!;
    for (let i = 0; i < found.length; i++) order[next[found.a[i]!]!++] = i;
  }
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const s = found.a[i]!;
    const m = found.b[i]!;
    if (owner[m] !== s) {
      owner[m] = s;
      where[m] = start[s]! + fill[s]!++;
      member[where[m]!] = m;
      weight[where[m]!] = 0;
    }
    weight[where[m]!]! += paths[m]! >= 0 ? found.w[i]! : 0;
  }
  for (let s = 0; s < sessions; s++) {
    // A non-page slice counts all of the day's views of its sessions.
    for (let j = start[s]! + 1 + ATTRIBUTES.length; j < start[s]! + fill[s]!; j++) if (paths[member[j]!]! < 0) weight[j] = dayViews[s]!;
  }
  const end = (s: number) => start[s]! + fill[s]!;

  // Totals: whole (dimension 0, one group per slice) and by each breakdown dimension's value code.
  const utmCodes = new Map<string, number>();
  const utmValues: string[] = [];
  const utmOf = new Int32Array(sessions);
  for (let s = 0; s < sessions; s++) {
    const text = UTM.map((a) => dicts.attributes[a]!.values[chunk.attributes[a]![s]!]!).join('\u0000');
    let code = utmCodes.get(text);
    if (code === undefined) {
      utmCodes.set(text, (code = utmValues.length));
      utmValues.push(text);
    }
    utmOf[s] = code;
  }
  const codeSpace = (d: number) => (DIMENSION_ATTRIBUTE[d]! < 0 ? utmValues.length : dicts.attributes[DIMENSION_ATTRIBUTE[d]!]!.values.length);
  const whole = new Groups(1, kinds.length, 5, budget); // visitors, sessions, bounces, duration, pageviews
  const byValue = BREAKDOWNS.map((_, d) => new Groups(codeSpace(d), kinds.length, 5, budget));
  const valueOf = (d: number, s: number) => (DIMENSION_ATTRIBUTE[d]! < 0 ? utmOf[s]! : chunk.attributes[DIMENSION_ATTRIBUTE[d]!]![s]!);
  const all = [whole, ...byValue];
  const codes = new Int32Array(all.length);
  for (let s = 0; s < sessions; s++) {
    const mine = s < chunk.own;
    if (!mine && dayViews[s] === 0) continue;
    for (let d = 0; d < BREAKDOWNS.length; d++) codes[d + 1] = valueOf(d, s);
    const visitor = mine ? chunk.visitor[s]! : -1;
    const bounce = mine ? chunk.bounce[s]! : 0;
    const duration = mine ? chunk.durationMs[s]! : 0;
    for (let j = start[s]! + 1; j < end(s); j++) {
      const m = member[j]!;
      const views = weight[j]!;
      for (let k = 0; k < all.length; k++) {
        const groups = all[k]!;
        const g = groups.at(m, codes[k]!);
        const c = groups.columns;
        if (mine) {
          groups.visit(g, 0, visitor);
          c[1]![g]!++;
          c[2]![g]! += bounce;
          c[3]![g]! += duration;
        }
        c[4]![g]! += views;
      }
    }
    if (budget.over) return undefined;
    if (due(s)) yield;
  }

  // Pages and custom events of the day, by the slices of each event's session (events come grouped by visitor).
  const pages = new Groups(dicts.paths.values.length, kinds.length, 4, budget); // pageviews, visitors, timed views, time on page
  const named = new Groups(dicts.names.values.length, kinds.length, 1, budget);
  const [views, , timed, onPage] = pages.columns as [number[], number[], number[], number[]];
  for (let e = 0; e < day.session.length; e++) {
    const s = day.session[e]!;
    const code = day.code[e]!;
    if (day.pageview[e]) {
      const gap = chunk.evGap[e]!;
      for (let j = start[s]! + 1; j < end(s); j++) {
        const g = pages.at(member[j]!, code);
        views[g]!++;
        pages.visit(g, 1, chunk.evVisitor[e]!);
        if (gap === gap) {
          timed[g]!++;
          onPage[g]! += gap;
        }
      }
    } else {
      for (let j = start[s]! + 1; j < end(s); j++) named.columns[0]![named.at(member[j]!, code)]!++;
    }
    if (budget.over) return undefined;
    if (due(e)) yield;
  }

  yield;
  // Goals, `all` included: converting sessions starting on the day (visitors), the day's events meeting each goal (conversions).
  const goalGroups = new Groups(Math.max(1, goals.length), kinds.length, 2, budget);
  for (let g = 0; g < goals.length; g++) {
    for (let s = 0; s < chunk.own; s++) {
      if (!converts[g]![s]) continue;
      for (let j = start[s]!; j < end(s); j++) goalGroups.visit(goalGroups.at(member[j]!, g), 0, chunk.visitor[s]!);
    }
    for (let e = 0; e < day.session.length; e++) {
      if (!goalMeets[g]!(day, e)) continue;
      const s = day.session[e]!;
      for (let j = start[s]!; j < end(s); j++) goalGroups.columns[1]![goalGroups.at(member[j]!, g)]!++;
    }
  }

  // Properties of the day's custom events, `all` included: by (name, key) and by (name, key, value), numbered as met.
  const propIds = new Map<string, number>();
  const propKeys: [number, number, number, number][] = []; // name code, key code, level, value code
  const propId = (name: number, key: number, level: number, value: number) => {
    const text = `${name} ${key} ${level} ${value}`;
    let id = propIds.get(text);
    if (id === undefined) {
      propIds.set(text, (id = propKeys.length));
      propKeys.push([name, key, level, value]);
    }
    return id;
  };
  const propEvents: [number, number, number][] = []; // event, key id, value id
  for (let e = 0; e < day.session.length; e++) {
    if (day.pageview[e]) continue;
    for (let j = day.props[e]!; j < day.props[e + 1]!; j++) {
      propEvents.push([e, propId(day.code[e]!, day.propKey[j]!, 0, 0), propId(day.code[e]!, day.propKey[j]!, 1, day.propValue[j]!)]);
    }
  }
  const props = new Groups(Math.max(1, propKeys.length), kinds.length, 2, budget); // count, visitors
  for (const [e, keyId, valueId] of propEvents) {
    const s = day.session[e]!;
    for (let j = start[s]!; j < end(s); j++) {
      for (const id of [keyId, valueId]) {
        const g = props.at(member[j]!, id);
        props.columns[0]![g]!++;
        props.visit(g, 1, chunk.evVisitor[e]!);
      }
    }
    if (budget.over) return undefined;
  }

  yield;
  // Funnels, `all` included: per funnel and step, the sessions starting on the day that reach it (steps are numbered f * 8 + k).
  const funnelGroups = new Groups(Math.max(1, funnels.length * MAX_STEPS), kinds.length, 1, budget);
  for (let f = 0; f < funnels.length; f++) {
    const levels = funnelLevels(chunk, funnels[f]!, dicts);
    for (let s = 0; s < chunk.own; s++) {
      const reached = levels[s]!;
      for (let k = 0; k < reached; k++) {
        for (let j = start[s]!; j < end(s); j++) funnelGroups.visit(funnelGroups.at(member[j]!, f * MAX_STEPS + k), 0, chunk.visitor[s]!);
      }
    }
    if (budget.over) return undefined;
    yield;
  }

  const out: SliceRows = { totals: [], pages: [], events: [], goals: [], props: [], funnels: [] };
  const columns = (groups: Groups, g: number) => groups.columns.map((c) => c[g]!);
  whole.slice.forEach((m, g) => {
    const [v, ses, bou, dur, pvs] = columns(whole, g);
    out.totals.push([kinds[m]!, values[m]!, '', '', v!, ses!, bou!, dur!, pvs!]);
  });
  byValue.forEach((groups, d) => {
    const a = DIMENSION_ATTRIBUTE[d]!;
    groups.slice.forEach((m, g) => {
      const code = groups.code[g]!;
      const [v, ses, bou, dur, pvs] = columns(groups, g);
      out.totals.push([kinds[m]!, values[m]!, BREAKDOWNS[d]!, a < 0 ? utmValues[code]! : dicts.attributes[a]!.values[code]!, v!, ses!, bou!, dur!, pvs!]);
    });
  });
  pages.slice.forEach((m, g) => out.pages.push([kinds[m]!, values[m]!, dicts.paths.values[pages.code[g]!]!, ...(columns(pages, g) as [number, number, number, number])]));
  named.slice.forEach((m, g) => out.events.push([kinds[m]!, values[m]!, dicts.names.values[named.code[g]!]!, named.columns[0]![g]!]));
  goalGroups.slice.forEach((m, g) => out.goals.push([kinds[m]!, values[m]!, goalKey(goals[goalGroups.code[g]!]!), ...(columns(goalGroups, g) as [number, number])]));
  props.slice.forEach((m, g) => {
    const [name, key, level, value] = propKeys[props.code[g]!]!;
    out.props.push([kinds[m]!, values[m]!, dicts.names.values[name]!, dicts.propKeys.values[key]!, level, level === 0 ? '' : dicts.propValues.values[value]!, ...(columns(props, g) as [number, number])]);
  });
  funnelGroups.slice.forEach((m, g) => {
    const code = funnelGroups.code[g]!;
    out.funnels.push([kinds[m]!, values[m]!, funnelKey(funnels[Math.floor(code / MAX_STEPS)]!), (code % MAX_STEPS) + 1, funnelGroups.columns[0]![g]!]);
  });
  return out;
}
