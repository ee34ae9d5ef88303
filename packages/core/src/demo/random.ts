/**
 * Seeded randomness for the demo generator. `Math.random` cannot be seeded,
 * and the generator must give the same events for the same seed (tests,
 * benchmarks and screenshots compare runs), so everything random goes
 * through one small PRNG.
 */

/** A source of uniform numbers in `[0, 1)`. */
export type Rng = () => number;

/**
 * mulberry32: a 32-bit PRNG, tiny and fast, good enough for synthetic data
 * (not for anything secret).
 * @example const rng = mulberry32(42); rng(); // 0.6011037519201636
 */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A picker over weighted items: cumulative weights and a binary search, so a
 * pick costs O(log n) however long the list (the generator picks millions).
 */
export function weighted<T>(entries: readonly (readonly [T, number])[]): (rng: Rng) => T {
  const items = entries.map(([item]) => item);
  const cumulative: number[] = [];
  let total = 0;
  for (const [, weight] of entries) cumulative.push((total += weight));
  if (items.length === 0 || !(total > 0)) throw new RangeError('weighted() needs at least one positive weight.');
  return (rng) => {
    const target = rng() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    return items[lo]!;
  };
}

/** Zipf weights `1 / rank^s` for a ranked list: a few items get most of the picks. */
export function zipf<T>(ranked: readonly T[], s = 1.07): (rng: Rng) => T {
  return weighted(ranked.map((item, i) => [item, 1 / (i + 1) ** s] as const));
}

/** A standard normal number (Box-Muller). */
export function normal(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
}

/** A Poisson-distributed count with mean `lambda` (normal approximation for large means). */
export function poisson(rng: Rng, lambda: number): number {
  if (lambda <= 0) return 0;
  if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * normal(rng)));
  const limit = Math.exp(-lambda);
  let k = 0;
  for (let p = rng(); p > limit; p *= rng()) k++;
  return k;
}

/** An integer in `[min, max]`. */
export const between = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A random token of letters and digits, for click ids and the like. */
export function token(rng: Rng, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += ALPHABET[Math.floor(rng() * ALPHABET.length)];
  return s;
}
