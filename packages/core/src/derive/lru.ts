/**
 * A bounded memo for derivations whose inputs repeat constantly during an import (the same
 * user agents and IPs appear on every event of a visitor), without unbounded memory.
 */

/**
 * Wraps a pure one-argument function with a least-recently-used cache of `maxEntries`.
 * A `Map` iterates in insertion order, so re-inserting on each hit keeps the least recently
 * used key first, where eviction finds it.
 * @example
 * const slowLength = (s: string) => s.length;
 * const fastLength = memoizeLru(slowLength, 1000);
 * fastLength('abc'); // 3, computed; the next call with 'abc' is served from the cache
 */
export function memoizeLru<R>(fn: (key: string) => R, maxEntries: number): (key: string) => R {
  const cache = new Map<string, R>();
  return (key) => {
    const hit = cache.get(key);
    if (hit !== undefined || cache.has(key)) {
      cache.delete(key);
      cache.set(key, hit as R);
      return hit as R;
    }
    const value = fn(key);
    cache.set(key, value);
    if (cache.size > maxEntries) cache.delete(cache.keys().next().value as string);
    return value;
  };
}
