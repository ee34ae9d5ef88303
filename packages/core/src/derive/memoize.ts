/**
 * A bounded memo for derivations whose inputs repeat constantly during an import (the same
 * user agents and IPs appear on every event of a visitor), without unbounded memory.
 */

/**
 * Wraps a pure one-argument function with an approximately least-recently-used cache of at
 * most `maxEntries` results, kept in two generations: new results go into the young one;
 * when it is full, it becomes the old one and the previous old one is dropped; a hit in
 * the old generation is copied into the young one, so entries in use survive.
 *
 * Why not one `Map` evicting its first key: V8 leaves deleted entries in place until the
 * table is rebuilt, and `keys().next()` walks over them, so that costs ~4 µs per miss at
 * 5,000 entries, more than parsing an IP. Dropping a whole generation is O(1).
 * @example
 * const slowLength = (s: string) => s.length;
 * const fastLength = memoizeRecent(slowLength, 1000);
 * fastLength('abc'); // 3, computed; the next call with 'abc' is served from the cache
 */
export function memoizeRecent<R>(fn: (key: string) => R, maxEntries: number): (key: string) => R {
  const generationSize = Math.max(1, Math.floor(maxEntries / 2));
  let young = new Map<string, R>();
  let old = new Map<string, R>();
  return (key) => {
    if (young.has(key)) return young.get(key) as R;
    const value = old.has(key) ? (old.get(key) as R) : fn(key);
    if (young.size >= generationSize) {
      old = young;
      young = new Map();
    }
    young.set(key, value);
    return value;
  };
}
