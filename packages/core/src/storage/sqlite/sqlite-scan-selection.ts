/**
 * A `Selection` bound to a site's dictionaries (sqlite-columns.ts): each
 * condition tested once per distinct value, then which of a chunk's sessions
 * match, as a byte per session. And the growable per-code counters the scans sum into.
 */
import { goalPatternMatches, type GoalDefinition } from '../../goals/goal.js';
import { allHold } from '../selection.js';
import type { PropCondition, Selection } from '../types.js';
import { ATTRIBUTES, type DayChunk, type Dictionary, type SiteDictionaries } from './sqlite-columns.js';

/** Selections whose matching sessions a chunk keeps. */
const MATCHES_PER_CHUNK = 4;

/** A condition list tested once per dictionary value; `refresh` extends it to values added since. */
class Mask {
  bits = new Uint8Array(0);
  constructor(private readonly dict: Dictionary, private readonly test: (value: string) => boolean) {}
  refresh(): Uint8Array {
    const { values } = this.dict;
    if (this.bits.length < values.length) {
      const bits = new Uint8Array(values.length);
      bits.set(this.bits);
      for (let i = this.bits.length; i < values.length; i++) bits[i] = this.test(values[i]!) ? 1 : 0;
      this.bits = bits;
    }
    return this.bits;
  }
}

/** A chunk's events of one kind: the day's (`ev*`) or its sessions' on other days (`ex*`). */
export interface ChunkEvents {
  session: Int32Array;
  pageview: Uint8Array;
  code: Int32Array;
  props: Int32Array;
  propKey: Int32Array;
  propValue: Int32Array;
}

/** The day's events and the outside ones of a chunk, as `ChunkEvents`. */
export const eventsOf = (chunk: DayChunk): [ChunkEvents, ChunkEvents] => [
  { session: chunk.evSession, pageview: chunk.evPageview, code: chunk.evCode, props: chunk.evProps, propKey: chunk.evPropKey, propValue: chunk.evPropValue },
  { session: chunk.exSession, pageview: chunk.exPageview, code: chunk.exCode, props: chunk.exProps, propKey: chunk.exPropKey, propValue: chunk.exPropValue },
];

/**
 * Goals bound to a site's dictionaries: which custom event names and which paths meet
 * any of them (`meetsGoal`, goals/goal.ts), each tested once per distinct value.
 */
export class GoalMasks {
  private readonly names: Mask;
  private readonly paths: Mask;
  constructor(goals: readonly GoalDefinition[], dicts: SiteDictionaries) {
    const events = new Set(goals.filter((g) => g.type === 'event').map((g) => g.value));
    const patterns = goals.filter((g) => g.type === 'page').map((g) => g.value);
    this.names = new Mask(dicts.names, (v) => events.has(v));
    this.paths = new Mask(dicts.paths, (v) => patterns.some((p) => goalPatternMatches(p, v)));
  }
  /** A function telling whether event `i` of a kind meets one of the goals, valid while the dictionaries do not grow. */
  meets(): (events: ChunkEvents, i: number) => boolean {
    const names = this.names.refresh();
    const paths = this.paths.refresh();
    return (events, i) => (events.pageview[i] ? paths[events.code[i]!] : names[events.code[i]!]) === 1;
  }
  /** Whether each of the chunk's sessions has an event (any day) meeting one of the goals. */
  converting(chunk: DayChunk): Uint8Array {
    const meets = this.meets();
    const has = new Uint8Array(chunk.sessions);
    for (const events of eventsOf(chunk)) for (let i = 0; i < events.session.length; i++) if (meets(events, i)) has[events.session[i]!] = 1;
    return has;
  }
}

/** `prop:` conditions on one key: tested once per distinct value, and once on `''` for events without the key. */
interface PropTest {
  key: string;
  mask: Mask;
  lacking: boolean;
}

/** A selection bound to a site's dictionaries; `matching(chunk)` flags each local session that matches. */
export function compile(selection: Selection, dicts: SiteDictionaries) {
  const session = ATTRIBUTES.map((attribute, a) => {
    const conditions = selection.session.filter((c) => c.attribute === attribute);
    return conditions.length === 0 ? undefined : { a, mask: new Mask(dicts.attributes[a]!, (v) => allHold(conditions, v)) };
  }).filter((m) => m !== undefined);
  const page = selection.page.length === 0 ? undefined : new Mask(dicts.paths, (v) => allHold(selection.page, v));
  const event = selection.event.length === 0 ? undefined : new Mask(dicts.names, (v) => allHold(selection.event, v));
  const byKey = new Map<string, PropCondition[]>();
  for (const c of selection.prop ?? []) byKey.set(c.key, [...(byKey.get(c.key) ?? []), c]);
  const props: PropTest[] = [...byKey].map(([key, conditions]) => ({ key, mask: new Mask(dicts.propValues, (v) => allHold(conditions, v)), lacking: allHold(conditions, '') }));
  const goals = (selection.goal ?? []).map((c) => ({ converts: c.converts, masks: new GoalMasks(c.goals, dicts) }));
  const testsEvents = event !== undefined || props.length > 0;
  const everything = session.length === 0 && !page && !testsEvents && goals.length === 0;
  const key = JSON.stringify(selection);

  /**
   * Whether custom event `i` passes every `event` and `prop:` condition, or undefined when
   * there are none (every custom event passes). Valid while the dictionaries do not grow.
   */
  const passes = (): ((events: ChunkEvents, i: number) => boolean) | undefined => {
    if (!testsEvents) return undefined;
    const names = event?.refresh();
    const tests = props.map((p) => ({ code: dicts.propKeys.find(p.key), bits: p.mask.refresh(), lacking: p.lacking }));
    return (events, i) => {
      if (names && !names[events.code[i]!]) return false;
      for (const t of tests) {
        let holds = t.lacking;
        if (t.code !== undefined) {
          for (let j = events.props[i]!; j < events.props[i + 1]!; j++) {
            if (events.propKey[j] === t.code) {
              holds = t.bits[events.propValue[j]!] === 1;
              break;
            }
          }
        }
        if (!holds) return false;
      }
      return true;
    };
  };

  /** Whether each of the chunk's sessions has an event (any day) of the kind for which `test` holds. */
  const having = (chunk: DayChunk, pageviews: 0 | 1, test: (events: ChunkEvents, i: number) => boolean): Uint8Array => {
    const has = new Uint8Array(chunk.sessions);
    for (const events of eventsOf(chunk)) {
      for (let i = 0; i < events.session.length; i++) if (events.pageview[i] === pageviews && test(events, i)) has[events.session[i]!] = 1;
    }
    return has;
  };

  return {
    /** Path bits for selected pageviews, or undefined when every path is selected. */
    pageBits: () => page?.refresh(),
    /** Whether a custom event passes (`event` and `prop:` conditions), or undefined when every one does. */
    passes,
    matching(chunk: DayChunk): Uint8Array {
      const known = chunk.matches.get(key);
      if (known) return known;
      const match = new Uint8Array(chunk.sessions).fill(1);
      if (everything) return match;
      if (chunk.matches.size >= MATCHES_PER_CHUNK) chunk.matches.delete(chunk.matches.keys().next().value!);
      chunk.matches.set(key, match);
      for (const { a, mask } of session) {
        const bits = mask.refresh();
        const codes = chunk.attributes[a]!;
        for (let s = 0; s < chunk.sessions; s++) if (!bits[codes[s]!]) match[s] = 0;
      }
      if (page) {
        const bits = page.refresh();
        const has = having(chunk, 1, (events, i) => bits[events.code[i]!] === 1);
        for (let s = 0; s < chunk.sessions; s++) match[s]! &= has[s]!;
      }
      const pass = passes();
      if (pass) {
        const has = having(chunk, 0, pass);
        for (let s = 0; s < chunk.sessions; s++) match[s]! &= has[s]!;
      }
      for (const { converts, masks } of goals) {
        const has = masks.converting(chunk);
        const want = converts ? 1 : 0;
        for (let s = 0; s < chunk.sessions; s++) if (has[s] !== want) match[s] = 0;
      }
      return match;
    },
  };
}

/** Growable per-code counters (codes come from dictionaries that grow while a range loads). */
export class Counters {
  arrays: Float64Array[];
  constructor(private readonly width: number) {
    this.arrays = Array.from({ length: width }, () => new Float64Array(64));
  }
  fit(size: number): Float64Array[] {
    if (this.arrays[0]!.length < size) {
      this.arrays = this.arrays.map((old) => {
        const grown = new Float64Array(Math.max(size, old.length * 2));
        grown.set(old);
        return grown;
      });
    }
    return this.arrays;
  }
  /** Stamps (last visitor group seen per code) start at -1. */
  static stamps(size: number, old?: Float64Array): Float64Array {
    if (old && old.length >= size) return old;
    const grown = new Float64Array(Math.max(size, (old?.length ?? 32) * 2)).fill(-1);
    if (old) grown.set(old);
    return grown;
  }
}

export type CompiledSelection = ReturnType<typeof compile>;
