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
  /**
   * Record order (sqlite-chunk-order.ts): each visitor's day events, and each session's outside
   * events, are in `(ts, seq)` order; these list, ascending, the day events (`evTies`) and outside
   * events (`exTies`) whose `ts` and `seq` equal those of the one before them in their session
   * (nearly always none).
   */
  evTies: Int32Array;
  exTies: Int32Array;
  /** Distinct visitor groups (sessions and events numbered apart), for stamps unique across chunks. */
  groups: number;
  /** Other days whose rows this chunk copies (the start days of its foreign sessions). */
  dependsOn: string[];
  /** Which sessions match, for the last few selections asked (by their JSON): a dashboard asks every endpoint with the same filters. */
  matches: Map<string, Uint8Array>;
  /** Per goal asked (by type and value), where it converts in this chunk (sqlite-scan.ts `goalTotals`). */
  goalHits: Map<string, GoalHits>;
  /** Per funnel asked (by its steps), how many steps each own session reaches (sqlite-scan-funnel.ts). */
  funnelLevels: Map<string, Uint8Array>;
}

/** The memory of a site's dictionaries (`paths` counted once, though two kinds share it). */
export function dictionaryBytes(dicts: SiteDictionaries): number {
  let bytes = dicts.names.bytes + dicts.propKeys.bytes + dicts.propValues.bytes;
  for (const d of dicts.attributes) bytes += d.bytes;
  return bytes;
}

/** The memory of a chunk: its arrays and what the scans keep in it (matching sessions, goal hits, funnel levels). */
export function chunkBytes(chunk: DayChunk): number {
  let bytes = 0;
  for (const value of Object.values(chunk)) if (ArrayBuffer.isView(value)) bytes += value.byteLength;
  for (const a of chunk.attributes) bytes += a.byteLength;
  for (const m of chunk.matches.values()) bytes += m.byteLength;
  for (const g of chunk.goalHits.values()) bytes += g.own.byteLength + g.events.byteLength;
  for (const levels of chunk.funnelLevels.values()) bytes += levels.byteLength;
  return bytes;
}

/** Where one goal converts in a chunk: its own sessions that convert (ascending), and the session of each of the day's events that meets it. */
export interface GoalHits {
  own: Int32Array;
  events: Int32Array;
}

/** Milliseconds of loading or building between two pauses of an incremental load. */
const SLICE_MS = 8;

/**
 * A clock for pausing a long loop: `due(i)` is true once `SLICE_MS` have passed since the
 * last time it was, looking at the clock every `every`th step (a row is far cheaper than a clock read).
 * @example const due = pacer(); for (let i = 0; i < n; i++) { work(i); if (due(i)) yield; }
 */
export function pacer(every = 1024, sliceMs = SLICE_MS) {
  let since = performance.now();
  return (i: number): boolean => {
    if ((i + 1) % every !== 0 || performance.now() - since < sliceMs) return false;
    since = performance.now();
    return true;
  };
}

/** Runs a generator of steps (`readDay`, a chunk builder's `finish`) through without pausing. */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
