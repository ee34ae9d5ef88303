/**
 * A `Selection` bound to a site's dictionaries (sqlite-columns.ts): each
 * condition tested once per distinct value, then which of a chunk's sessions
 * match, as a byte per session. And the growable per-code counters the scans sum into.
 */
import { allHold } from '../selection.js';
import type { Selection } from '../types.js';
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

/** A selection bound to a site's dictionaries; `matching(chunk)` flags each local session that matches. */
export function compile(selection: Selection, dicts: SiteDictionaries) {
  const session = ATTRIBUTES.map((attribute, a) => {
    const conditions = selection.session.filter((c) => c.attribute === attribute);
    return conditions.length === 0 ? undefined : { a, mask: new Mask(dicts.attributes[a]!, (v) => allHold(conditions, v)) };
  }).filter((m) => m !== undefined);
  const page = selection.page.length === 0 ? undefined : new Mask(dicts.paths, (v) => allHold(selection.page, v));
  const event = selection.event.length === 0 ? undefined : new Mask(dicts.names, (v) => allHold(selection.event, v));
  const everything = session.length === 0 && !page && !event;
  const key = JSON.stringify(selection);

  /** Whether each of the chunk's sessions has an event of the kind (pageview or not) whose code passes `bits`. */
  const having = (chunk: DayChunk, pageviews: 0 | 1, bits: Uint8Array): Uint8Array => {
    const has = new Uint8Array(chunk.sessions);
    for (let e = 0; e < chunk.evSession.length; e++) if (chunk.evPageview[e] === pageviews && bits[chunk.evCode[e]!]) has[chunk.evSession[e]!] = 1;
    for (let e = 0; e < chunk.exSession.length; e++) if (chunk.exPageview[e] === pageviews && bits[chunk.exCode[e]!]) has[chunk.exSession[e]!] = 1;
    return has;
  };

  return {
    /** Path bits for selected pageviews, or undefined when every path is selected. */
    pageBits: () => page?.refresh(),
    eventBits: () => event?.refresh(),
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
      for (const [mask, pageviews] of [[page, 1], [event, 0]] as const) {
        if (!mask) continue;
        const has = having(chunk, pageviews, mask.refresh());
        for (let s = 0; s < chunk.sessions; s++) match[s]! &= has[s]!;
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
