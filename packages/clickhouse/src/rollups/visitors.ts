import type { DayRange } from '@siteline/core';
import { readDay } from '../schema/days.js';
import { visitorsSql, type VisitorDimension, type VisitorSources } from '../reads/queries.js';
import type { Rollups } from './rollups.js';
import type { SchemaTarget } from '../schema/schema.js';
import type { WriterIO } from '../write/writer.js';

/** Ranges whose last visitor sources are kept for the next read of the same range. */
const MAX_REMEMBERED_RANGES = 1_000;

/** The same days from the same builds, and the same days raw. */
function sameSources(a: VisitorSources, b: VisitorSources): boolean {
  const built = (s: VisitorSources) => s.built.map((x) => `${x.day}:${x.ver}`).sort().join(',');
  return built(a) === built(b) && [...a.raw].sort().join(',') === [...b.raw].sort().join(',');
}

/**
 * Daily distinct visitors summed per day (`''`) or per value: settled days
 * from their builds, the rest raw (rollups.ts). The day states of the range
 * decide which (one query) and the counts follow (a second). To save that
 * round trip, the counts are asked at once with the sources the last read of
 * the same range found, next to the day states; if the fresh sources are the
 * same (the usual case: past days stay settled, today stays raw), those
 * counts stand, else they are asked again with the fresh ones. With `value`,
 * the visitors of the sessions whose `dimension` is `value`, per day.
 */
export function createVisitorReads(io: Pick<WriterIO, 'rows'>, target: SchemaTarget, rollups: Rollups) {
  const lastSources = new Map<string, VisitorSources>();

  const count = async (range: DayRange, dimension: VisitorDimension, sources: VisitorSources, value: string | undefined) => {
    if (sources.built.length === 0 && sources.raw.length === 0) return [];
    return io.rows<{ k: string; n: string }>(visitorsSql(target, range, dimension, sources, value));
  };

  return async function visitorsBy(range: DayRange, dimension: VisitorDimension, value?: string): Promise<Map<string, number>> {
    const key = `${range.siteId}\u0000${range.from}\u0000${range.to}`;
    const guess = lastSources.get(key);
    const fresh = rollups.sources(range);
    let sources: VisitorSources;
    let found: { k: string; n: string }[] | undefined;
    if (guess) {
      const [counted, actual] = await Promise.all([count(range, dimension, guess, value), fresh]);
      sources = actual;
      if (sameSources(guess, actual)) found = counted;
    } else sources = await fresh;
    if (lastSources.size >= MAX_REMEMBERED_RANGES) lastSources.clear();
    lastSources.set(key, sources);
    found ??= await count(range, dimension, sources, value);
    const out = new Map<string, number>();
    for (const row of found) out.set(dimension === '' || value !== undefined ? readDay(row.k) : row.k, Number(row.n));
    return out;
  };
}

/** What `createVisitorReads` returns. */
export type VisitorReads = ReturnType<typeof createVisitorReads>;
