/**
 * Long lists in parts, where one statement should not carry them all: the writer's ids
 * (`IDS_PER_QUERY`), and the days a count or a raw read covers (`DAYS_PER_QUERY`).
 */

/** `list` in parts of `size` (the last one shorter). */
export function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
