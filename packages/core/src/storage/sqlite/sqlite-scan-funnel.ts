/**
 * Funnels over the column cache: how many steps each own session of a chunk reaches, the
 * translation of `stepsReached` (funnels/funnel.ts) to a chunk's arrays, kept in the chunk per
 * funnel (it does not depend on the query); then a query sums daily visitors per step over the
 * matching sessions.
 */
import type { GoalDefinition } from '../../goals/goal.js';
import type { DayChunk, SiteDictionaries } from './sqlite-columns.js';
import { eventsOf, GoalMasks } from './sqlite-scan-selection.js';

/**
 * A funnel's steps as one string, the same for the same steps in the same order: how a chunk
 * keeps their levels and slices key their sums (slices/kinds.ts `funnelKey`).
 * @example stepsKey([{ type: 'page', value: '/pricing' }, { type: 'event', value: 'signup' }]) // '[["page","/pricing"],["event","signup"]]'
 */
export const stepsKey = (steps: readonly GoalDefinition[]): string => JSON.stringify(steps.map((g) => [g.type, g.value]));

/** Funnels whose levels a chunk keeps (a site has at most 20 saved; ad-hoc ones come and go). */
const MAX_FUNNELS_PER_CHUNK = 64;

/**
 * How many of `steps` each own session of the chunk reaches. A session's events are its day
 * events in record order (each visitor's are, sqlite-chunk-order.ts), then its events of later
 * days in record order: one pass takes, for the session's next step, the first event meeting it
 * whose `(ts, seq)` is past the last one taken (`open`: the events since that one share its key).
 */
export function funnelLevels(chunk: DayChunk, steps: readonly GoalDefinition[], dicts: SiteDictionaries): Uint8Array {
  const meets = steps.map((step) => new GoalMasks([step], dicts).meets());
  const levels = new Uint8Array(chunk.own);
  const open = new Uint8Array(chunk.own);
  const [day, outside] = eventsOf(chunk);
  for (const [list, ties] of [[day, chunk.evTies], [outside, chunk.exTies]] as const) {
    let t = 0;
    for (let i = 0; i < list.session.length; i++) {
      while (t < ties.length && ties[t]! < i) t++;
      const s = list.session[i]!;
      if (s >= chunk.own) continue;
      if (ties[t] !== i) open[s] = 0;
      const l = levels[s]!;
      if (l < steps.length && open[s] === 0 && meets[l]!(list, i)) {
        levels[s] = l + 1;
        open[s] = 1;
      }
    }
  }
  return levels;
}

/** The levels of a funnel in a chunk: kept there, worked out on first use. */
export function chunkFunnelLevels(chunk: DayChunk, steps: readonly GoalDefinition[], key: string, dicts: SiteDictionaries): Uint8Array {
  let levels = chunk.funnelLevels.get(key);
  if (!levels) {
    if (chunk.funnelLevels.size >= MAX_FUNNELS_PER_CHUNK) chunk.funnelLevels.clear();
    chunk.funnelLevels.set(key, (levels = funnelLevels(chunk, steps, dicts)));
  }
  return levels;
}

/**
 * Adds a chunk's counted sessions to each step's visitors: the matching own sessions (`match`),
 * a visitor once per step and chunk (own sessions come grouped by visitor; `stamps` holds the
 * last visitor group counted per step, `base` makes groups unique across chunks).
 */
export function addFunnelVisitors(chunk: DayChunk, levels: Uint8Array, match: Uint8Array, base: number, totals: number[], stamps: Float64Array): void {
  for (let s = 0; s < chunk.own; s++) {
    const l = levels[s]!;
    if (l === 0 || !match[s]) continue;
    const stamp = base + chunk.visitor[s]!;
    for (let k = 0; k < l; k++) {
      if (stamps[k] !== stamp) {
        stamps[k] = stamp;
        totals[k]!++;
      }
    }
  }
}
