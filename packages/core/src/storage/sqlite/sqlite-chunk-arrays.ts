/**
 * What a chunk is built with while its day is read (sqlite-chunk-builder.ts): typed arrays
 * that grow as rows come, and a site dictionary as one load sees it.
 */
import type { Dictionary } from './sqlite-columns.js';

type TypedArray = Int32Array | Float64Array | Uint8Array;

/** A typed array that grows as values are pushed (doubling), read back trimmed by `done`. */
export class Grow<T extends TypedArray> {
  length = 0;
  constructor(private readonly make: (n: number) => T, private data: T = make(64)) {}
  push(value: number): void {
    if (this.length === this.data.length) this.fit(this.length + 1);
    this.data[this.length++] = value;
  }
  /** Sets index `i`, growing to it (the gap is zeros). */
  set(i: number, value: number): void {
    if (i >= this.data.length) this.fit(i + 1);
    this.data[i] = value;
    if (i >= this.length) this.length = i + 1;
  }
  get(i: number): number {
    return this.data[i]!;
  }
  done(): T {
    return this.data.slice(0, this.length) as T;
  }
  private fit(size: number): void {
    const grown = this.make(Math.max(size, this.data.length * 2));
    grown.set(this.data);
    this.data = grown;
  }
}
export const int32 = () => new Grow((n) => new Int32Array(n));

/**
 * A site dictionary as a load sees it: strings the site has keep their codes; new ones get
 * provisional codes (-1, -2, ...) that `merge` turns into site codes once the day is read in
 * full, so a day given up half-way (too large) leaves the site's dictionaries as they were.
 */
export class Provisional {
  private readonly fresh = new Map<string, number>();
  private readonly values: string[] = [];
  constructor(readonly site: Dictionary) {}
  code(value: string): number {
    const known = this.site.find(value);
    if (known !== undefined) return known;
    let code = this.fresh.get(value);
    if (code === undefined) {
      this.values.push(value);
      this.fresh.set(value, (code = -this.values.length));
    }
    return code;
  }
  /** Site codes of the new strings, by provisional code (-1 at index 0), added to the site now. */
  merge(): Int32Array {
    return Int32Array.from(this.values, (value) => this.site.code(value));
  }
}

/** Replaces provisional codes (< 0) in `codes` by site codes. */
export function settle(codes: Int32Array, merged: Int32Array): void {
  for (let i = 0; i < codes.length; i++) if (codes[i]! < 0) codes[i] = merged[-codes[i]! - 1]!;
}
export const float64 = () => new Grow((n) => new Float64Array(n));
export const uint8 = () => new Grow((n) => new Uint8Array(n));
