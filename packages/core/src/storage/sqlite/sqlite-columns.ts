/**
 * A bounded in-memory columnar copy of the raw rows, one chunk per (site, day),
 * for filtered reads (sqlite-scan.ts evaluates a `Selection` over it). Strings
 * are dictionary-encoded per site, so each condition is tested once per
 * distinct value, and a day's sessions and events are typed arrays scanned in a
 * few milliseconds where SQL over the same rows takes hundreds.
 *
 * A chunk holds everything needed to decide, for each session it mentions,
 * whether the session matches: the day's own sessions (starting that day), the
 * "foreign" sessions of the day's events that started earlier, and the events of
 * both kinds of session that lie outside the day. So a chunk reads the rows of
 * its own day and of the days its foreign sessions started on (`dependsOn`): a
 * write that changes its content changes one of those days' rows (a later event
 * of a session changes the session's row on its start day), and the chunk stays
 * valid while their versions (sqlite-day-versions.ts) hold.
 */
import type { SessionAttribute } from '../types.js';
import type { DayRows, PropsCell } from './sqlite-chunk-reader.js';
import { SESSION_ATTRIBUTE_COLUMN } from '../selection.js';

/** The session attributes in chunk order; `entryPath` shares the path dictionary with pageviews. */
export const ATTRIBUTES: readonly SessionAttribute[] = Object.keys(SESSION_ATTRIBUTE_COLUMN) as SessionAttribute[];

/** Estimated bytes a dictionary spends on a value besides its characters (string header, map entry, array slot). */
const VALUE_BYTES = 80;

/** Strings of one kind, each with a small integer code. */
export class Dictionary {
  readonly values: string[] = [];
  /** Estimated memory of the values (two bytes a character, the most V8 spends). */
  bytes = 0;
  private readonly codes = new Map<string, number>();
  code(value: string): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(value, code);
      this.bytes += value.length * 2 + VALUE_BYTES;
    }
    return code;
  }
  /** The value's code, or undefined when no chunk has it yet (adds nothing). */
  find(value: string): number | undefined {
    return this.codes.get(value);
  }
}

/** A site's dictionaries: `paths` (entry pages and pageview paths), `names` (custom events), property keys and values, one per other attribute. */
export interface SiteDictionaries {
  paths: Dictionary;
  names: Dictionary;
  propKeys: Dictionary;
  propValues: Dictionary;
  /** Indexed like `ATTRIBUTES` (index 0, `entryPath`, is `paths`). */
  attributes: Dictionary[];
}

/** One (site, day): local session index s < `own` are the day's sessions, the rest foreign ones. */
export interface DayChunk {
  day: string;
  own: number;
  sessions: number;
  /** Attribute codes, `ATTRIBUTES` order, each `sessions` long. */
  attributes: Int32Array[];
  /** Own sessions only: visitor group (consecutive sessions of one visitor share it), bounce, duration, start. */
  visitor: Int32Array;
  bounce: Uint8Array;
  durationMs: Float64Array;
  startTs: Float64Array;
  /** The day's events, grouped by visitor: session (local index), pageview (1) or custom event (0), path or name code, visitor group, gap (NaN for none), timestamp. */
  evSession: Int32Array;
  evPageview: Uint8Array;
  evCode: Int32Array;
  evVisitor: Int32Array;
  evGap: Float64Array;
  evTs: Float64Array;
  /**
   * The custom events' properties, as key and value codes: those of day event `e` are
   * `evPropKey/evPropValue[evProps[e] .. evProps[e + 1])` (none for pageviews).
   */
  evProps: Int32Array;
  evPropKey: Int32Array;
  evPropValue: Int32Array;
  /** Events of the chunk's sessions on other days, for deciding whether they match; their properties as above. */
  exSession: Int32Array;
  exPageview: Uint8Array;
  exCode: Int32Array;
  exProps: Int32Array;
  exPropKey: Int32Array;
  exPropValue: Int32Array;
  /** Distinct visitor groups (sessions and events numbered apart), for stamps unique across chunks. */
  groups: number;
  /** Other days whose rows this chunk copies (the start days of its foreign sessions). */
  dependsOn: string[];
  /** Which sessions match, for the last few selections asked (by their JSON): a dashboard asks every endpoint with the same filters. */
  matches: Map<string, Uint8Array>;
  /** Per goal asked (by type and value), where it converts in this chunk (sqlite-scan.ts `goalTotals`). */
  goalHits: Map<string, GoalHits>;
}

/** The memory of a site's dictionaries (`paths` counted once, though two kinds share it). */
export function dictionaryBytes(dicts: SiteDictionaries): number {
  let bytes = dicts.names.bytes + dicts.propKeys.bytes + dicts.propValues.bytes;
  for (const d of dicts.attributes) bytes += d.bytes;
  return bytes;
}

/** The memory of a chunk: its arrays and what the scans keep in it (matching sessions, goal hits). */
export function chunkBytes(chunk: DayChunk): number {
  let bytes = 0;
  for (const value of Object.values(chunk)) if (ArrayBuffer.isView(value)) bytes += value.byteLength;
  for (const a of chunk.attributes) bytes += a.byteLength;
  for (const m of chunk.matches.values()) bytes += m.byteLength;
  for (const g of chunk.goalHits.values()) bytes += g.own.byteLength + g.events.byteLength;
  return bytes;
}

/** Where one goal converts in a chunk: its own sessions that convert (ascending), and the session of each of the day's events that meets it. */
export interface GoalHits {
  own: Int32Array;
  events: Int32Array;
}

/** Milliseconds of building between two pauses (a loop checks the clock every 1,024 rows). */
const SLICE_MS = 8;

/** A clock for pausing a long loop: `due(i)` is true every 1,024 rows once `SLICE_MS` have passed since the last pause. */
function pacer() {
  let since = performance.now();
  return (i: number): boolean => {
    if ((i & 1023) !== 1023 || performance.now() - since < SLICE_MS) return false;
    since = performance.now();
    return true;
  };
}

/**
 * Builds a day's chunk from its rows (sqlite-chunk-reader.ts), coding strings with
 * the site's dictionaries. A generator: it pauses (`yield`) between its phases and
 * every `SLICE_MS` inside them, so a caller may let the event loop run there;
 * `runSteps` runs it through at once.
 */
export function* buildChunk(rows: DayRows, dicts: SiteDictionaries): Generator<void, DayChunk> {
  const { day, own, events, foreign } = rows;
  const due = pacer();
  const local = new Map<string, number>();
  for (let i = 0; i < own.length; i++) local.set(own[i]![0], i);
  const dependsOn = new Set<string>();
  for (const row of foreign) {
    local.set(row[0], local.size);
    dependsOn.add(row[1]);
  }
  const sessions = own.length + foreign.length;
  const attributes: Int32Array[] = [];
  for (let a = 0; a < ATTRIBUTES.length; a++) {
    const codes = new Int32Array(sessions);
    const dict = dicts.attributes[a]!;
    for (let i = 0; i < own.length; i++) {
      codes[i] = dict.code(own[i]![5 + a] as string);
      if (due(i)) yield;
    }
    for (let i = 0; i < foreign.length; i++) codes[own.length + i] = dict.code(foreign[i]![4 + a] as string);
    attributes.push(codes);
  }
  const visitor = new Int32Array(own.length);
  const bounce = new Uint8Array(own.length);
  const durationMs = new Float64Array(own.length);
  const startTs = new Float64Array(own.length);
  let group = -1;
  for (let i = 0; i < own.length; i++) {
    const row = own[i]!;
    if (i === 0 || row[1] !== own[i - 1]![1]) group++;
    visitor[i] = group;
    bounce[i] = row[4];
    durationMs[i] = row[3] - row[2];
    startTs[i] = row[2];
  }
  const sessionGroups = group + 1;
  yield;
  const n = events.length;
  // Events grouped by visitor (a counting sort by the visitor's group), so a scan sees each visitor's events together.
  const groups = new Map<string, number>();
  const groupOf = new Int32Array(n);
  const sessionOf = new Int32Array(n);
  const perGroup: number[] = [];
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const s = local.get(events[i]![0]);
    // An event without a session row is in no session: the raw definition's join drops it too.
    if (s === undefined) {
      groupOf[i] = -1;
      continue;
    }
    const visitorId = events[i]![1];
    let g = groups.get(visitorId);
    if (g === undefined) {
      groups.set(visitorId, (g = groups.size));
      perGroup.push(0);
    }
    groupOf[i] = g;
    sessionOf[i] = s;
    perGroup[g]!++;
    kept++;
    if (due(i)) yield;
  }
  yield;
  const next = new Int32Array(perGroup.length);
  for (let g = 1; g < perGroup.length; g++) next[g] = next[g - 1]! + perGroup[g - 1]!;
  const evSession = new Int32Array(kept);
  const evPageview = new Uint8Array(kept);
  const evCode = new Int32Array(kept);
  const evVisitor = new Int32Array(kept);
  const evGap = new Float64Array(kept);
  const evTs = new Float64Array(kept);
  /** The row each placed event came from, to lay out its properties in placed order. */
  const rowOf = new Int32Array(kept);
  for (let i = 0; i < n; i++) {
    const g = groupOf[i]!;
    if (g < 0) continue;
    const [, , type, text, gap, ts] = events[i]!;
    const at = next[g]!++;
    rowOf[at] = i;
    evSession[at] = sessionOf[i]!;
    evPageview[at] = type === 0 ? 1 : 0;
    evCode[at] = type === 0 ? dicts.paths.code(text) : dicts.names.code(text);
    evVisitor[at] = sessionGroups + g;
    evGap[at] = gap ?? Number.NaN;
    evTs[at] = ts;
    if (due(i)) yield;
  }
  const ev = yield* codeProps(kept, (at) => events[rowOf[at]!]![7], dicts, due);
  const { outside } = rows;
  const exSession = new Int32Array(outside.length);
  const exPageview = new Uint8Array(outside.length);
  const exCode = new Int32Array(outside.length);
  for (let i = 0; i < outside.length; i++) {
    const [sessionId, type, text] = outside[i]!;
    exSession[i] = local.get(sessionId)!;
    exPageview[i] = type === 0 ? 1 : 0;
    exCode[i] = type === 0 ? dicts.paths.code(text) : dicts.names.code(text);
    if (due(i)) yield;
  }
  const ex = yield* codeProps(outside.length, (i) => outside[i]![3], dicts, due);
  dependsOn.delete(day);
  return {
    day, own: own.length, sessions, attributes, visitor, bounce, durationMs, startTs,
    evSession, evPageview, evCode, evVisitor, evGap, evTs, evProps: ev.offsets, evPropKey: ev.keys, evPropValue: ev.values,
    exSession, exPageview, exCode, exProps: ex.offsets, exPropKey: ex.keys, exPropValue: ex.values,
    groups: sessionGroups + perGroup.length,
    dependsOn: [...dependsOn].sort(),
    matches: new Map(),
    goalHits: new Map(),
  };
}

/** The properties of `count` events (`propsOf(i)`) as offsets into key and value codes (see `DayChunk.evProps`). */
function* codeProps(count: number, propsOf: (i: number) => PropsCell | undefined, dicts: SiteDictionaries, due: (i: number) => boolean): Generator<void, { offsets: Int32Array; keys: Int32Array; values: Int32Array }> {
  const offsets = new Int32Array(count + 1);
  let total = 0;
  for (let i = 0; i < count; i++) {
    total += propsOf(i)?.length ?? 0;
    offsets[i + 1] = total;
  }
  const keys = new Int32Array(total);
  const values = new Int32Array(total);
  for (let i = 0, at = 0; i < count; i++) {
    for (const [key, value] of propsOf(i) ?? []) {
      keys[at] = dicts.propKeys.code(key);
      values[at++] = dicts.propValues.code(value);
    }
    if (due(i)) yield;
  }
  return { offsets, keys, values };
}

/** Runs a generator of steps (`readDay`, `buildChunk`) through without pausing. */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
